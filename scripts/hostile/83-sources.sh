#!/usr/bin/env bash
# Hostile world: one source must not hide the others or cost the host its idle. Real `headlines`
# against a loopback server that answers each path with a fixed status and body:
#   1. a feed dated 2099 beside a good feed: the good feed's headlines stay, nothing is dated later
#      than the fetch;
#   2. a feed of 33 items beside one of 10: both are in the list;
#   3. APITube's parameter errors (ER0250, ER0208): the advice is about the settings, not the key;
#   4. one APITube title with an invalid UTF-8 byte, one with a lone \ud83d: the page is kept;
#   5. ten 400 KB titles, rotate = 2s: the idle host's CPU stays near zero.
# One ROW per case (see scripts/hostile.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
AREA=sources

row() { # fault outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 150 ] && printf '%s' "$s" || printf '%s…' "${s:0:149}"; }

WORK=$(mktemp -d /tmp/headlines-hostile-sources.XXXXXX)
SERVER=
HOST=
cleanup() {
    [ -n "$HOST" ] && kill "$HOST" 2>/dev/null
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null
    wait 2>/dev/null; rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK"/{config/headlines,cache,state,runtime,www}
chmod 700 "$WORK/runtime"
export HOME=$WORK XDG_CONFIG_HOME=$WORK/config XDG_CACHE_HOME=$WORK/cache XDG_STATE_HOME=$WORK/state XDG_RUNTIME_DIR=$WORK/runtime
unset DISPLAY WAYLAND_DISPLAY NEWSAPI_API_KEY APITUBE_API_KEY
export DBUS_SESSION_BUS_ADDRESS=unix:path=$WORK/no-bus

# The documents: www/PATH is the body, www/PATH.status its HTTP status (200 when absent).
python3 - "$WORK/www" <<'PY'
import os, sys
www = sys.argv[1]
def put(name, body, status=None):
    path = os.path.join(www, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(body if isinstance(body, bytes) else body.encode())
    if status: open(path + ".status", "w").write(str(status))
def rss(name, n, date, title=lambda i: None):
    items = "".join(f"<item><title>{title(i) or f'{name} {i}'}</title><link>https://{name}.example/{i}</link>"
                    f"<pubDate>{date(i)}</pubDate></item>" for i in range(n))
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>{name}</title>{items}</channel></rss>'
put("future.rss", rss("future", 40, lambda i: "Thu, 01 Jan 2099 00:00:00 GMT"))
put("good.rss", rss("good", 5, lambda i: f"Mon, 30 Nov 2026 0{i}:00:00 GMT"))
put("busy.rss", rss("busy", 33, lambda i: f"Wed, 02 Dec 2026 {i % 24:02d}:{i % 60:02d}:00 GMT"))
put("slow.rss", rss("slow", 10, lambda i: f"Tue, 01 Dec 2026 0{i}:00:00 GMT"))
for code, message in (("ER0250", "Entity sport name 'Football' not found"), ("ER0208", "Invalid value for parameter 'language.code'")):
    put(f"{code}/v1/news/top-headlines",
        '{"status":"not_ok","request_id":"r","errors":[{"status":400,"code":"%s","message":"%s"}]}' % (code, message), 400)
def page(title):
    return (b'{"status":"ok","results":[{"id":1,"title":"' + title + b'","href":"https://a.example/1"},'
            b'{"id":2,"title":"Good","href":"https://a.example/2"}]}')
put("utf8/v1/news/top-headlines", page(b"Caf\xe9 au lait"))
put("surrogate/v1/news/top-headlines", page(b"Rocket \\ud83d launch"))
huge = "".join(f"<item><title>{'Long title word ' * 25000}{i}</title><link>https://long.example/{i}</link>"
               f"<pubDate>Wed, 02 Dec 2026 0{i}:00:00 GMT</pubDate></item>" for i in range(10))
put("long.rss", f'<?xml version="1.0"?><rss version="2.0"><channel><title>long</title>{huge}</channel></rss>')
PY
exec {portfd}< <(exec python3 -u -c '
import http.server, os, sys
www = sys.argv[1]
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = os.path.join(www, self.path.split("?")[0].lstrip("/"))
        if not os.path.isfile(path):
            self.send_response(404); self.end_headers(); return
        body = open(path, "rb").read()
        status = int(open(path + ".status").read()) if os.path.exists(path + ".status") else 200
        self.send_response(status)
        self.send_header("Content-Type", "application/json" if "/v1/" in self.path else "application/rss+xml")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(server.server_address[1], flush=True)
server.serve_forever()
' "$WORK/www")
SERVER=$!
read -r -t 10 PORT <&"$portfd" || { row "source server" "the loopback server did not start" FAIL; exit 1; }
URL=http://127.0.0.1:$PORT

fresh() { rm -rf "$XDG_CACHE_HOME/headlines" "$XDG_STATE_HOME/headlines"; }
# titles CONF: the titles `list --json` shows, one a line; dates CONF: their published times.
list_json() { timeout 10 "$BIN" --config "$1" list --json 2>/dev/null; }

# --- 1 and 2: several feeds ------------------------------------------------------------------
feeds_row() { # fault conf-feeds sources-that-must-show...
    local fault=$1 feeds=$2; shift 2
    local conf=$WORK/feeds.conf start got missing=() late
    printf '[source]\nprovider = feeds\nfeeds = %s\ntimeout = 5s\n[notify]\nenabled = false\n' "$feeds" >"$conf"
    fresh
    start=$(date -u +%s)
    timeout 30 "$BIN" --config "$conf" fetch >/dev/null 2>"$WORK/fetch.err"
    got=$(list_json "$conf" | python3 -c '
import json, sys, datetime
hs = json.load(sys.stdin)
start = int(sys.argv[1])
late = sum(1 for h in hs if datetime.datetime.fromisoformat(h["published_at"].replace("Z", "+00:00")).timestamp() > start + 60)
counts = {}
for h in hs: counts[h["source"]] = counts.get(h["source"], 0) + 1
print(late, " ".join(f"{k}={v}" for k, v in sorted(counts.items())))' "$start" 2>&1)
    late=${got%% *}
    for source in "$@"; do [[ " ${got#* } " == *" $source="* ]] || missing+=("$source"); done
    if [ "$late" = 0 ] && [ ${#missing[@]} -eq 0 ]; then
        row "$fault" "list shows ${got#* }; none dated after the fetch" PASS
    else
        row "$fault" "$(clip "list: $got; missing: ${missing[*]:-none}; $(cat "$WORK/fetch.err")")" FAIL
    fi
}
feeds_row "40 items dated 2099 beside a good feed of 5" "$URL/future.rss;$URL/good.rss" good future
feeds_row "a feed of 33 items beside one of 10 (list of 40)" "$URL/busy.rss;$URL/slow.rss" busy slow

# --- 3: APITube's parameter errors --------------------------------------------------------------
for code in ER0250 ER0208; do
    conf=$WORK/$code.conf
    printf '[source]\nprovider = apitube\nbase-url = %s/%s\ntimeout = 5s\n' "$URL" "$code" >"$conf"
    fresh
    APITUBE_API_KEY=hostile-sources-key timeout 30 "$BIN" --config "$conf" fetch >/dev/null 2>"$WORK/err"
    said=$(cat "$WORK/err")
    if [[ $said == *"$code"* && $said == *"[source] settings"* && $said != *"API key"* && $said != *APITUBE_API_KEY* ]]; then
        row "APITube 400 $code (a parameter error)" "$(clip "$said")" PASS
    else
        row "APITube 400 $code (a parameter error)" "$(clip "advice about the key, or no code: $said")" FAIL
    fi
done

# --- 4: one bad title in an APITube page ------------------------------------------------------
for kind in utf8 surrogate; do
    conf=$WORK/$kind.conf
    printf '[source]\nprovider = apitube\nbase-url = %s/%s\ntimeout = 5s\n[notify]\nenabled = false\n' "$URL" "$kind" >"$conf"
    fresh
    APITUBE_API_KEY=hostile-sources-key timeout 30 "$BIN" --config "$conf" fetch >/dev/null 2>"$WORK/err"
    n=$(list_json "$conf" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))' 2>/dev/null)
    what=$([ "$kind" = utf8 ] && echo "an invalid UTF-8 byte" || echo "a lone \\ud83d escape")
    if [ "${n:-0}" -eq 2 ]; then
        row "one APITube title with $what" "the page kept both headlines" PASS
    else
        row "one APITube title with $what" "$(clip "list has ${n:-0} of 2 headlines: $(cat "$WORK/err")")" FAIL
    fi
done

# --- 5: ten 400 KB titles, rotate = 2s ------------------------------------------------------------
conf=$WORK/long.conf
printf '[source]\nprovider = feeds\nfeeds = %s/long.rss\ntimeout = 5s\n[notify]\nenabled = false\nkeywords = alpha, beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa, lambda, mu, nu, xi, omicron, pi, rho, sigma, tau, upsilon\n[bar]\nrotate = 2s\n' "$URL" >"$conf"
fresh
"$BIN" --config "$conf" run >"$WORK/host.log" 2>&1 &
HOST=$!
line=$WORK/runtime/headlines/bar/waybar
for _ in $(seq 100); do grep -q long "$line" 2>/dev/null && break; sleep 0.2; done
pid=$(pgrep -n -f "headlines-host.*$conf" || echo "$HOST")
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
if grep -q long "$line" 2>/dev/null && t0=$(ticks "$pid"); then
    sleep 10
    t1=$(ticks "$pid")
    used=$(( (t1 - t0) * 1000 / $(getconf CLK_TCK) ))
    if [ "$used" -le 500 ]; then
        row "ten 400 KB titles, rotate 2s, 20 keywords" "the idle host used $used ms of CPU in 10 s (5 rotations)" PASS
    else
        row "ten 400 KB titles, rotate 2s, 20 keywords" "the idle host used $used ms of CPU in 10 s" FAIL
    fi
else
    row "ten 400 KB titles, rotate 2s, 20 keywords" "$(clip "the bar never showed the feed: $(cat "$WORK/host.log")")" FAIL
fi
kill "$HOST" 2>/dev/null; wait "$HOST" 2>/dev/null; HOST=
