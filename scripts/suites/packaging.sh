#!/usr/bin/env bash
# Packaging: the desktop file, the man pages, the systemd user unit, `make install`,
# `make uninstall` and the .deb, each checked against the real tool (lintian for the .deb). One
# "ok" line per check; the first failure stops the suite with a non-zero status. Needs root
# (dpkg -i / dpkg -r).
#
# What runs and what does not:
# - The unit is checked with `systemd-analyze verify --user` (parsing, the ExecStart binary, the
#   man pages it names). This machine has no systemd as PID 1 and no user manager, so the unit is
#   NOT started here; packaging/systemd/try-hardening.py instead runs `headlines run` under
#   whatever sandbox options the unit sets, with the kernel mechanisms systemd uses (a mount
#   namespace with the same read-only and writable paths, no_new_privs, and seccomp filters built
#   from `systemd-analyze syscall-filter`), and checks that its reload child sandboxes itself and
#   that the browser a click on a notification starts keeps the user's rights. That is an
#   emulation, and the suite says so.
# - The .deb is installed with dpkg -i and removed with dpkg -r on this machine (a trap removes it
#   on failure too).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v swift >/dev/null 2>&1 || export PATH="$PATH:/opt/swift/usr/bin"

. scripts/lib/common.sh
[ "$(id -u)" -eq 0 ] || die "the packaging suite needs root (dpkg -i, dpkg -r)"
# Every check below needs its tool: a missing one fails the suite here, never skips a check.
for tool in desktop-file-validate systemd-analyze man dpkg-deb lintian file readelf gzip zsh fish dunst Xvfb dbus-run-session; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is missing: run scripts/install-deps.sh"
done

suite_dir packaging
tmp=$WORK
installed_deb=0
EXIT_HOOKS+=('if [ "$installed_deb" = 1 ]; then dpkg -r headlines >/dev/null 2>&1 || true; fi')

