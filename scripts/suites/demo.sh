#!/usr/bin/env bash
# `headlines demo` as a user runs it: a fresh home, no key, no network, no D-Bus session. It must
# print headlines, exit 0 when --duration ends it, write only its own demo files and never the
# real cache. `timeout` turns a hang into a failure instead of a stuck CI run.
set -euo pipefail
bin=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. "$(dirname "$0")/../lib/common.sh"
suite_dir demo
home=$WORK
status=0
env -i PATH="$PATH" HOME="$home" XDG_CACHE_HOME="$home/cache" XDG_CONFIG_HOME="$home/config" \
    XDG_STATE_HOME="$home/state" XDG_RUNTIME_DIR="$home/run" DBUS_SESSION_BUS_ADDRESS="unix:path=$home/no-bus" \
    timeout 60 "$bin/headlines" demo --duration 6s >"$home/out" 2>"$home/err" || status=$?
echo "-- stdout"; cat "$home/out"; echo "-- stderr"; cat "$home/err"
[ "$status" -eq 0 ] || die "demo: exit status $status (124 = still running after 60 s)"
[ -s "$home/out" ] || die "demo: printed nothing"
find "$home/cache/headlines/demo" -name 'headlines.json' 2>/dev/null | grep -q . \
    || die "demo: no demo cache under $home/cache/headlines/demo"
[ ! -e "$home/cache/headlines/headlines.json" ] || die "demo: wrote the real cache"
echo "demo: ok"
