#!/usr/bin/env bash
# Set-up: what a newcomer's first commands install and print.
# - scripts/install-deps.sh has two sets: the runtime set (`make build`, `make demo`) holds none
#   of the test-only tools and every package Package.swift's system libraries name; the full set
#   (`--test`: `make test`, `make bench`, `make hostile`) holds both.
# - `make build` prints no warning of ours, neither SwiftPM's (e.g. "prohibited flag(s): -pthread")
#   nor the compiler's. Two of glibc's link-time warnings come from the Swift toolchain's own static
#   archives and are allowed by name (see `toolchain_warning`). The release binaries are removed
#   first so each is linked again here; what is compiled is whatever is out of date. `make test`
#   compiles the release build beside the unit tests and names its output in RELEASE_BUILD_LOG,
#   which is checked too: on a fresh machine that is where every compiler warning would be.
# - Each program that uses libcurl or libxml2 loads Debian's shared library, and none carries a
#   copy of libcurl or OpenSSL.
# - `make install` right after `make build` compiles and links nothing (the same flags), and
#   `make build` after `make install` neither.
# - `make demo` runs the release demo (DEMO_ARGS="--duration 6s" ends it).
# One "ok" line per check; the first failure stops the suite with a non-zero status.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v swift >/dev/null 2>&1 || export PATH="$PATH:/opt/swift/usr/bin"

. scripts/lib/common.sh
suite_dir setup
tmp=$WORK

# ---- the two package sets -----------------------------------------------------------------------
# Tools only the suites, the hostile world and the benchmark use: none may be in the runtime set.
test_only=(sway waybar grim i3blocks dunst xvfb dbus-daemon valgrind strace gnuplot-nox newsboat
           zsh fish jq curl python3 python3-feedparser python3-seccomp systemd man-db desktop-file-utils
           dpkg-dev time fonts-dejavu-core mako-notifier xfce4-notifyd xdotool imagemagick php8.2-cli sqlite3
           gnome-keyring libsecret-tools)
scripts/install-deps.sh --list > "$tmp/runtime" || die "scripts/install-deps.sh --list"
scripts/install-deps.sh --list --test > "$tmp/full" || die "scripts/install-deps.sh --list --test"
[ -s "$tmp/runtime" ] || die "the runtime set is empty"
for pkg in "${test_only[@]}"; do
    ! grep -qx -- "$pkg" "$tmp/runtime" || die "the runtime set (make demo) installs the test-only package $pkg"
    grep -qx -- "$pkg" "$tmp/full" || die "the full set (make test) lacks $pkg"
done
while IFS= read -r pkg; do
    grep -qx -- "$pkg" "$tmp/full" || die "the full set lacks the runtime package $pkg"
done < "$tmp/runtime"
# Every Debian package the system-library targets name as their provider builds the program.
providers=$(grep -o '\.apt(\[[^]]*\])' Package.swift | sed 's/^\.apt(\[//; s/\])$//' | tr -d '" ' | tr ',' '\n')
[ -n "$providers" ] || die "found no .apt([...]) provider in Package.swift"
for pkg in $providers pkg-config ca-certificates; do
    grep -qx -- "$pkg" "$tmp/runtime" || die "the runtime set lacks $pkg (needed to build or run)"
done
ok "install-deps: runtime set of $(wc -l < "$tmp/runtime") ($(tr '\n' ' ' < "$tmp/runtime")), none of the ${#test_only[@]} test-only tools; full set of $(wc -l < "$tmp/full")"

deps_of() { # make target: the install-deps.sh lines `make -n` would run, one per line
    make --no-print-directory -n "$1" | grep -o 'scripts/install-deps\.sh[^;&|]*' | sed 's/ *$//'
}
for target in build demo; do
    calls=$(deps_of "$target")
    [ "$calls" = "scripts/install-deps.sh" ] || die "make -n $target runs '${calls:-no install-deps}', not the runtime set alone"
done
for target in test bench hostile; do
    calls=$(deps_of "$target")
    [ "$calls" = "scripts/install-deps.sh --test" ] || die "make -n $target runs '${calls:-no install-deps}', not the full set"
done
ok "make -n build and demo run scripts/install-deps.sh (runtime); test, bench and hostile run it with --test"