# Every regular file make install writes, relative to DESTDIR/PREFIX (README "Install" lists the
# same): the programs a user runs in bin/, the internal ones in libexec/headlines/.
programs=(bin/headlines bin/headlines-bar libexec/headlines/headlines-host libexec/headlines/headlines-reload libexec/headlines/headlines-fetch)
expected=(
    "${programs[@]}"
    share/man/man1/headlines.1.gz
    share/man/man5/headlines.conf.5.gz
    share/applications/headlines.desktop
    share/icons/hicolor/scalable/apps/headlines.svg
    lib/systemd/user/headlines.service
    share/dbus-1/services/org.headlines.Headlines.service
    share/dbus-1/interfaces/org.headlines.Headlines1.xml
    share/bash-completion/completions/headlines
    share/zsh/vendor-completions/_headlines
    share/fish/vendor_completions.d/headlines.fish
    share/doc/headlines/copyright
    share/doc/headlines/README.md
    share/doc/headlines/waybar/config.jsonc
    share/doc/headlines/waybar/style.css
    share/doc/headlines/i3blocks/headlines.conf
    share/doc/headlines/dunst/headlines.dunstrc
    share/doc/headlines/examples/follow-headlines
    share/doc/headlines/bars.md
    share/headlines/demo/apitube/top-headlines-fl.json
    share/headlines/demo/demo/arrivals.json
    share/gnome-shell/extensions/headlines@headlines.org/metadata.json
    share/gnome-shell/extensions/headlines@headlines.org/indicator.js
    share/gnome-shell/extensions/headlines@headlines.org/extension.js
)
# Every bar's snippet, as packaging/bars/ holds it, under share/doc/headlines/bars/.
bar_snippets=(packaging/bars/*/*)
for f in "${bar_snippets[@]}"; do expected+=("share/doc/headlines/bars/${f#packaging/bars/}"); done
# The Plasma applet, as packaging/plasma/ holds it, under share/plasma/plasmoids/.
plasma_files=(packaging/plasma/org.headlines.headlines/metadata.json packaging/plasma/org.headlines.headlines/contents/ui/*.qml)
for f in "${plasma_files[@]}"; do expected+=("share/plasma/plasmoids/${f#packaging/plasma/}"); done
# make install's symlinks: headlines.1 describes `headlines-bar waybar` and `headlines-bar i3blocks`,
# and headlines' bash and fish completions complete headlines-bar too.
links=(share/man/man1/headlines-bar.1.gz share/bash-completion/completions/headlines-bar
       share/fish/vendor_completions.d/headlines-bar.fish)
# What only the .deb adds to the PREFIX=/usr install.
deb_only=(share/doc/headlines/changelog.gz share/lintian/overrides/headlines)

# Every program under $1 (a PREFIX) is stripped, and stripping broke none of them:
# every program prints its version.
check_programs() {
    local prefix=$1 p info
    for p in "${programs[@]}"; do
        info=$(file -b "$prefix/$p")
        case "$info" in *", stripped"*) ;; *) die "$prefix/$p is not stripped: $info" ;; esac
    done
    case "$(file -b "$prefix/bin/headlines-bar")" in *"statically linked"*) ;; *) die "$prefix/bin/headlines-bar is not static" ;; esac
    [ "$("$prefix/bin/headlines-bar" --version)" = "headlines $version" ] || die "$prefix/bin/headlines-bar --version"
    [ "$("$prefix/bin/headlines" --version)" = "headlines $version" ] || die "$prefix/bin/headlines --version"
    for p in headlines-host headlines-reload headlines-fetch; do
        [ "$("$prefix/libexec/headlines/$p" --version)" = "$p $version" ] || die "$prefix/libexec/headlines/$p --version"
    done
}

# ---- sources ----------------------------------------------------------------------------------
out=$(desktop-file-validate packaging/headlines.desktop 2>&1) || die "desktop-file-validate: $out"
[ -z "$out" ] || die "desktop-file-validate printed: $out"
# GNOME lists an app in its notification settings only with this key, KDE never a NoDisplay one.
grep -qx 'X-GNOME-UsesNotifications=true' packaging/headlines.desktop \
    || die "the desktop file lacks X-GNOME-UsesNotifications=true (GNOME would not list its notifications)"
! grep -qx 'NoDisplay=true' packaging/headlines.desktop || die "the desktop file is NoDisplay=true (KDE would leave it out)"
ok "desktop-file-validate packaging/headlines.desktop: no errors, no warnings; listed in GNOME's and KDE's notification settings"

for page in packaging/man/headlines.1 packaging/man/headlines.conf.5; do
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >"$tmp/page.txt") || die "man -l $page failed"
    [ -z "$warnings" ] || die "man -l $page warns: $warnings"
    grep -q '^NAME' "$tmp/page.txt" || die "man -l $page has no NAME section"
done
ok "man -l renders headlines.1 and headlines.conf.5 without groff warnings"
# A .TP tag is only the next input line: a heading split over two lines puts its second half in
# the body (`demo [--duration DURATION]`).
LC_ALL=C.UTF-8 MANWIDTH=80 man -l packaging/man/headlines.1 2>/dev/null | grep -Eq '^ +demo \[--duration DURATION\]$' \
    || die "headlines.1: the demo heading is not on one line"
ok "headlines.1: demo [--duration DURATION] is one heading line"

bash -n packaging/completions/headlines.bash || die "bash completion: syntax error"
zsh -n packaging/completions/_headlines || die "zsh completion: syntax error"
fish --no-execute packaging/completions/headlines.fish || die "fish completion: syntax error"
ok "completions parse (bash, zsh, fish)"

# ---- the .deb (builds release once; make install below reuses the build) -----------------------
start=$(date +%s)
make --no-print-directory deb >"$tmp/deb.log" 2>&1 || { tail -30 "$tmp/deb.log"; die "make deb"; }
version=$(sed -n 's/.*static let string = "\([^"]*\)".*/\1/p' Sources/BarFormats/HeadlinesVersion.swift)
deb="build/headlines_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || die "make deb did not write $deb"
# Depends comes from dpkg-shlibdeps over the dynamically linked programs: each library's package
# with the minimum version its symbols file asks for.
depends=$(dpkg-deb -f "$deb" Depends)
for pkg in libcurl4 libxml2 libnotify4 libglib2.0-0 libc6; do
    grep -Eq "(^|, )$pkg \(>= [^)]+\)(,|$)" <<<"$depends" || die "$deb: Depends lacks a versioned $pkg: $depends"
done
[ -z "$(dpkg-deb -f "$deb" Static-Built-Using)" ] || die "$deb still has Static-Built-Using"
built_using=$(dpkg-deb -f "$deb" Built-Using)
[ "$built_using" = "$(dpkg-query -W -f='${source:Package} (= ${source:Version})' libc6-dev)" ] \
    || die "$deb: Built-Using is '$built_using', not the glibc that headlines-bar holds"
# (The whole listing first: grep -q stopping early would make pipefail fail the pipeline.)
deb_files=$(dpkg-deb -c "$deb")
for p in libexec/headlines/headlines-host libexec/headlines/headlines-reload libexec/headlines/headlines-fetch; do
    grep -q " ./usr/$p\$" <<<"$deb_files" || die "$deb does not ship /usr/$p"
done
if grep -Eq ' ./usr/bin/headlines-(host|reload|fetch)$' <<<"$deb_files"; then die "$deb ships an internal program in /usr/bin"; fi
recommends=$(dpkg-deb -f "$deb" Recommends)
[ "$recommends" = "dunst | notification-daemon, xdg-utils, libsecret-1-0" ] || die "$deb: Recommends is '$recommends'"
maintainer=$(dpkg-deb -f "$deb" Maintainer)
case "$maintainer" in
    *localhost*|*example.org*|*"headlines maintainers"*|"") die "$deb: Maintainer is a placeholder: '$maintainer'" ;;
