#!/usr/bin/env bash
# Hostile world: resources and reach of the reload child. One ROW per item:
#   1. ~/.cache/headlines/images a symbolic link to a folder of the user's own: a reload through
#      the host stores nothing there, deletes nothing there, and warns once;
#   2. 100 PNGs of 6300×6300 (small files, huge canvases) on a page of 100 with timeout = 3s: the
#      report arrives in time, headlines are notified and the bar is fresh; ten of them, and ten
#      2000×2000 ones that are decoded, at the defaults: the child's time and peak memory;
#   3. 100 [widget] groups: at most 3 fetch children at once, every widget reloaded;
#   4. an outside source (a server on 198.51.100.7, in a network namespace of its own) whose
#      images point at a local service on 127.0.0.1, by name, by number and through a 302 from
#      the source's own origin: the service gets no request; the same images from a source on
#      127.0.0.1 are fetched;
#   5. a fetch child that hangs past its deadline: killed, and no GLib-CRITICAL in the host's log.
# Servers: a small python3 file server defined below. Notifications: the private desktop session
# of scripts/suites/lib/session.sh (D-Bus, Xvfb, dunst, dbus-monitor). Binaries in $HEADLINES_BIN.
# RESOURCE_ROWS=2,4 runs only those rows.
set -uo pipefail
cd "$(dirname "$0")/../.."
BINDIR=${HEADLINES_BIN:-$(swift build --show-bin-path)}
HL=$BINDIR/headlines
AREA=resources
. scripts/suites/lib/session.sh

row() { # fault outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 150 ] && printf '%s' "$s" || printf '%s…' "${s:0:149}"; }
join() { local IFS=';'; printf '%s' "$*"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
want() { [ -z "${RESOURCE_ROWS:-}" ] || [[ ",$RESOURCE_ROWS," == *",$1,"* ]]; }

WORK=$(mktemp -d /tmp/headlines-hostile-resources.XXXXXX)
EXTRA_PIDS=()
cleanup() {
    for pid in "${EXTRA_PIDS[@]:-}"; do [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; done
    session_stop
    rm -rf "$WORK"
}
session_start "$WORK/session"
trap cleanup EXIT

# The file server: GET /PATH answers ROOT/PATH; /redirect?to=URL answers 302 to URL; ?delay=S
# waits S seconds first. Every request is logged as "HOST:PORT /PATH?QUERY". Prints its port.
cat >"$WORK/server.py" <<'PY'
import os, sys, time, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
root, log, address = sys.argv[1], sys.argv[2], sys.argv[3]
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    def log_message(self, *a): pass
    def do_GET(self):
        with open(log, "a") as f:
            f.write("%s:%d %s\n" % (address, self.server.server_address[1], self.path))
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if "delay" in query:
            time.sleep(float(query["delay"][0]))
        if url.path == "/redirect":
            self.send_response(302); self.send_header("Location", query["to"][0])
            self.send_header("Content-Length", "0"); self.end_headers(); return
        path = os.path.normpath(os.path.join(root, url.path.lstrip("/")))
        try:
            with open(path, "rb") as f: body = f.read()
        except OSError:
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        kind = "application/json" if path.endswith("top-headlines") else \
               "image/png" if path.endswith(".png") else "application/rss+xml"
        self.send_response(200); self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body))); self.end_headers()
        try: self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError): pass
