#!/usr/bin/env bash
# Hostile world: a full disk and a crash must not notify a headline twice. Real `headlines` hosts
# against a loopback APITube, counted by a real dunst on a private bus (the rest of this file's
# rows are Swift tests now; see docs/testing.md): a reload while cache and state sit on a full
# tmpfs, then SIGKILL, then a new host: nothing may be notified twice (nothing is notified until
# the seen set is saved), and once space is freed the new headlines are notified once.
# Prints ROW lines for scripts/hostile.sh. Mounting the tmpfs needs root: otherwise the row FAILs
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

# ---- the server: /v1/news/top-headlines answers an APITube page of $WORK/www/apitube.json (ETag,
# 304); one line per request in $WORK/requests.log.
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
        name = "apitube.json" if path == "/v1/news/top-headlines" else None
        try: body = open(os.path.join(root, os.path.basename(name)), "rb").read() if name else None
        except OSError: body = None
        if body is None:
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304); self.send_header("ETag", etag); self.send_header("Content-Length", "0"); self.end_headers(); return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
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

exit 0