# ---- the own .pc files: the Debian file's libraries and include folders, without -pthread ----------
# headlines-libnotify.pc links what libnotify.pc links; the gdk-pixbuf and libsecret ones are
# headers only (CLoadOnUse loads those libraries on first use), so they name no library at all.
words() { tr ' ' '\n' | sed '/^$/d' | sort -u; }
for pair in CGLibNotify/headlines-libnotify.pc:libnotify CLibSecret/headlines-libsecret.pc:libsecret-1 \
            CGdkPixbuf/headlines-gdk-pixbuf.pc:gdk-pixbuf-2.0; do
    pc=Sources/${pair%%:*} debian=${pair##*:}
    ours_libs=$(pkg-config --libs "$pc" | words); theirs_libs=$(pkg-config --libs "$debian" | words | grep -vx -- -pthread)
    if [ "$debian" = libnotify ]; then
        [ "$ours_libs" = "$theirs_libs" ] || die "$pc links $(echo $ours_libs), $debian.pc $(echo $theirs_libs)"
        links="$debian.pc's libraries"
    else
        [ -z "$ours_libs" ] || die "$pc links $(echo $ours_libs): it is headers only, the library is loaded on first use"
        links="no library (loaded on first use)"
    fi
    ours_cflags=$(pkg-config --cflags "$pc" | words); theirs_cflags=$(pkg-config --cflags "$debian" | words)
    extra=$(comm -23 <(echo "$ours_cflags") <(echo "$theirs_cflags"))
    [ -z "$extra" ] || die "$pc has C flags $debian.pc has not: $extra"
    ! grep -qx -- -pthread <<<"$ours_cflags" || die "$pc still carries -pthread"
    ok "$pc: $links, $(echo "$ours_cflags" | wc -l) of its include folders (the ones the headers use), no -pthread"
done

# ---- a release build without warnings ------------------------------------------------------------
read -ra release < <(make --no-print-directory -s release-flags)
bin=$(swift build "${release[@]}" --show-bin-path 2>/dev/null)
# make test's own release build may still run beside this suite (a busy machine): wait for it, so
# that what is removed next is linked again here and not by it behind our back.
make --no-print-directory build >/dev/null 2>&1 || true
rm -f "$bin/headlines" "$bin/headlines-host" "$bin/headlines-reload" "$bin/headlines-fetch" "$bin/headlines-bar"
start=$(date +%s)
make --no-print-directory build >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; die "make build"; }
for p in headlines headlines-host headlines-reload headlines-fetch headlines-bar; do
    [ -x "$bin/$p" ] || die "make build did not write $bin/$p"
    grep -q "Linking $p\$" "$tmp/build.log" || die "make build did not link $p again (the check needs the link step)"
done
# glibc attaches a warning to mktemp (libFoundationEssentials.a's atomic write names its file with
# it, then opens it O_CREAT|O_EXCL, as mkstemp would) and to dlopen in a static program
# (libswiftCore.a calls it only under a debugging variable). Both are in the toolchain's archives,
# not in our code; any other warning fails.
toolchain_warning="the use of \`mktemp' is dangerous|Using 'dlopen' in statically linked applications"
build_logs=("$tmp/build.log")
if [ -n "${RELEASE_BUILD_LOG:-}" ]; then
    [ -r "$RELEASE_BUILD_LOG" ] || die "RELEASE_BUILD_LOG names $RELEASE_BUILD_LOG, which cannot be read"
    build_logs+=("$RELEASE_BUILD_LOG")
fi
if grep -hi 'warning:' "${build_logs[@]}" | grep -vE "$toolchain_warning"; then die "make build printed the warnings above"; fi
ok "make build ($(($(date +%s) - start)) s, the five programs linked again${RELEASE_BUILD_LOG:+; and the earlier release build}): no warning but glibc's two on the toolchain's archives"

