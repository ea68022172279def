#!/usr/bin/env bash
# Builds the Debian package from a staged install: `make deb` runs
#   make install DESTDIR=build/deb-root PREFIX=/usr
# and then this script, which writes build/headlines_VERSION_ARCH.deb (the path is its only
# output on stdout). Usage: packaging/deb/build-deb.sh STAGING_ROOT OUTPUT_DIR
# No maintainer scripts: dpkg's triggers already refresh the man-db index, the desktop file
# database and the hicolor icon cache, and a user manager loads a new user unit when asked for it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
root=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)

version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' "$repo/Sources/BarFormats/HeadlinesVersion.swift")
[ -n "$version" ] || { echo "build-deb: no version in HeadlinesVersion.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
[ -x "$root/usr/bin/headlines" ] || { echo "build-deb: $root/usr/bin/headlines missing: stage with PREFIX=/usr" >&2; exit 1; }
command -v dpkg-shlibdeps >/dev/null 2>&1 || { echo "build-deb: dpkg-shlibdeps missing: install dpkg-dev (scripts/install-deps.sh --test)" >&2; exit 1; }

# The changelog is the package's own (a native package: one version, upstream and Debian alike),
# so its latest entry must be this version.
changelog_version=$(dpkg-parsechangelog -l "$here/changelog" -S Version)
[ "$changelog_version" = "$version" ] \
    || { echo "build-deb: packaging/deb/changelog is at $changelog_version, the program at $version: add an entry" >&2; exit 1; }
install -d -m 755 "$root/usr/share/doc/headlines" "$root/usr/share/lintian/overrides"
gzip -9n < "$here/changelog" > "$root/usr/share/doc/headlines/changelog.gz"
chmod 644 "$root/usr/share/doc/headlines/changelog.gz"
install -m 644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/headlines"

# Depends: the packages of the shared libraries the dynamically linked programs load (their
# DT_NEEDED entries), with the minimum versions those libraries' shlibs/symbols files ask for.
# headlines-bar has no dynamic section and so nothing to add. dpkg-shlibdeps reads package names
# from a debian/control in its working folder, hence packaging/deb/debian/control.
dynamic=()
for program in "$root"/usr/bin/* "$root"/usr/libexec/headlines/*; do
    if readelf -d "$program" 2>/dev/null | grep -q '(NEEDED)'; then dynamic+=("-e$program"); fi
done
[ "${#dynamic[@]}" -eq 4 ] || { echo "build-deb: expected 4 dynamically linked programs, found ${#dynamic[@]}: ${dynamic[*]}" >&2; exit 1; }
depends=$(cd "$here" && dpkg-shlibdeps -O "${dynamic[@]}" | sed -n 's/^shlibs:Depends=//p')
# gdk-pixbuf is loaded (dlopen) when the reload child stores an image, so no DT_NEEDED names it:
# it is named here. libsecret, loaded the same way, is a Recommends (control.in): without it a
# sync service's password comes from a password-command or a password-file.
depends="$depends, libgdk-pixbuf-2.0-0"
for needed in libcurl4 libxml2 libnotify4 libglib2.0-0 libgdk-pixbuf-2.0-0 libc6; do
    grep -Eq "(^|, )$needed( |,|$)" <<<"$depends" || { echo "build-deb: Depends lacks $needed: $depends" >&2; exit 1; }
done

# Built-Using: headlines-bar holds parts of glibc's static libc.a, whose LGPL asks that the
# matching source stay available; the field tells the archive to keep that glibc source version.
built_using=$(dpkg-query -W -f='${source:Package} (= ${source:Version})' libc6-dev)

# The project's own identity (the repository's git config), not whoever made the last commit;
# without one, control.in's Maintainer line stands as written.
maintainer=${DEB_MAINTAINER:-}
if [ -z "$maintainer" ]; then
    email=$(git -C "$repo" config user.email 2>/dev/null || true)
    name=$(git -C "$repo" config user.name 2>/dev/null || true)
    [ -z "$email" ] || maintainer="${name:-headlines developers} <$email>"
fi
[ -n "$maintainer" ] || maintainer=$(sed -n 's/^Maintainer: //p' "$here/control.in")

rm -rf "$root/DEBIAN"
install -d -m 755 "$root/DEBIAN"
chmod 755 "$root"
size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends|" \
    -e "s|@BUILT_USING@|$built_using|" \
    -e "s|@INSTALLED_SIZE@|$size|" -e "s|^Maintainer: .*|Maintainer: $maintainer|" \
    "$here/control.in" > "$root/DEBIAN/control"
chmod 644 "$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums"

deb="$out/headlines_${version}_${arch}.deb"
dpkg-deb --build --root-owner-group -Zxz -z6 "$root" "$deb" >&2
echo "$deb"
