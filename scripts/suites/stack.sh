#!/usr/bin/env bash
# The native stack, checked on the built binaries and the sources: `headlines-fetch` links
# libcurl, libxml2 and libsecret directly, `headlines` (the control client every bar click starts)
# none of them, `headlines-host` (resident) not libsecret either, and no program any of Foundation's ICU-backed parts (libFoundation,
# libFoundationNetworking, libFoundationXML, lib_FoundationICU); no source of a shipped module
# uses URLSession, XMLParser, DispatchQueue.global or imports Foundation. The debug binary links
# the Swift runtime dynamically, so `ldd` shows every Swift library it would load.
# Debian 12 builds libxml2 itself against the system ICU (libicuuc.so.72): that one arrives with
# libxml2 (as it did under FoundationXML), so it is allowed only as libxml2's own dependency,
# never as one of ours, and Swift's 37 MB lib_FoundationICU not at all.
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh
failed=0
check() { # description, then a command that succeeds when the check holds
    local what=$1; shift
    if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; failed=1; fi
}
for p in headlines headlines-fetch headlines-reload headlines-host; do
    [ -x "$bin/$p" ] || die "no binary at $bin/$p (build first)"
done
libs=$(ldd "$bin/headlines-fetch")
echo "$libs" | sed 's/^/  ldd headlines-fetch: /'
cli_libs=$(ldd "$bin/headlines")
forbidden() { ! grep -E 'libFoundation\.so|libFoundationInternationalization|libFoundationNetworking|libFoundationXML|lib_FoundationICU' <<<"$libs$cli_libs"; }
check "ldd of headlines and headlines-fetch shows no libFoundation, FoundationNetworking, FoundationXML or Swift's ICU" forbidden
needed=$(readelf -d "$bin/headlines-fetch" "$bin/headlines" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
own_icu() { ! grep -qE 'icu' <<<"$needed"; }
check "neither binary itself needs an ICU library (only libxml2 does)" own_icu
icu_from_libxml2() {
    grep -q libicuuc <<<"$libs" || return 0
    # Whole outputs first: under pipefail, `grep -q` closing the pipe early would fail the check.
    local libxml2 deps
    # The libxml2 the loader picked for headlines-fetch (ldconfig is not on a normal user's PATH).
    libxml2=$(sed -n 's/.*libxml2\.so\.2 => \([^ ]*\) .*/\1/p' <<<"$libs")
    deps=$(ldd "${libxml2%%$'\n'*}")
    grep -q libicuuc <<<"$deps"
}
check "any system ICU in ldd comes with Debian's libxml2" icu_from_libxml2
check "ldd of headlines-fetch shows libcurl" grep -q 'libcurl\.so' <<<"$libs"
check "ldd of headlines-fetch shows libxml2" grep -q 'libxml2\.so' <<<"$libs"
# The reload child links what every reload needs and no more: gdk-pixbuf and libsecret are
# loaded when a reload stores an image or signs in (their tests run it), and it has no desktop
# layer (GIO, libnotify) at all.
reload_libs=$(ldd "$bin/headlines-reload")
echo "$reload_libs" | sed 's/^/  ldd headlines-reload: /'
check "ldd of headlines-reload shows libcurl and libxml2" bash -c 'grep -q "libcurl\.so" <<<"$1" && grep -q "libxml2\.so" <<<"$1"' _ "$reload_libs"
check "ldd of headlines-reload shows no libnotify, GIO, GObject, gdk-pixbuf or libsecret" \
    bash -c '! grep -qE "libnotify|libgio-|libgobject-|libgdk_pixbuf|libsecret" <<<"$1"' _ "$reload_libs"
echo "$cli_libs" | sed 's/^/  ldd headlines: /'
check "ldd of headlines (the control client) shows neither libcurl, libxml2 nor libsecret" \
    bash -c '! grep -qE "libcurl|libxml2|libsecret" <<<"$1"' _ "$cli_libs"
# The resident host holds the sign-in token in memory, never the password: the child finds that.
host_libs=$(ldd "$bin/headlines-host")
check "ldd of headlines-host shows no libsecret" bash -c '! grep -q "libsecret" <<<"$1"' _ "$host_libs"
# headlines-bench is a developer tool that never ships; everything else is code a user runs.
banned=$(grep -rnE 'URLSession|XMLParser|DispatchQueue\.global|^import Foundation$|^import FoundationNetworking|^import FoundationXML' \
    Sources --include='*.swift' | grep -v '^Sources/headlines-bench/')
[ -z "$banned" ] || printf '  %s\n' "$banned"
check "no URLSession, XMLParser, DispatchQueue.global or import Foundation in Sources/ (bench aside)" test -z "$banned"
# The build describes modules: no linker tricks, no copies of libraries, no kernel-internals tuning.
tricks=$(find Sources -type d \( -name CHostMemory -o -name CFetchStubs -o -name CLinkWraps -o -name link \))
[ -z "$tricks" ] || printf '  %s\n' $tricks
check "Sources/ has no CHostMemory, CFetchStubs, CLinkWraps or link/ folders" test -z "$tricks"
unsafe=$(grep -c 'unsafeFlags' Package.swift)
check "Package.swift has at most two unsafeFlags ($unsafe)" test "$unsafe" -le 2
intents=$(grep -rln 'ledger\.json\.intents\|\.intents"' Sources || true)
check "no ledger intent log in Sources/" test -z "$intents"
exit $failed
