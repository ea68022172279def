#!/usr/bin/env bash
# Hostile world: a full disk and a crash must not notify a headline twice, counted by a real dunst
# (the other state-file rows are Swift tests; see docs/testing.md). Cache and state sit on a full
# tmpfs: two hosts in turn reload and are killed, and neither may notify the new headlines, since
# nothing is notified until the seen set is saved. Once space is freed, each is notified once.
# Mounting the tmpfs needs root: otherwise the row FAILs saying it could not run.
# Prints one ROW for scripts/hostile.sh.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh
AREA="state files"
FAULT="reload on a full disk, SIGKILL, new host (x2), then space freed"
NEW=("Full disk story 1" "Full disk story 2" "Full disk story 3")
if [ "$(id -u)" -ne 0 ]; then
    row "$AREA" "$FAULT" "could not run: mounting a tmpfs needs root, and this runs as $(id -un)" FAIL; exit 0
fi

suite_dir state
session_start "$WORK/session"
ARTICLES=$WORK/articles.json
python3 "$LIB/articles.py" "$ARTICLES" 0 "Old story 1" "Old story 2"
start_news_server "$WORK/requests.log" --articles "$ARTICLES"
mkdir -p "$XDG_CONFIG_HOME/headlines"
news_config "$XDG_CONFIG_HOME/headlines/headlines.conf" 'provider = apitube' 'timeout = 5s' \
    '[refresh]' 'interval = 1s' 'daily-budget = 86400' '[notify]' 'max-per-refresh = 10'
export APITUBE_API_KEY=hostile-80-key
DISK=$WORK/disk
mkdir -p "$DISK"
mount -t tmpfs -o size=256k,mode=755 tmpfs "$DISK" || { row "$AREA" "$FAULT" "could not run: mount -t tmpfs failed" FAIL; exit 0; }
# Lazily: the hooks run before the processes still holding files there are stopped.
EXIT_HOOKS+=("umount -l '$DISK'")
export XDG_CACHE_HOME=$DISK/cache XDG_STATE_HOME=$DISK/state

host() { # N: `headlines run` in the background, its log in $WORK/hostN.err; sets HOST
    "$BIN" run 2>"$WORK/host$1.err" &
    HOST=$!
    PIDS+=("$HOST")
}
stop_host() { # SIGTERM, and SIGKILL if it has not stopped within 5 s
    kill -TERM "$HOST" 2>/dev/null
    ( sleep 5; kill -KILL "$HOST" 2>/dev/null ) & local watchdog=$!
    wait "$HOST" 2>/dev/null
    kill "$watchdog" 2>/dev/null
}
said() { grep -q "$2" "$WORK/host$1.err"; }
counts() { # how often dunst was sent each new story, as "N N N"
    python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log" | python3 -c '
import collections, json, sys
c = collections.Counter(json.loads(l)["summary"] for l in sys.stdin)
print(" ".join(str(c[t]) for t in sys.argv[1:]))' "${NEW[@]}"
}

# A first host with room marks the old stories seen.
host 0
wait_for "the first reload" 15 said 0 "reload ok"
wait_for "the seen set" 5 test -s "$XDG_STATE_HOME/headlines/seen.json"
stop_host
# Three new stories, and the disk fills up.
python3 "$LIB/articles.py" "$ARTICLES" 0 "${NEW[@]}" "Old story 1" "Old story 2"
dd if=/dev/zero of="$DISK/filler" bs=4k 2>/dev/null
avail=$(df -k --output=avail "$DISK" | tail -n 1 | tr -d ' ')
problems=()
[ "$avail" = 0 ] || problems+=("setup: the tmpfs still had $avail KiB free")
for k in 1 2; do
    host "$k"
    wait_for "host $k's reload" 15 said "$k" "reload ok" || problems+=("host $k never reloaded")
    # Until the host has said what it did with the new stories, then a little for D-Bus.
    wait_for "host $k's word on the new stories" 5 said "$k" "notifying\|seen-headlines"
    sleep 0.5
    kill -KILL "$HOST"; wait "$HOST" 2>/dev/null
    [ "$(counts)" = "0 0 0" ] || problems+=("host $k: counts per story $(counts) while the seen set could not be saved")
    n=$(grep -c "seen-headlines list.*free disk space" "$WORK/host$k.err")
    [ "$n" = 1 ] || problems+=("host $k said the free-disk-space sentence $n times (expected once)")
done
rm -f "$DISK/filler"
host 3
wait_for "host 3 to notify" 15 said 3 "notifying"
wait_for "the three stories on dunst" 5 eval '[ "$(counts)" = "1 1 1" ]'
sleep 0.5
stop_host
host 4
wait_for "host 4's reload" 15 said 4 "reload ok"
sleep 1
stop_host
freed=$(counts)
[ "$freed" = "1 1 1" ] || problems+=("once space was freed, counts per story: $freed (expected 1 1 1)")
! grep -Eq 'Fatal error|Stack dump|Segmentation fault|Aborted|Trace/breakpoint' "$WORK"/host*.err || problems+=("crash text in a host's log")

if [ ${#problems[@]} -eq 0 ]; then
    row "$AREA" "$FAULT" "while full: 0 notifications and one 'free disk space' sentence per host; after the kill the new host notified nothing again; once freed each of the 3 stories was notified once (dunst)" PASS
else
    (IFS=';'; row "$AREA" "$FAULT" "${problems[*]}" FAIL)
fi
exit 0