esac
ok "make deb built $deb in $(($(date +%s) - start)) s; Depends (dpkg-shlibdeps): $depends"

# lintian: no error. Its one override (packaging/deb/lintian-overrides) is the static
# headlines-bar, and only that tag may be overridden. Warnings are printed, not failed.
# With --show-overrides lintian counts the overridden error too and exits 2; 1 is its own failure.
status=0
lintian --tag-display-limit 0 --show-overrides "$deb" >"$tmp/lintian.txt" 2>"$tmp/lintian.err" || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || { cat "$tmp/lintian.txt" "$tmp/lintian.err"; die "lintian failed (status $status)"; }
errors=$(grep -c '^E: ' "$tmp/lintian.txt" || true)
[ "$errors" -eq 0 ] || { cat "$tmp/lintian.txt"; die "lintian reports $errors errors on $deb"; }
overridden=$(sed -n 's/^O: headlines: //p' "$tmp/lintian.txt")
[ "$overridden" = "statically-linked-binary [usr/bin/headlines-bar]" ] || die "lintian overrides: '$overridden'"
sed -n 's/^W: /    lintian W: /p' "$tmp/lintian.txt"
ok "lintian $deb: 0 errors, $(grep -c '^W: ' "$tmp/lintian.txt" || true) warnings, one override (the static headlines-bar)"

mkdir "$tmp/deb"
dpkg-deb -x "$deb" "$tmp/deb"
check_programs "$tmp/deb/usr"
copyright="$tmp/deb/usr/share/doc/headlines/copyright"
[ "$(head -1 "$copyright")" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ] \
    || die "the copyright file is not machine-readable (DEP-5)"
for license in "Apache-2.0" "Apache-2.0 with Swift exception"; do
    grep -qx "License: $license" "$copyright" || die "the copyright file has no '$license' paragraph"
done
grep -q 'Apple Inc. and the Swift project authors' "$copyright" || die "the copyright file does not cover the Swift runtime"
cmp -s LICENSE /usr/share/common-licenses/Apache-2.0 || die "LICENSE is not the Apache License 2.0 that the copyright file names"
ok "the .deb's programs are stripped and run (file: stripped; headlines-bar still static); DEP-5 copyright covers this code and the Swift runtime"

if dpkg-query -W -f='${db:Status-Status}' headlines 2>/dev/null | grep -qx installed; then
    die "a headlines package is already installed on this machine; the suite will not replace it"
