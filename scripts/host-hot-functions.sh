#!/usr/bin/env bash
# Regenerates Sources/headlines-host/link/hot-functions.txt, the order in which the linker lays out
# the resident host's code (issue 14: the idle host's memory).
#
# Why: the kernel maps up to 64 KiB of already-cached file pages around every page fault
# ("fault-around"), so a page of code the host runs once costs 16 pages of resident memory. In a
# release host the functions it ever runs (about 0.8 MB of 9 MB of code) were spread over almost
# every 64 KiB window, and 7 MB of its text was resident. lld's --symbol-ordering-file puts them
# next to each other; `make bench` shows the difference (idle host RSS).
#
# How: the release host runs under valgrind's callgrind in a private desktop session (D-Bus, dunst)
# against the bench feed server on 127.0.0.1: start-up, the first reload (notifications posted),
# a second reload on SIGUSR1 with a new headline, SIGTERM. Every function of the host binary that
# ran is written out, mangled, in the order callgrind first met it, less the names that more than
# one object file defines.
#
# A stale list only costs memory, never correctness: the linker ignores names that no longer exist
# (--no-warn-symbol-ordering) and places new functions after the listed ones. Rerun it after a
# change to the host's loop, engine or publishing, and commit the list.
# Usage: scripts/host-hot-functions.sh   (needs valgrind, dbus-daemon, Xvfb, dunst: make test-deps)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v swift >/dev/null 2>&1 || export PATH="/opt/swift/usr/bin:$PATH"
command -v valgrind >/dev/null || { echo "host-hot-functions: valgrind is missing; run make test-deps." >&2; exit 1; }
out=Sources/headlines-host/link/hot-functions.txt

swift build -c release --static-swift-stdlib --product headlines-host
swift build -c release --static-swift-stdlib --product headlines
swift build -c release --static-swift-stdlib --product headlines-fetch
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
work=$(mktemp -d)
. scripts/suites/lib/session.sh
session_start "$work/session" >&2
feed=$work/feed.xml
python3 scripts/bench/feed.py "$feed" "Profile 0"
exec {server_fd}< <(exec python3 scripts/bench_server.py --feed "$feed" --log "$work/wire.jsonl")
SESSION_PIDS+=($!)
read -r -t 10 _ port <&"$server_fd" || die "the bench server did not start"
mkdir -p "$XDG_CONFIG_HOME/headlines"
printf '[source]\nprovider = feeds\nfeeds = http://127.0.0.1:%s/feed.rss\n[refresh]\ninterval = 24h\n[bar]\nrotate = 0\n' \
    "$port" > "$XDG_CONFIG_HOME/headlines/headlines.conf"

# valgrind 3.19 gives up on the host's DWARF ("Possibly corrupted debuginfo file"), so callgrind
# runs a copy without debug information; its symbol table still names every function. The copy
# sits beside links to the other programs, where the host looks for its fetch child.
mkdir -p "$work/bin"
objcopy --strip-debug "$bin/headlines-host" "$work/bin/headlines-host"
for p in headlines headlines-fetch; do ln -s "$bin/$p" "$work/bin/$p"; done
valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/callgrind.out" "$work/bin/headlines-host" 2>"$work/host.log" &
host=$!
bar=$XDG_RUNTIME_DIR/headlines/bar/waybar
wait_for "the host's first bar line" 120 test -s "$bar" || { cat "$work/host.log" >&2; exit 1; }
sleep 2
python3 scripts/bench/feed.py "$feed" "Profile 1"
kill -USR1 "$host"
wait_for "the second reload" 60 grep -q 'Profile 1' "$bar" || { cat "$work/host.log" >&2; exit 1; }
sleep 2
kill -TERM "$host"
wait "$host" || true

# callgrind's output: `ob=OBJECT` sets the object of the `fn=NAME` lines that follow.
awk -v exe="$work/bin/headlines-host" '
    /^ob=/ { ob = substr($0, 4); next }
    /^fn=/ { name = substr($0, 4); if ((ob == exe || ob ~ /\/headlines-host$/) && !(name in seen)) { seen[name]; print name } }
' "$work/callgrind.out" | grep -v '^0x' > "$work/ran.txt"
# A name that several object files define locally (the compiler's merged value witnesses, `outlined
# destroy of Any?` and the like) would pull every one of those files' code forward, hundreds of KB
# the host never runs: such names are left out.
nm --defined-only "$bin/headlines-host" | awk '{ print $3 }' | sort | uniq -d > "$work/ambiguous.txt"
grep -vxFf "$work/ambiguous.txt" "$work/ran.txt" > "$work/hot.txt" || true
count=$(wc -l < "$work/hot.txt")
[ "$count" -gt 500 ] || { echo "host-hot-functions: only $count functions seen; not writing $out" >&2; exit 1; }
mv "$work/hot.txt" "$out"
# SwiftPM does not know the link reads the list: remove the binary so that the next build relinks.
rm -f "$bin/headlines-host"
rm -rf "$work"
echo "host-hot-functions: $count functions written to $out"