server = ThreadingHTTPServer((address, 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
PY
# A forward proxy on 127.0.0.1 (what a user's local proxy is): GET of an absolute URL, relayed
# without following redirects; each request logged. Prints its port.
cat >"$WORK/proxy.py" <<'PY'
import sys, urllib.request, urllib.error
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
log = sys.argv[1]
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a): return None
opener = urllib.request.build_opener(NoRedirect, urllib.request.ProxyHandler({}))
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    def log_message(self, *a): pass
    def do_GET(self):
        with open(log, "a") as f: f.write(self.path + "\n")
        try:
            r = opener.open(self.path, timeout=10); status, headers, body = r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            status, headers, body = e.code, e.headers, e.read()
        self.send_response(status)
        for k in ("Location", "Content-Type"):
            if headers.get(k): self.send_header(k, headers[k])
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
PY
# A PNG of W×H, one colour, through zlib: about 150 KB for 6300×6300.
cat >"$WORK/png.py" <<'PY'
import struct, sys, zlib
path, w, h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
z = zlib.compressobj(9)
row = b"\x00" + b"\x30\x60\xc0" * w
idat = b"".join(z.compress(row) for _ in range(h)) + z.flush()
with open(path, "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
PY

# start_server ROOT LOG [ADDRESS]: sets SERVER_PORT, the server's pid in EXTRA_PIDS.
start_server() {
    local fd
    exec {fd}< <(exec python3 "$WORK/server.py" "$1" "$2" "${3:-127.0.0.1}")
    EXTRA_PIDS+=($!)
    read -r -t 10 SERVER_PORT <&"$fd" || { echo "the file server did not start" >&2; return 1; }
}
# apitube_page FILE N URL-PATTERN: N articles, image N from URL-PATTERN with %d for the number.
apitube_page() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
path, n, pattern = sys.argv[1], int(sys.argv[2]), sys.argv[3]
results = [{"id": i, "title": "Story %d" % i, "href": "https://news.example.com/%d" % i,
            "published_at": "2026-11-29T21:%02d:00Z" % (59 - i % 60), "source": {"domain": "example.com"},
            "image": pattern % i if "%d" in pattern else pattern} for i in range(1, n + 1)]
open(path, "w").write(json.dumps({"status": "ok", "results": results}))
PY
}
# world DIR CONFIG-LINES...: a user whose files live under DIR.
world() {
    local d=$1; shift
    mkdir -p "$d"/{config/headlines,cache,state,runtime}
    chmod 700 "$d/runtime"
    printf '%s\n' "$@" >"$d/config/headlines/headlines.conf"
}
in_world() {
    local d=$1; shift
    exec env HOME="$d" XDG_CONFIG_HOME="$d/config" XDG_CACHE_HOME="$d/cache" XDG_STATE_HOME="$d/state" \
        XDG_RUNTIME_DIR="$d/runtime" APITUBE_API_KEY=hostile-resources-key "$@"
}
hl() { local d=$1; shift; ( in_world "$d" timeout 60 "$HL" "$@" ); }
hl_bg() { local d=$1; shift; in_world "$d" "$HL" "$@"; }
alive() { kill -0 "$1" 2>/dev/null; }
stop() { for pid in "$@"; do kill "$pid" 2>/dev/null; local i; for i in $(seq 30); do alive "$pid" || break; sleep 0.1; done; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; }
reloads() { grep -c "reload ok\|reload failed" "$1" 2>/dev/null || true; }

FILES=$WORK/files; mkdir -p "$FILES/v1/news" "$FILES/huge" "$FILES/mid"
start_server "$FILES" "$WORK/requests.log" || { row "file server" "the loopback server did not start" FAIL; exit 1; }
PORT=$SERVER_PORT

# --- 5 starts first and runs beside the others: it waits out a deadline -------------------------
R5=$WORK/w5
if want 5; then
    mkdir -p "$R5/bin"
    cp "$BINDIR/headlines-host" "$R5/bin/"
    printf '#!/bin/sh\nexec sleep 600\n' >"$R5/bin/headlines-fetch"; chmod +x "$R5/bin/headlines-fetch"
    world "$R5" "[source]" "provider = apitube" "base-url = http://127.0.0.1:$PORT" "timeout = 1s" "[refresh]" "interval = 1h"
    # Off the session bus: the rows' hosts each own its name in turn while this one waits.
    in_world "$R5" env DBUS_SESSION_BUS_ADDRESS=disabled: "$R5/bin/headlines-host" >"$R5/host.log" 2>&1 &
    R5_PID=$!; EXTRA_PIDS+=($R5_PID)
fi

# --- 1. a symlinked images folder ---------------------------------------------------------------
row_1() {
    local W=$WORK/w1 problems=()
    apitube_page "$FILES/v1/news/top-headlines" 3 "http://127.0.0.1:$PORT/small.png"
    python3 "$WORK/png.py" "$FILES/small.png" 400 300
    world "$W" "[source]" "provider = apitube" "base-url = http://127.0.0.1:$PORT" "[refresh]" "interval = 1h"
    mkdir -p "$W/Pictures" "$W/cache/headlines"
    echo '\documentclass{article}' >"$W/Pictures/thesis.tex"
    head -c 5000 /dev/urandom >"$W/Pictures/holiday.jpg"
    echo old >"$W/Pictures/$(printf '%064d' 7).png"
    ln -s "$W/Pictures" "$W/cache/headlines/images"
    local before; before=$(cd "$W/Pictures" && ls | sort | tr '\n' ' ')
    hl_bg "$W" run >"$W/host.log" 2>&1 &
    local pid=$!; EXTRA_PIDS+=($pid)
    wait_for "the reload" 20 bash -c "[ \$(grep -c 'reload ok\|reload failed' '$W/host.log') -ge 1 ]" || problems+=("no reload in 20 s")
    stop "$pid"
    local after; after=$(cd "$W/Pictures" && ls | sort | tr '\n' ' ')
    [ "$before" = "$after" ] || problems+=("the link's target held '$before' and now '$after'")
    local warned; warned=$(grep -c "images is a symbolic link" "$W/host.log")
    [ "$warned" -eq 1 ] || problems+=("$warned warnings about the link: $(clip "$(tail -n 3 "$W/host.log")")")
    grep -q "reload ok" "$W/host.log" || problems+=("the reload failed: $(clip "$(grep 'reload' "$W/host.log")")")
    if [ ${#problems[@]} -eq 0 ]; then
        row "images folder a symbolic link to the user's files" "a reload kept all 3 files of the target, stored nothing there, warned once: $(clip "$(grep -o 'images is a symbolic link.*' "$W/host.log" | head -1)")" PASS
    else
        row "images folder a symbolic link to the user's files" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# child_cost DIR: `headlines fetch --for-host` in DIR's world; prints "SECONDS PEAK_KB STATUS".
child_cost() {
    local d=$1
    ( in_world "$d" python3 -c '
import resource, subprocess, sys, time
t0 = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
print("%.1f %d %d" % (time.monotonic() - t0, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode))
' "$HL" fetch --for-host )
}

# --- 2. huge canvases -------------------------------------------------------------------------------
row_2() {
    local W=$WORK/w2 problems=() facts=()
    python3 "$WORK/png.py" "$FILES/huge.png" 6300 6300
    python3 "$WORK/png.py" "$FILES/mid.png" 2000 2000
    for i in $(seq 100); do ln -sf ../huge.png "$FILES/huge/$i.png"; ln -sf ../mid.png "$FILES/mid/$i.png"; done
    apitube_page "$FILES/v1/news/top-headlines" 100 "http://127.0.0.1:$PORT/huge/%d.png"
    world "$W" "[source]" "provider = apitube" "base-url = http://127.0.0.1:$PORT" "page-size = 100" "timeout = 3s" \
        "[refresh]" "interval = 1h" "[notify]" "max-per-refresh = 3"
    local notified0; notified0=$(notify_count)
    local t0; t0=$(now_ms)
    hl_bg "$W" run >"$W/host.log" 2>&1 &
    local pid=$!; EXTRA_PIDS+=($pid)
    if wait_for "the reload" 40 bash -c "[ \$(grep -c 'reload ok\|reload failed' '$W/host.log') -ge 1 ]"; then
        local took=$(( $(now_ms) - t0 ))
        facts+=("reload reported after ${took} ms")
        grep -q "reload ok" "$W/host.log" || problems+=("$(clip "$(grep 'reload' "$W/host.log")")")
        [ "$took" -lt 18000 ] || problems+=("the report took ${took} ms, past the host's deadline")
        wait_for "a notification" 10 bash -c "[ \$(grep -c 'member=Notify' '$SESSION_DIR/monitor.log') -gt $notified0 ]" \
            || problems+=("no notification")
        facts+=("$(( $(notify_count) - notified0 )) notifications")
        grep -q '"fresh"' "$W/runtime/headlines/bar/waybar" 2>/dev/null || problems+=("the bar is not fresh: $(clip "$(cat "$W/runtime/headlines/bar/waybar" 2>/dev/null)")")
    else
        problems+=("no reload within 40 s")
    fi
    stop "$pid"
    # Ten at the defaults (page-size 10, timeout 30s), in a world of their own: no image stored yet.
    local w
    for kind in huge mid; do
        w=$WORK/w2-$kind
        apitube_page "$FILES/v1/news/top-headlines" 10 "http://127.0.0.1:$PORT/$kind/%d.png"
        world "$w" "[source]" "provider = apitube" "base-url = http://127.0.0.1:$PORT"
        read -r secs peak rc < <(child_cost "$w")
        local stored; stored=$(find "$w/cache/headlines/images" -name '*.png' 2>/dev/null | wc -l)
        facts+=("ten $kind: ${secs} s, peak $((peak / 1024)) MB, $stored stored")
        [ "$rc" = 0 ] || problems+=("ten $kind: the child exited $rc")
        [ "${peak:-999999}" -lt 102400 ] || problems+=("ten $kind: peak ${peak} kB")
        awk -v s="$secs" 'BEGIN { exit !(s < 5 + 2) }' || problems+=("ten $kind: ${secs} s")
    done
    if [ ${#problems[@]} -eq 0 ]; then
        row "100 PNGs of 6300×6300, page-size 100, timeout 3s" "$(join "${facts[@]}")" PASS
    else
        row "100 PNGs of 6300×6300, page-size 100, timeout 3s" "$(clip "$(join "${problems[@]}" "${facts[@]}")")" FAIL
    fi
}

# --- 3. a hundred widgets -----------------------------------------------------------------------------
row_3() {
    local W=$WORK/w3 problems=() lines=("[source]" "provider = feeds" "feeds = http://127.0.0.1:$PORT/w/0.rss" "[refresh]" "interval = 1h" "[notify]" "enabled = false")
    mkdir -p "$FILES/w"
    local i
    for i in $(seq 0 100); do
        printf '<?xml version="1.0"?><rss version="2.0"><channel><title>W%d</title><item><title>Widget %d</title><link>https://news.example.com/%d</link><guid>%d</guid></item></channel></rss>' \
            "$i" "$i" "$i" "$i" >"$FILES/w/$i.rss"
    done
    # Each widget on a feed of its own, so none only mirrors another's cache.
    for i in $(seq 1 100); do lines+=("[widget w$i]" "feeds = http://127.0.0.1:$PORT/w/$i.rss"); done
    world "$W" "${lines[@]}"
    hl_bg "$W" run >"$W/host.log" 2>&1 &
    local pid=$!; EXTRA_PIDS+=($pid)
    local most=0 rss_most=0 deadline=$(( $(now_ms) + 90000 )) host="" n rss v c
    while [ "$(now_ms)" -lt "$deadline" ] && [ "$(reloads "$W/host.log")" -lt 100 ]; do
        [ -n "$host" ] || host=$(pgrep -P "$pid" -x headlines-host || { [ "$(cat /proc/$pid/comm 2>/dev/null)" = headlines-host ] && echo "$pid"; })
        if [ -n "$host" ]; then
            n=0; rss=0
            for c in $(pgrep -P "$host" -x headlines-fetch); do
                v=$(awk '/^VmRSS/ { print $2 }' "/proc/$c/status" 2>/dev/null)
                n=$((n + 1)); rss=$(( rss + ${v:-0} ))
            done
            [ "$n" -gt "$most" ] && most=$n
            [ "$rss" -gt "$rss_most" ] && rss_most=$rss
        fi
        sleep 0.05
    done
    local done_; done_=$(grep -c "reload ok" "$W/host.log")
    stop "$pid"
    grep -q "serving 100 widgets" "$W/host.log" || problems+=("the host does not serve 100 widgets: $(clip "$(head -n 2 "$W/host.log")")")
    [ "$done_" -ge 100 ] || problems+=("$done_ of 100 widgets reloaded: $(clip "$(grep -m1 'reload failed\|error' "$W/host.log")")")
    [ "$most" -le 3 ] || problems+=("$most fetch children at once")
    [ "$most" -ge 1 ] || problems+=("no fetch child seen")
    local outcome="$done_ widgets reloaded, at most $most fetch children at once, together at most $((rss_most / 1024)) MB RSS"
    if [ ${#problems[@]} -eq 0 ]; then row "100 [widget] groups" "$outcome" PASS
    else row "100 [widget] groups" "$(clip "$(join "${problems[@]}") ($outcome)")" FAIL; fi
}

# --- 4. images that point at local services ----------------------------------------------------------
row_4() {
    local N=$WORK/w4 problems=()
    if ! unshare -n true 2>/dev/null && ! unshare -rn true 2>/dev/null; then
        row "image URLs at local services" "cannot make a network namespace here (unshare -n refused), so the outside source cannot be played" FAIL
        return
    fi
    mkdir -p "$N/outside" "$N/inside"
    python3 "$WORK/png.py" "$N/outside/ok.png" 64 64
    cp "$N/outside/ok.png" "$N/inside/ok.png"
    declare -f start_server world in_world >"$N/functions.sh"
    # Runs inside the namespace: loopback up, 198.51.100.7 on it as the outside source.
    cat >"$N/inside.sh" <<SH
set -u
ip link set lo up && ip addr add 198.51.100.7/32 dev lo || { echo "NS-FAILED"; exit 0; }
. "$N/functions.sh"
WORK=$WORK; EXTRA_PIDS=()
start_server "$N/inside" "$N/service.log" 127.0.0.1 || exit 0; SVC=\$SERVER_PORT
start_server "$N/outside" "$N/outside.log" 198.51.100.7 || exit 0; OUT=\$SERVER_PORT
admin="127.0.0.1:\$SVC/admin?action=delete"
item() { printf '<item><title>%s</title><link>https://news.example.com/%s</link><guid>%s</guid><enclosure url="%s" type="image/png" length="1"/></item>' "\$1" "\$1" "\$1" "\$2"; }
{
  printf '<?xml version="1.0"?><rss version="2.0"><channel><title>Outside</title>'
  item by-ip "http://\$admin"
  item by-name "http://localhost:\$SVC/admin?action=delete"
  item by-number "http://2130706433:\$SVC/admin?action=delete"
  item by-redirect "http://198.51.100.7:\$OUT/redirect?to=http%3A%2F%2F127.0.0.1%3A\$SVC%2Fadmin%3Faction%3Ddelete"
  item outside-ok "http://198.51.100.7:\$OUT/ok.png"
  printf '</channel></rss>'
} >"$N/outside/feed.rss"
printf '<?xml version="1.0"?><rss version="2.0"><channel><title>Inside</title><item><title>mine</title><link>https://news.example.com/m</link><guid>m</guid><enclosure url="http://127.0.0.1:%s/ok.png" type="image/png" length="1"/></item></channel></rss>' "\$SVC" >"$N/inside/feed.rss"
world "$N/a" "[source]" "provider = feeds" "feeds = http://198.51.100.7:\$OUT/feed.rss" "page-size = 10"
( in_world "$N/a" timeout 30 "$HL" fetch --for-host ) >"$N/a.report" 2>"$N/a.err"
world "$N/b" "[source]" "provider = feeds" "feeds = http://127.0.0.1:\$SVC/feed.rss"
( in_world "$N/b" timeout 30 "$HL" fetch --for-host ) >"$N/b.report" 2>"$N/b.err"
exec {pfd}< <(exec python3 "$WORK/proxy.py" "$N/proxy.log"); EXTRA_PIDS+=(\$!); read -r -t 10 PROXY <&\$pfd || exit 0
world "$N/c" "[source]" "provider = feeds" "feeds = http://198.51.100.7:\$OUT/feed.rss" "page-size = 10"
( in_world "$N/c" env http_proxy=http://127.0.0.1:\$PROXY timeout 30 "$HL" fetch --for-host ) >"$N/c.report" 2>"$N/c.err"
for pid in "\${EXTRA_PIDS[@]}"; do kill "\$pid" 2>/dev/null; done
echo NS-DONE
SH
    local ran
    ran=$(unshare -n bash "$N/inside.sh" 2>"$N/ns.err" || unshare -rn bash "$N/inside.sh" 2>>"$N/ns.err")
    if [[ $ran != *NS-DONE* ]]; then
        row "image URLs at local services" "the namespace run did not finish: $(clip "$ran $(cat "$N/ns.err")")" FAIL
        return
    fi
    local admin_hits images_a images_b images_c ok_hits proxied
    admin_hits=$(grep -c '/admin' "$N/service.log" 2>/dev/null || true)
    ok_hits=$(grep -c '/ok.png' "$N/outside.log" 2>/dev/null || true)
    images_a=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("images") or {}))' "$N/a.report" 2>/dev/null || echo "?")
    images_b=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("images") or {}))' "$N/b.report" 2>/dev/null || echo "?")
    images_c=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("images") or {}))' "$N/c.report" 2>/dev/null || echo "?")
    proxied=$(grep -c '198.51.100.7.*/ok.png' "$N/proxy.log" 2>/dev/null || true)
    [ "$admin_hits" -eq 0 ] || problems+=("the local service got $admin_hits request(s): $(clip "$(grep /admin "$N/service.log" | tr '\n' ' ')")")
    # ok.png twice: once directly, once from the proxy.
    [ "$ok_hits" -eq 2 ] && [ "$images_a" = 1 ] || problems+=("the outside image: $ok_hits request(s), $images_a stored ($(clip "$(cat "$N/a.err")"))")
    [ "$images_c" = 1 ] && [ "$proxied" -ge 1 ] || problems+=("through a proxy on 127.0.0.1: $images_c image(s) stored, ok.png proxied $proxied time(s) ($(clip "$(cat "$N/c.err")"))")
    [ "$images_b" = 1 ] || problems+=("a source on 127.0.0.1 got $images_b of its 1 image stored ($(clip "$(cat "$N/b.err")"))")
    if [ ${#problems[@]} -eq 0 ]; then
        row "image URLs at local services" "an outside source's images at 127.0.0.1, localhost, 2130706433 and a 302 to 127.0.0.1 made no request, directly or through a proxy on 127.0.0.1; its own image (both ways) and a local source's local image were stored" PASS
    else
        row "image URLs at local services" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

# --- 5. a child past its deadline --------------------------------------------------------------------
row_5() {
    local problems=()
    wait_for "the child to be killed" 60 grep -q "killed by signal 9" "$R5/host.log" || problems+=("no kill within 60 s")
    local took; took=$(grep -o "reload failed in [0-9]* ms" "$R5/host.log" | head -1 | tr -dc 0-9)
    sleep 0.5
    stop "$R5_PID"
    grep -q "CRITICAL" "$R5/host.log" && problems+=("$(clip "$(grep -m1 CRITICAL "$R5/host.log")")")
    if [ ${#problems[@]} -eq 0 ]; then
        row "a fetch child hung past its deadline" "killed after $(( ${took:-0} / 1000 )) s (timeout 1s + the host's margin), no GLib-CRITICAL logged" PASS
    else
        row "a fetch child hung past its deadline" "$(clip "$(join "${problems[@]}")")" FAIL
    fi
}

for n in 1 2 3 4 5; do
    want "$n" || continue
    t=$(now_ms)
    "row_$n"
    echo "   (row $n took $(( ($(now_ms) - t) / 1000 )) s)"
done