fi
installed_deb=1
dpkg -i "$deb" >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; die "dpkg -i $deb"; }
ok "dpkg -i $deb"

v=$(/usr/bin/headlines --version) || die "/usr/bin/headlines --version"
[ "$v" = "headlines $version" ] || die "/usr/bin/headlines --version printed '$v'"
ok "/usr/bin/headlines --version: $v"

# The unit's `headlines run` becomes the host in /usr/libexec/headlines (exec: the same PID).
runhome="$tmp/runhome"
mkdir -p "$runhome/.config/headlines" "$runhome/run"
printf '[source]\nprovider = feeds\nfeeds = http://127.0.0.1:9/feed.rss\n[notify]\nenabled = false\n' \
    > "$runhome/.config/headlines/headlines.conf"
env -i PATH=/usr/bin:/bin HOME="$runhome" XDG_RUNTIME_DIR="$runhome/run" DBUS_SESSION_BUS_ADDRESS=disabled \
    /usr/bin/headlines run >"$tmp/run.log" 2>&1 & runpid=$!
exe=""
for _ in $(seq 50); do
    exe=$(readlink "/proc/$runpid/exe" 2>/dev/null || true)
    [ "$exe" = /usr/libexec/headlines/headlines-host ] && break
    sleep 0.1
done
kill -TERM "$runpid" 2>/dev/null || true
wait "$runpid" 2>/dev/null || true
[ "$exe" = /usr/libexec/headlines/headlines-host ] || { cat "$tmp/run.log"; die "/usr/bin/headlines run became '$exe', not /usr/libexec/headlines/headlines-host"; }
ok "/usr/bin/headlines run (the unit's ExecStart) execs /usr/libexec/headlines/headlines-host"

man -P cat headlines 2>/dev/null | grep -q '^NAME' || die "man headlines does not render"
man -P cat headlines.conf 2>/dev/null | grep -q '^NAME' || die "man headlines.conf does not render"
man -P cat 5 headlines.conf 2>/dev/null | grep -q 'daily-budget' || die "man 5 headlines.conf lacks daily-budget"
ok "man headlines and man headlines.conf render from the installed package"

desktop-file-validate /usr/share/applications/headlines.desktop || die "desktop-file-validate on the installed file"
ok "desktop-file-validate /usr/share/applications/headlines.desktop"

# The installed unit, as a user manager would load it. --user needs a runtime dir; the man pages
# named in Documentation= are looked up too (and exist now).
mkdir -m 700 "$tmp/run"
out=$(XDG_RUNTIME_DIR="$tmp/run" systemd-analyze verify --user /usr/lib/systemd/user/headlines.service 2>&1) \
    || die "systemd-analyze verify --user /usr/lib/systemd/user/headlines.service: $out"
[ -z "$out" ] || die "systemd-analyze verify printed: $out"
ok "systemd-analyze verify --user /usr/lib/systemd/user/headlines.service: clean (ExecStart=$(sed -n 's/^ExecStart=//p' /usr/lib/systemd/user/headlines.service))"

dpkg -L headlines > "$tmp/dpkg-L"
while IFS= read -r path; do
    if [ -f "$path" ] && [ ! -L "$path" ]; then echo "$path"; fi
