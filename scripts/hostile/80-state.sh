#!/usr/bin/env bash
# Hostile world: state files against their own limits, full disks, a config that goes away, and
# FIFOs where state files should be. Real `headlines` processes against one loopback server that
# logs every request:
#   - three 4.1 MB feeds whose links are long runs of `/` (each under the 4 MiB feed cap) beside a
#     good feed: `fetch` must leave a cache and feeds.json that `list` and `status` accept, and the
#     host must show the good feed (its reload child's report must fit what the host reads);
#   - a reload while cache and state sit on a full tmpfs, then SIGKILL, then a new host: nothing
#     may be notified twice (nothing is notified until the seen set is saved), and once space is
#     freed the new headlines are notified once (a real dunst on a private bus counts Notify calls);
#   - the config file deleted for three seconds, then put back as it was, under a running host:
#     no request to the default source (APITube, whose key is set), no reload at all;
#   - a FIFO at each state file's path and at the config file: the host reports the file and still
#     stops within 2 s of SIGTERM.
# Prints ROW lines for scripts/hostile.sh. Mounting the tmpfs needs root: otherwise that row FAILs
# saying it could not run.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
SESSION_LIB=scripts/suites/lib
AREA="state files"

row() { # fault outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 160 ] && printf '%s' "$s" || printf '%s…' "${s:0:159}"; }
join() { local IFS=';'; printf '%s' "$*"; }
CRASH='Fatal error|Stack dump|Segmentation fault|Illegal instruction|Aborted|backtrace|Trace/breakpoint'

WORK=$(mktemp -d /tmp/headlines-hostile-80.XXXXXX)
PIDS=()
MOUNTS=()
cleanup() {
    for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; done
    wait 2>/dev/null
    for m in "${MOUNTS[@]:-}"; do [ -n "$m" ] && umount "$m" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# wait_until SECONDS COMMAND...: polls every 0.1 s; false when it never held.
wait_until() {
    local deadline=$(( $(date +%s%N) + $1 * 1000000000 )); shift
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s%N)" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

# ---- the server: /feeds/NAME serves $WORK/www/NAME (ETag, 304), /v1/news/top-headlines an APITube
# page of $WORK/www/apitube.json; one line per request in $WORK/requests.log.
mkdir -p "$WORK/www"
cat >"$WORK/server.py" <<'PY'
import hashlib, os, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
root, log = sys.argv[1], sys.argv[2]
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        path = self.path.split("?")[0]
        with open(log, "a") as f: f.write(path + "\n")
        name = "apitube.json" if path == "/v1/news/top-headlines" else path[len("/feeds/"):] if path.startswith("/feeds/") else None
        try: body = open(os.path.join(root, os.path.basename(name)), "rb").read() if name else None
        except OSError: body = None
        if body is None:
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304); self.send_header("ETag", etag); self.send_header("Content-Length", "0"); self.end_headers(); return
        self.send_response(200)
        self.send_header("Content-Type", "application/json" if name == "apitube.json" else "application/rss+xml")
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
: >"$WORK/requests.log"
exec {portfd}< <(exec python3 "$WORK/server.py" "$WORK/www" "$WORK/requests.log")
PIDS+=($!)
read -r -t 10 PORT <&"$portfd" || { row "server" "the loopback server did not start" FAIL; exit 1; }
BASE=http://127.0.0.1:$PORT
requests() { grep -c "${1:-.}" "$WORK/requests.log" || true; }

# rss FILE TITLE N [SLASHES]: an RSS feed of N items; links end in SLASHES slashes (no guid, so
# the link is each item's id too).
rss() {
    python3 - "$@" <<'PY'
import sys
path, title, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
run = "/" * (int(sys.argv[4]) if len(sys.argv) > 4 else 0)
items = "".join(f"<item><title>{title} story {i}</title><link>https://{title}.example.com/{i}{run}</link></item>" for i in range(n))
open(path, "w").write(f'<?xml version="1.0"?><rss version="2.0"><channel><title>{title}</title>{items}</channel></rss>')
PY
}
# apitube FILE TITLE...: an APITube result list, one article per title, newest first.
apitube() {
    python3 - "$@" <<'PY'
import datetime, json, sys, zlib
path, titles = sys.argv[1], sys.argv[2:]
now = datetime.datetime.now(datetime.timezone.utc)
out = [{"id": zlib.crc32(t.encode()), "title": t, "href": "https://news.example.com/" + t.replace(" ", "-"),
        "published_at": (now - datetime.timedelta(minutes=i + 1)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        "source": {"domain": "news.example.com"}, "image": ""} for i, t in enumerate(titles)]
json.dump({"status": "ok", "page": 1, "has_next_pages": False, "results": out}, open(path, "w"))
PY
}

# ---- worlds: one isolated user each -----------------------------------------------------------
world_env() { # DIR
    local d=$1
    printf '%s\n' "HOME=$d" "XDG_CONFIG_HOME=$d/config" "XDG_CACHE_HOME=${CACHE_AT:-$d/cache}" \
        "XDG_STATE_HOME=${STATE_AT:-$d/state}" "XDG_RUNTIME_DIR=$d/runtime" "APITUBE_API_KEY=hostile-80-key" \
        "DBUS_SESSION_BUS_ADDRESS=${BUS:-unix:path=$d/no-bus}" "DISPLAY=${DISPLAY:-}" "PATH=$PATH" "LANG=C.UTF-8"
}
hl() { # DIR ARGS...
    local d=$1; shift
    local vars; mapfile -t vars < <(world_env "$d")
    env -i "${vars[@]}" "$BIN" "$@"
}
hl_bg() { # DIR LOG ARGS...: starts headlines in the background; sets HPID
    local d=$1 log=$2; shift 2
    local vars; mapfile -t vars < <(world_env "$d")
    env -i "${vars[@]}" "$BIN" "$@" 2>"$log" &
    HPID=$!
    PIDS+=("$HPID")
}
new_world() { # DIR CONFIG
    mkdir -p "$1"/{config/headlines,cache,state,runtime}
    chmod 700 "$1/runtime"
    printf '%s' "$2" >"$1/config/headlines/headlines.conf"
}
# stop PID SECONDS: SIGTERM; sets RC to the exit status, or "hung" when it was still running after
# SECONDS (then SIGKILLs it). Not in $(...): only this shell can wait for its child.
stop() {
    kill -TERM "$1" 2>/dev/null
    if wait_until "$2" bash -c "! kill -0 $1 2>/dev/null || grep -q '^State:.*Z' /proc/$1/status"; then
        wait "$1"; RC=$?
    else
        kill -KILL "$1" 2>/dev/null; wait "$1" 2>/dev/null; RC=hung
    fi
}
size() { stat -c %s "$1" 2>/dev/null || echo 0; }
LIMIT=$((16 << 20))

# ---- 1. a writer never writes what its reader would refuse ---------------------------------------
echo "== feeds of long '/' links"
rss "$WORK/www/good.rss" good 5
# Two items a feed, each link about 2 MB: 4.1 MB a feed, and a report of them all past 16 MiB.
for k in 1 2 3; do rss "$WORK/www/slash$k.rss" "slash$k" 2 2040000; done
FEEDS_CONF="[source]
provider = feeds
feeds = $BASE/feeds/good.rss $BASE/feeds/slash1.rss $BASE/feeds/slash2.rss $BASE/feeds/slash3.rss
timeout = 10s
[refresh]
interval = 1h
daily-budget = 50
[notify]
enabled = false
"
d=$WORK/slashes; new_world "$d" "$FEEDS_CONF"
feed_sizes=$(for k in 1 2 3; do size "$WORK/www/slash$k.rss"; done | paste -sd,)
problems=()
for k in 1 2 3; do
    s=$(size "$WORK/www/slash$k.rss"); [ "$s" -gt 4000000 ] && [ "$s" -lt 4194304 ] || problems+=("setup: slash$k.rss is $s bytes, not 4.1 MB under the cap")
done
hl "$d" fetch >"$d/fetch.out" 2>"$d/fetch.err"; rc_fetch=$?
hl "$d" list --json >"$d/list.out" 2>"$d/list.err"; rc_list=$?
hl "$d" status --json >"$d/status.out" 2>"$d/status.err"; rc_status=$?
[ "$rc_fetch" = 0 ] || problems+=("fetch exited $rc_fetch: $(clip "$(cat "$d/fetch.err")")")
[ "$rc_list" = 0 ] || problems+=("list exited $rc_list")
[ "$rc_status" = 0 ] || problems+=("status exited $rc_status")
for f in cache/headlines/headlines.json cache/headlines/feeds.json; do
    s=$(size "$d/$f"); [ "$s" -gt 0 ] && [ "$s" -le "$LIMIT" ] || problems+=("$(basename "$f") is $s bytes (readers accept at most $LIMIT)")
done
aside=$(ls "$d"/cache/headlines/*.corrupt-* 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
[ -z "$aside" ] || problems+=("set aside as corrupt: $aside")
grep -q corrupt "$d/list.err" "$d/status.err" && problems+=("list/status warned: $(clip "$(cat "$d/list.err" "$d/status.err")")")
good=$(python3 -c 'import json,sys; print(sum(1 for h in json.load(open(sys.argv[1])) if h["title"].startswith("good story")))' "$d/list.out" 2>/dev/null || echo 0)
[ "$good" = 5 ] || problems+=("list shows $good of the good feed's 5 headlines")
etag=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["feeds"][sys.argv[2]].get("etag",""))' "$d/cache/headlines/feeds.json" "$BASE/feeds/good.rss" 2>/dev/null)
[ -n "$etag" ] || problems+=("feeds.json lost the good feed's validator")
grep -Eq "$CRASH" "$d"/*.err && problems+=("crash text")
if [ ${#problems[@]} -eq 0 ]; then
    row "fetch: 3 feeds of 4.1 MB with '/' links ($feed_sizes bytes) beside a good feed" "fetch 0; cache $(size "$d/cache/headlines/headlines.json") B, feeds.json $(size "$d/cache/headlines/feeds.json") B; list and status accept both, no warning; the good feed's 5 headlines and its ETag kept" PASS
else
    row "fetch: 3 feeds of 4.1 MB with '/' links beside a good feed" "$(join "${problems[@]}")" FAIL
fi

# The host: its child's report must fit what the host reads; the bar shows the good feed.
d=$WORK/slashes-host; new_world "$d" "$FEEDS_CONF"
problems=()
hl_bg "$d" "$d/run.err" run
wait_until 40 grep -q "reload ok\|reload failed" "$d/run.err" || problems+=("no reload finished within 40 s")
bar=$d/runtime/headlines/bar/waybar
wait_until 5 grep -q "good story" "$bar" || problems+=("the bar line does not show the good feed: $(clip "$(cat "$bar" 2>/dev/null)")")
grep -q "Headlines unavailable" "$bar" 2>/dev/null && problems+=("the bar says Headlines unavailable")
grep -q "reload failed\|without a report\|killed" "$d/run.err" && problems+=("$(clip "$(grep -m1 "reload failed\|without a report\|killed" "$d/run.err")")")
stop "$HPID" 5; rc=$RC
[ "$rc" = 0 ] || problems+=("the host ended with $rc on SIGTERM")
grep -Eq "$CRASH" "$d/run.err" && problems+=("crash text")
if [ ${#problems[@]} -eq 0 ]; then
    row "host: the same feeds" "reload ok; the child's report fit; the bar shows the good feed; SIGTERM ends it with 0" PASS
else
    row "host: the same feeds" "$(join "${problems[@]}")" FAIL
fi

# ---- 2. a full disk, a crash and a new host: nothing notified twice ------------------------------
echo "== full disk, SIGKILL, new host"
full_disk_row() {
    local fault="reload on a full disk, SIGKILL, new host (x2), then space freed"
    if [ "$(id -u)" -ne 0 ]; then
        row "$fault" "could not run: mounting a tmpfs needs root, and this runs as $(id -un)" FAIL; return
    fi
    for tool in Xvfb dunst dbus-daemon dbus-monitor; do
        command -v "$tool" >/dev/null || { row "$fault" "could not run: $tool is not installed (scripts/install-deps.sh --test)" FAIL; return; }
    done
    local d=$WORK/full problems=() k
    # shellcheck source=../suites/lib/session.sh
    ( . "$SESSION_LIB/session.sh"
      session_start "$WORK/session" >/dev/null 2>&1 || { echo "SESSION-FAILED"; exit 0; }
      BUS=$DBUS_SESSION_BUS_ADDRESS
      notified() { python3 "$SESSION_LIB/notify_calls.py" "$SESSION_DIR/monitor.log" | python3 -c '
import collections, json, sys
c = collections.Counter(json.loads(l)["summary"] for l in sys.stdin)
print(" ".join(f"{c[t]}" for t in sys.argv[1:]))' "$@"; }
      apitube "$WORK/www/apitube.json" "Old story 1" "Old story 2"
      new_world "$d" "[source]
provider = apitube
base-url = $BASE
timeout = 5s
[refresh]
interval = 1s
daily-budget = 86400
[notify]
max-per-refresh = 10
"
      mkdir -p "$d/disk"
      mount -t tmpfs -o size=256k,mode=755 tmpfs "$d/disk" || { echo "MOUNT-FAILED"; exit 0; }
      echo "$d/disk" >"$WORK/mounted"
      export CACHE_AT=$d/disk/cache STATE_AT=$d/disk/state
      # A first host with room: it marks the old stories seen.
      hl_bg "$d" "$d/host0.err" run
      wait_until 15 grep -q "reload ok" "$d/host0.err"
      wait_until 5 test -s "$d/disk/state/headlines/seen.json"
      stop "$HPID" 5
      # Three new stories, and the disk fills up.
      apitube "$WORK/www/apitube.json" "Full disk story 1" "Full disk story 2" "Full disk story 3" "Old story 1" "Old story 2"
      dd if=/dev/zero of="$d/disk/filler" bs=4k 2>/dev/null
      echo "avail $(df -k --output=avail "$d/disk" | tail -n 1 | tr -d ' ')"
      for k in 1 2; do
          hl_bg "$d" "$d/host$k.err" run
          wait_until 15 grep -q "reload ok" "$d/host$k.err"
          # Until the host has said what it did with the new stories, then a little for D-Bus.
          wait_until 5 grep -q "notifying\|seen-headlines" "$d/host$k.err"
          sleep 0.5
          kill -KILL "$HPID"; wait "$HPID" 2>/dev/null
          echo "full$k $(notified "Full disk story 1" "Full disk story 2" "Full disk story 3") said=$(grep -c "seen-headlines list.*free disk space" "$d/host$k.err")"
      done
      rm -f "$d/disk/filler"
      hl_bg "$d" "$d/host3.err" run
      wait_until 15 grep -q "notifying" "$d/host3.err"
      wait_until 5 bash -c "[ \"\$(python3 '$SESSION_LIB/notify_calls.py' '$SESSION_DIR/monitor.log' | grep -c 'Full disk story')\" -ge 3 ]"
      sleep 0.5
      stop "$HPID" 5
      hl_bg "$d" "$d/host4.err" run
      wait_until 15 grep -q "reload ok" "$d/host4.err"
      sleep 1
      stop "$HPID" 5
      echo "freed $(notified "Full disk story 1" "Full disk story 2" "Full disk story 3")"
    ) >"$WORK/full.out" 2>"$WORK/full.err"
    [ -s "$WORK/mounted" ] && MOUNTS+=("$(cat "$WORK/mounted")")
    if grep -q SESSION-FAILED "$WORK/full.out" || ! grep -q "^avail" "$WORK/full.out" && ! grep -q MOUNT-FAILED "$WORK/full.out"; then
        row "$fault" "could not run: the private D-Bus session with dunst did not start: $(clip "$(cat "$WORK/full.err" "$WORK/full.out")")" FAIL; return
    fi
    grep -q MOUNT-FAILED "$WORK/full.out" && { row "$fault" "could not run: mount -t tmpfs failed" FAIL; return; }
    local avail full1 full2 freed said1 said2
    avail=$(sed -n 's/^avail //p' "$WORK/full.out")
    full1=$(sed -n 's/^full1 \([0-9 ]*\) said=.*/\1/p' "$WORK/full.out"); said1=$(sed -n 's/^full1 .* said=//p' "$WORK/full.out")
    full2=$(sed -n 's/^full2 \([0-9 ]*\) said=.*/\1/p' "$WORK/full.out"); said2=$(sed -n 's/^full2 .* said=//p' "$WORK/full.out")
    freed=$(sed -n 's/^freed //p' "$WORK/full.out")
    [ "$avail" = 0 ] || problems+=("setup: the tmpfs still had ${avail:-?} KiB free")
    for k in 1 2; do grep -q "reload ok" "$d/host$k.err" || problems+=("host $k never reloaded: $(clip "$(tail -n 3 "$d/host$k.err")")"); done
    [ "$full1" = "0 0 0" ] || problems+=("notified while the seen set could not be saved (counts per story after host 1: ${full1:-?})")
    [ "$full2" = "0 0 0" ] || problems+=("after the crash a new host notified them again (counts: ${full2:-?})")
    [ "$said1" = 1 ] && [ "$said2" = 1 ] || problems+=("the seen-headlines sentence said ${said1:-?} and ${said2:-?} times by hosts 1 and 2 (expected once each)")
    [ "$freed" = "1 1 1" ] || problems+=("once space was freed, counts per story: ${freed:-?} (expected 1 1 1)")
    grep -Eq "$CRASH" "$d"/host*.err && problems+=("crash text")
    if [ ${#problems[@]} -eq 0 ]; then
        row "$fault" "while full: 0 notifications and one 'free disk space' sentence per host; after the kill the new host notified nothing again; once freed each of the 3 stories was notified once (dunst)" PASS
    else
        row "$fault" "$(join "${problems[@]}")" FAIL
    fi
}
full_disk_row

# ---- 3. the config file goes away for three seconds ----------------------------------------------
echo "== config file deleted, then back"
rss "$WORK/www/calm.rss" calm 3
apitube "$WORK/www/apitube.json" "Default source story"
CALM_CONF="[source]
provider = feeds
feeds = $BASE/feeds/calm.rss
[refresh]
interval = 1h
daily-budget = 20
[notify]
enabled = false
"
d=$WORK/config-gone; new_world "$d" "$CALM_CONF"
conf=$d/config/headlines/headlines.conf
problems=()
# --base-url sends the default source (APITube, whose key is set) to the loopback server too.
hl_bg "$d" "$d/run.err" --base-url "$BASE" run
wait_until 15 grep -q "reload ok" "$d/run.err" || problems+=("no first reload")
sleep 0.5
before=$(requests); api_before=$(requests /v1/news)
cp "$conf" "$d/conf.saved"
rm "$conf"
sleep 3
cp "$d/conf.saved" "$d/conf.tmp" && mv "$d/conf.tmp" "$conf"   # back by a rename, as editors save
sleep 2
# And the same bytes written in place: still nothing to do.
cat "$d/conf.saved" >"$conf"
sleep 1
api=$(( $(requests /v1/news) - api_before )); all=$(( $(requests) - before ))
[ "$api" = 0 ] || problems+=("$api request(s) to the default source (APITube)")
[ "$all" = 0 ] || problems+=("$all request(s) in all while the file was gone and back: $(clip "$(tail -n "$all" "$WORK/requests.log" | tr '\n' ' ')")")
gone=$(grep -c "is gone; keeping the current configuration" "$d/run.err")
[ "$gone" = 1 ] || problems+=("the host said $gone times that the file is gone (expected once)")
grep -q "news source changed\|configuration re-read" "$d/run.err" && problems+=("the host re-read or switched its configuration: $(clip "$(grep -m1 "news source changed\|configuration re-read" "$d/run.err")")")
stop "$HPID" 5; rc=$RC
[ "$rc" = 0 ] || problems+=("the host ended with $rc on SIGTERM")
if [ ${#problems[@]} -eq 0 ]; then
    row "config file deleted for 3 s, then back (rename, then in place)" "0 requests (none to the default APITube); one line says it is gone and the configuration is kept; the same bytes back change nothing" PASS
else
    row "config file deleted for 3 s, then back" "$(join "${problems[@]}")" FAIL
fi

# ---- 4. a FIFO at every state file and at the config ---------------------------------------------
echo "== FIFOs at state file paths"
FIFO_CONF="[source]
provider = feeds
feeds = $BASE/feeds/calm.rss
[refresh]
interval = 1h
daily-budget = 20
"
for target in state/headlines/ledger.json state/headlines/seen.json state/headlines/muted.json \
              state/headlines/status.json cache/headlines/headlines.json runtime/headlines/offset.json \
              config/headlines/headlines.conf; do
    name=$(basename "$target")
    d=$WORK/fifo-$name; new_world "$d" "$FIFO_CONF"
    mkdir -p "$(dirname "$d/$target")"; chmod 700 "$d/runtime/headlines" 2>/dev/null
    rm -f "$d/$target"; mkfifo -m 600 "$d/$target"
    problems=()
    hl_bg "$d" "$d/run.err" run
    if [ "$name" = headlines.conf ]; then
        # No config to run: one sentence naming the file, at once, exit 2.
        wait_until 3 bash -c "! kill -0 $HPID 2>/dev/null" || problems+=("still running after 3 s")
        stop "$HPID" 2; rc=$RC
        [ "$rc" = 2 ] || problems+=("exited $rc, expected 2")
        grep -q "headlines.conf is a FIFO" "$d/run.err" || problems+=("no message naming it: $(clip "$(cat "$d/run.err")")")
        outcome="exit 2 at once: $(clip "$(sed "s|$d/||g; s/^headlines: //" "$d/run.err" | head -n 1)")"
    else
        wait_until 15 grep -q "reload ok\|reload failed" "$d/run.err" || problems+=("no reload finished within 15 s")
        # The notifications' first load of seen.json follows the reload.
        [ "$name" = seen.json ] && wait_until 3 grep -q "seen.json" "$d/run.err"
        t0=$(date +%s%N)
        stop "$HPID" 2; rc=$RC
        took=$(( ($(date +%s%N) - t0) / 1000000 ))
        [ "$rc" = 0 ] || problems+=("SIGTERM: $rc")
        line=$(grep -m1 -- "$name" "$d/run.err" | sed "s|$d/||g; s/^headlines: //")
        grep -q -- "$name.*\(FIFO\|not a regular file\)" "$d/run.err" || problems+=("nothing said about $name: $(clip "$(cat "$d/run.err")")")
        outcome="host ran and said: $(clip "$line"); stopped ${took} ms after SIGTERM"
    fi
    grep -Eq "$CRASH" "$d/run.err" && problems+=("crash text")
    if [ ${#problems[@]} -eq 0 ]; then row "FIFO at $target" "$outcome" PASS
    else row "FIFO at $target" "$(join "${problems[@]}")" FAIL; fi
done
exit 0
