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

version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' "$repo/Sources/HeadlinesCore/Model/HeadlinesVersion.swift")
[ -n "$version" ] || { echo "build-deb: no version in HeadlinesVersion.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
binary="$root/usr/bin/headlines"
[ -x "$binary" ] || { echo "build-deb: $binary missing: stage with PREFIX=/usr" >&2; exit 1; }

# Depends: the packages of the libraries the binary links (its DT_NEEDED entries), with the
# minimum versions their shlibs/symbols files ask for. dpkg-shlibdeps reads package names from
# a debian/control in its working folder, hence packaging/deb/debian/control.
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
    depends=$(cd "$here" && dpkg-shlibdeps -O -e"$binary" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
else
    # Fallback without dpkg-dev: map each needed library to the package that ships it.
    depends=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | while read -r lib; do
        path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
        [ -n "$path" ] && dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1
    done | sort -u | paste -sd, | sed 's/,/, /g')
fi
for needed in libnotify4 libglib2.0-0 libcurl4 libc6; do
    grep -Eq "(^|, )$needed( |,|$)" <<<"$depends" || { echo "build-deb: Depends lacks $needed: $depends" >&2; exit 1; }
done

# Static-Built-Using: headlines-fetch carries libcurl, OpenSSL, libxml2, GLib and their libraries
# from Debian's static archives (Package.swift says why), so a security update of any of them
# needs this package rebuilt; the field (dpkg 1.21.3+) records which source versions it holds.
static_packages=(libcurl4-openssl-dev libssl-dev libxml2-dev libglib2.0-dev libnghttp2-dev libidn2-dev
                 libunistring-dev libssh2-1-dev libpsl-dev libzstd-dev libbrotli-dev zlib1g-dev liblzma-dev libpcre2-dev)
static_built_using=$(for p in "${static_packages[@]}"; do
    dpkg-query -W -f='${source:Package} (= ${source:Version})\n' "$p" 2>/dev/null || true
done | sort -u | paste -sd, | sed 's/,/, /g')
[ -n "$static_built_using" ] || { echo "build-deb: none of ${static_packages[*]} is installed: run scripts/install-deps.sh" >&2; exit 1; }

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
    -e "s|@STATIC_BUILT_USING@|$static_built_using|" \
    -e "s|@INSTALLED_SIZE@|$size|" -e "s|^Maintainer: .*|Maintainer: $maintainer|" \
    "$here/control.in" > "$root/DEBIAN/control"
chmod 644 "$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/md5sums"

deb="$out/headlines_${version}_${arch}.deb"
dpkg-deb --build --root-owner-group -Zxz -z6 "$root" "$deb" >&2
echo "$deb"