done < "$tmp/dpkg-L" > "$tmp/deb-files"
files=$(wc -l < "$tmp/deb-files")
for f in "${expected[@]}" "${deb_only[@]}"; do grep -qx "/usr/$f" "$tmp/deb-files" || die "the .deb does not install /usr/$f"; done
[ "$files" -eq $((${#expected[@]} + ${#deb_only[@]})) ] \
    || die "the .deb installs $files files, expected $((${#expected[@]} + ${#deb_only[@]})): $(cat "$tmp/deb-files")"
for l in "${links[@]}"; do [ -L "/usr/$l" ] && [ -e "/usr/$l" ] || die "the .deb has no working link /usr/$l"; done
man -w headlines-bar >/dev/null 2>&1 || die "man headlines-bar finds no page"
dpkg -r headlines >"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; die "dpkg -r headlines"; }
installed_deb=0
left=$(while IFS= read -r f; do if [ -e "$f" ]; then echo "$f"; fi; done < "$tmp/deb-files")
[ -z "$left" ] || die "dpkg -r left files behind: $left"
for d in /usr/share/headlines /usr/share/doc/headlines /usr/libexec/headlines; do [ ! -e "$d" ] || die "dpkg -r left $d behind"; done
ok "dpkg -r headlines removed all $files files it installed (from dpkg -L before removal)"

# ---- make install / uninstall into a DESTDIR ----------------------------------------------------
root="$tmp/root"
make --no-print-directory install DESTDIR="$root" PREFIX=/usr/local >"$tmp/install.log" 2>&1 \
    || { tail -30 "$tmp/install.log"; die "make install DESTDIR=$root PREFIX=/usr/local"; }
prefix="$root/usr/local"
for f in "${expected[@]}"; do [ -f "$prefix/$f" ] || die "make install did not write \$PREFIX/$f"; done
count=$(find "$root" -type f | wc -l)
[ "$count" -eq "${#expected[@]}" ] || die "make install wrote $count files, expected ${#expected[@]}: $(find "$root" -type f)"
for l in "${links[@]}"; do [ -L "$prefix/$l" ] && [ -e "$prefix/$l" ] || die "make install wrote no working link \$PREFIX/$l"; done
[ "$(find "$root" -type l | wc -l)" -eq "${#links[@]}" ] || die "make install wrote other links: $(find "$root" -type l)"
check_programs "$prefix"
grep -qx 'ExecStart=/usr/local/bin/headlines run --from-bar' "$prefix/lib/systemd/user/headlines.service" \
    || die "the installed unit's ExecStart is not /usr/local/bin/headlines run --from-bar"
gzip -t "$prefix/share/man/man1/headlines.1.gz" "$prefix/share/man/man5/headlines.conf.5.gz" || die "man pages are not gzip"
cmp -s "$prefix/share/headlines/demo/apitube/top-headlines-fl.json" Fixtures/apitube/top-headlines-fl.json || die "demo data differs"
for f in "${bar_snippets[@]}"; do
    to="$prefix/share/doc/headlines/bars/${f#packaging/bars/}"
    cmp -s "$f" "$to" || die "the installed $to differs from $f"
    { [ -x "$f" ] && [ -x "$to" ]; } || { [ ! -x "$f" ] && [ ! -x "$to" ]; } || die "$to lost or gained the executable bit of $f"
done
ok "make install DESTDIR=... PREFIX=/usr/local wrote exactly the ${#expected[@]} documented files (the ${#bar_snippets[@]} bar snippets as in packaging/bars/) and ${#links[@]} links, programs stripped (unit ExecStart=/usr/local/bin/headlines run)"

MANPATH="$prefix/share/man" man -P cat headlines 2>/dev/null | grep -q '^NAME' || die "man headlines from the DESTDIR tree"
MANPATH="$prefix/share/man" man -P cat headlines.conf 2>/dev/null | grep -q '^NAME' || die "man headlines.conf from the DESTDIR tree"
ok "man headlines and man headlines.conf render from the DESTDIR tree (MANPATH=\$PREFIX/share/man)"

# The DESTDIR unit: systemd-analyze needs its ExecStart binary to exist, so verify a copy whose
# path has the DESTDIR in front (the only difference).
sed "s|^ExecStart=/usr/local/bin/|ExecStart=$prefix/bin/|" "$prefix/lib/systemd/user/headlines.service" > "$tmp/run/headlines.service"
out=$(MANPATH="$prefix/share/man" XDG_RUNTIME_DIR="$tmp/run" systemd-analyze verify --user "$tmp/run/headlines.service" 2>&1) \
    || die "systemd-analyze verify --user on the DESTDIR unit: $out"
[ -z "$out" ] || die "systemd-analyze verify printed: $out"
ok "systemd-analyze verify --user on the make-install unit: clean"

home="$tmp/home"
mkdir -p "$home"
status=0
env -i PATH="/usr/bin:/bin" HOME="$home" XDG_CACHE_HOME="$home/.cache" XDG_CONFIG_HOME="$home/.config" \
    XDG_STATE_HOME="$home/.local/state" XDG_RUNTIME_DIR="$home/run" DBUS_SESSION_BUS_ADDRESS=disabled \
    timeout 60 "$prefix/bin/headlines" demo --duration 6s >"$tmp/demo.out" 2>"$tmp/demo.err" || status=$?
[ "$status" -eq 0 ] || { cat "$tmp/demo.out" "$tmp/demo.err"; die "installed demo exited $status"; }
grep -q '^headlines demo' "$tmp/demo.out" || { cat "$tmp/demo.out"; die "installed demo did not print 'headlines demo'"; }
fresh=$(grep -c '^\[fresh\]' "$tmp/demo.out" || true)
[ "$fresh" -ge 1 ] || { cat "$tmp/demo.out" "$tmp/demo.err"; die "installed demo printed no [fresh] line"; }
ok "installed binary runs the demo from \$PREFIX/share/headlines/demo: 'headlines demo' and $fresh [fresh] lines"

# The unit, emulated (see the top of this file): its options at once, then each alone, around
# `headlines run` fetching a feed over loopback and opening a clicked notification's article. The
# programs are the stripped ones make install wrote.
if /usr/bin/python3 -c 'import seccomp' 2>/dev/null; then
    # A copy outside /tmp and /var/tmp (which PrivateTmp= hides), wherever the checkout lives, laid
    # out as installed: `run` execs libexec/headlines/headlines-host, whose reloads run
    # headlines-reload beside it.
    hardbin=$(mktemp -d /run/headlines-hardening.XXXXXX)
    cp -a "$prefix/bin" "$prefix/libexec" "$hardbin/"
    /usr/bin/python3 packaging/systemd/try-hardening.py --unit "$prefix/lib/systemd/user/headlines.service" \
        --binary "$hardbin/bin/headlines" >"$tmp/hardening.log" 2>&1 \
        || { cat "$tmp/hardening.log"; rm -rf "$hardbin"; die "the host under the unit's hardening (emulated)"; }
    rm -rf "$hardbin"
    sed 's/^/    /' "$tmp/hardening.log"
    ok "the unit, emulated without systemd: the host runs under it, its reload child sandboxes itself, and a clicked notification's browser has no no_new_privs or seccomp filter, a writable home and W+X memory"
else
    die "python3-seccomp is missing, so the unit's hardening cannot be tried: run scripts/install-deps.sh"
fi

# dunst 1.9 warns about keys in the wrong section or of the wrong type; the example must be clean.
start_xvfb "$tmp/xvfb.log"
dbus-run-session -- timeout 3 dunst -config packaging/dunst/headlines.dunstrc -verbosity info >"$tmp/dunst.log" 2>&1 || true
grep -q "headlines.dunstrc' open" "$tmp/dunst.log" || { cat "$tmp/dunst.log"; die "dunst did not read the example"; }
if grep -E '^(WARNING|ERROR|CRITICAL)' "$tmp/dunst.log" | grep -v 'No icon found'; then die "dunst warns about packaging/dunst/headlines.dunstrc"; fi
ok "dunst $(dunst --version 2>&1 | grep -o '[0-9][0-9.]*' | head -1) reads packaging/dunst/headlines.dunstrc without a warning"

make --no-print-directory uninstall DESTDIR="$root" PREFIX=/usr/local >"$tmp/uninstall.log" 2>&1 || die "make uninstall"
left=$(find "$root" -type f)
[ -z "$left" ] || die "make uninstall left files: $left"
[ -z "$(find "$root" -type l)" ] || die "make uninstall left links: $(find "$root" -type l)"
for d in share/headlines share/doc/headlines libexec/headlines share/gnome-shell/extensions/headlines@headlines.org share/plasma/plasmoids/org.headlines.headlines; do [ ! -e "$prefix/$d" ] || die "make uninstall left \$PREFIX/$d"; done
ok "make uninstall removed every file make install wrote"

echo "packaging: ok"