# Debian's shared libraries, never a copy: whatever uses libcurl or libxml2 has it in DT_NEEDED,
# and no program holds libcurl's or OpenSSL's version string (a statically linked copy would).
for p in headlines headlines-host headlines-reload headlines-fetch headlines-bar; do
    needed=$(readelf -d "$bin/$p" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    strings_of=$(strings -a "$bin/$p")
    if grep -qE 'libcurl/7|OpenSSL 3\.' <<<"$strings_of"; then die "$p carries its own copy of libcurl or OpenSSL"; fi
    if grep -q 'curl_easy_init' <<<"$strings_of"; then
        grep -qw 'libcurl.so.4' <<<"$needed" || die "$p uses libcurl but does not load libcurl.so.4 (needs: $needed)"
    fi
    if grep -q 'xmlSAXVersion\|xmlCreatePushParserCtxt\|xmlReadMemory' <<<"$strings_of"; then
        grep -qw 'libxml2.so.2' <<<"$needed" || die "$p uses libxml2 but does not load libxml2.so.2 (needs: $needed)"
    fi
done
for p in headlines-reload headlines-fetch; do
    fetch_needed=$(readelf -d "$bin/$p" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    grep -qw libcurl.so.4 <<<"$fetch_needed" && grep -qw libxml2.so.2 <<<"$fetch_needed" \
        || die "the release $p does not load Debian's libcurl and libxml2 (needs: $fetch_needed)"
done
ok "release programs: libcurl.so.4 and libxml2.so.2 wherever they are used, no copy of libcurl or OpenSSL in any"

# The debug build with tests that make test starts with (built already, so this compiles nothing
# more unless something changed): SwiftPM's own warnings, like the -pthread one, show on every run.
# A clean one (SETUP_CLEAN_DEBUG=1: a scratch folder of its own) shows every compiler warning too.
debug_args=()
if [ "${SETUP_CLEAN_DEBUG:-0}" = 1 ]; then debug_args=(--scratch-path "$tmp/debug-build"); fi
swift build --build-tests "${debug_args[@]}" >"$tmp/debug.log" 2>&1 || { tail -30 "$tmp/debug.log"; die "swift build --build-tests"; }
if grep -i 'warning:' "$tmp/debug.log" | grep -vE "$toolchain_warning"; then die "swift build --build-tests printed the warnings above"; fi
ok "swift build --build-tests (debug${debug_args:+, clean}): no warning"

# ---- make build and make install share one build -------------------------------------------------
make --no-print-directory install DESTDIR="$tmp/root" PREFIX=/usr/local >"$tmp/install.log" 2>&1 \
    || { tail -30 "$tmp/install.log"; die "make install DESTDIR=$tmp/root"; }
if grep -E 'Compiling|Linking' "$tmp/install.log"; then die "make install after make build built the above again"; fi
make --no-print-directory build >"$tmp/build2.log" 2>&1 || { tail -30 "$tmp/build2.log"; die "make build after make install"; }
if grep -E 'Compiling|Linking' "$tmp/build2.log"; then die "make build after make install built the above again"; fi
# make install strips what it installs, as dh_strip does: compare with a stripped copy of the build's.
strip --remove-section=.comment -o "$tmp/headlines.stripped" "$bin/headlines"
cmp -s "$tmp/headlines.stripped" "$tmp/root/usr/local/bin/headlines" || die "make install did not install make build's headlines"
ok "make install after make build, and make build after make install, compile and link nothing"

# ---- make demo ----------------------------------------------------------------------------------
home=$tmp/home
mkdir -p "$home"
status=0
env -i PATH="$PATH" HOME="$home" XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config" \
    XDG_STATE_HOME="$home/state" XDG_RUNTIME_DIR="$home/run" DBUS_SESSION_BUS_ADDRESS="unix:path=$home/no-bus" \
    timeout 120 make --no-print-directory demo DEMO_ARGS="--duration 6s" >"$tmp/demo.out" 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat "$tmp/demo.out"; die "make demo exited $status"; }
grep -q '^headlines demo' "$tmp/demo.out" || { cat "$tmp/demo.out"; die "make demo did not print 'headlines demo'"; }
fresh=$(grep -c '^\[fresh\]' "$tmp/demo.out" || true)
[ "$fresh" -ge 1 ] || { cat "$tmp/demo.out"; die "make demo printed no [fresh] line"; }
# (The demo's own "headlines: warning: notifications are off" is right here: there is no bus.)
if grep 'warning:' "$tmp/demo.out" | grep -v '^headlines: '; then die "make demo's build printed the warnings above"; fi
ok "make demo DEMO_ARGS='--duration 6s': 'headlines demo', $fresh [fresh] lines, no build warning"

echo "setup: ok"
