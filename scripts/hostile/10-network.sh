#!/usr/bin/env bash
# Hostile world, part 1: network faults. A loopback fault server (lib/fault_server.py)
# misbehaves one way per path. For each fault, `headlines fetch` must end non-zero with exactly one
# stderr sentence that never contains the key, and leave the cache as it was. Then a real host
# (`headlines run`, interval 2s) goes through good -> faults -> good: it keeps running and firing
# its timers, a `headlines waybar` copy shows the cached headlines as "stale", it backs off
# (doubling) and honours Retry-After, recovers, and its memory stays flat over 40 failed reloads.
# Last, lib/transport_rows.sh: byte caps against an endless body and a gzip bomb, the CPU of a hung
# wait, concurrent feeds, and redirects that would carry the key elsewhere or loop.
# Prints one `ROW<TAB>area<TAB>fault<TAB>outcome<TAB>PASS|FAIL` line per check (see scripts/hostile.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
HERE=scripts/hostile
AREA=network

row() { # fault outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 150 ] && printf '%s' "$s" || printf '%s…' "${s:0:149}"; }
now() { printf '%s' "$EPOCHREALTIME"; }

WORK=$(mktemp -d /tmp/headlines-hostile-net.XXXXXX)
PIDS=()
cleanup() {
    for pid in "${PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
# The host is asked to reload over its bus interface, as `headlines refresh` does.
. "$(dirname "$0")/../suites/lib/private_bus.sh"
private_bus_start "$WORK/bus" || { echo "dbus-daemon did not start" >&2; exit 1; }
PIDS+=("$BUS_PID")

# An isolated user: no notification server (a bus address that does not exist, no display).
setenv() { # DIR
    mkdir -p "$1"/{config/headlines,cache,state,runtime}
    chmod 700 "$1/runtime"
    export HOME=$1 XDG_CONFIG_HOME=$1/config XDG_CACHE_HOME=$1/cache XDG_STATE_HOME=$1/state XDG_RUNTIME_DIR=$1/runtime
}
unset DISPLAY WAYLAND_DISPLAY NEWSAPI_API_KEY
KEY=hostile-net-key-5c1e77a9
export APITUBE_API_KEY=$KEY

python3 scripts/suites/lib/articles.py "$WORK/articles.json" 5
echo ok >"$WORK/control"
exec {portfd}< <(exec python3 "$HERE/lib/fault_server.py" --log "$WORK/requests.log" \
    --articles "$WORK/articles.json" --control "$WORK/control")
PIDS+=($!)
read -r -t 10 PORT <&"$portfd" || { row "fault server" "the loopback fault server did not start" FAIL; exit 1; }
requests() { [ -f "$WORK/requests.log" ] && wc -l <"$WORK/requests.log" || echo 0; }

# ---- headlines fetch, one fault at a time --------------------------------------------------------
echo "== headlines fetch against each fault (timeout 3s)"
setenv "$WORK/fetch"
printf '[source]\ntimeout = 3s\n' >"$XDG_CONFIG_HOME/headlines/headlines.conf"
CACHE=$XDG_CACHE_HOME/headlines/headlines.json
if ! "$BIN" fetch --provider apitube --base-url "http://127.0.0.1:$PORT/ok" >"$WORK/prime.out" 2>"$WORK/prime.err" || [ ! -s "$CACHE" ]; then
    row "good server (baseline)" "the baseline fetch failed: $(clip "$(cat "$WORK/prime.err")")" FAIL
fi
cache_sum() { sha256sum "$CACHE" 2>/dev/null | cut -d' ' -f1; }
BEFORE=$(cache_sum)

# fetch_row FAULT EXPECTED-REGEX URL [WRAPPER...]: one fetch, judged.
fetch_row() {
    local fault=$1 expected=$2 url=$3; shift 3
    local out=$WORK/fetch.out err=$WORK/fetch.err start rc secs msg lines problems=()
    start=$(now)
    timeout 30 "$@" "$BIN" fetch --provider apitube --base-url "$url" >"$out" 2>"$err"
    rc=$?
    secs=$(awk -v a="$start" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
    msg=$(cat "$err"); lines=$(grep -c '' "$err")
    [ "$rc" -ne 0 ] || problems+=("exit 0")
    [ "$rc" -lt 124 ] || problems+=("exit $rc (killed, a signal or a hang)")
    [ "$lines" -eq 1 ] || problems+=("$lines stderr lines")
    [[ $msg == *. ]] || problems+=("the message does not end in '.'")
    grep -qF "$KEY" "$out" "$err" && problems+=("the KEY appears in the output")
    grep -qi "fatal error\|stack dump\|backtrace" "$err" && problems+=("crash text")
    grep -Eq -- "$expected" "$err" || problems+=("not the expected message (/$expected/)")
    [ "$(cache_sum)" = "$BEFORE" ] || problems+=("the cache changed")
    case $fault in never*|trickle*) awk -v s="$secs" 'BEGIN{exit !(s < 6)}' || problems+=("took ${secs}s with timeout 3s");; esac
    if [ ${#problems[@]} -eq 0 ]; then
        row "$fault" "exit $rc in ${secs}s, cache kept: $(clip "${msg#headlines: }")" PASS
    else
        local IFS=';'
        row "$fault" "${problems[*]} (exit $rc in ${secs}s: $(clip "${msg#headlines: }"))" FAIL
    fi
}

CLOSED=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
fetch_row "connection refused (closed port)" 'could not be reached \(connection refused\)' "http://127.0.0.1:$CLOSED"

# An unresolvable host. glibc sends even a .invalid name to the nameserver in resolv.conf (strace:
# connect to port 53), which would leave the machine; so the lookup runs in a private network
# namespace holding only loopback, where it fails at once and nothing can leave.
if unshare -n true 2>/dev/null; then
    fetch_row "unresolvable host (nonexistent.invalid, in a private network namespace)" 'could not be reached \(unknown host\)' \
        "https://nonexistent.invalid" unshare -n
else
    row "unresolvable host" "could not run: unshare -n (a private network namespace) is not permitted here, and a real DNS lookup would leave the machine" FAIL
fi
B=http://127.0.0.1:$PORT
fetch_row "never answers" 'did not answer within 3 s' "$B/never"
fetch_row "trickles a byte a second" 'did not answer within 3 s' "$B/trickle"
fetch_row "reset mid-body" 'could not be reached \(connection lost\)|connection (was )?reset|cut short' "$B/reset"
fetch_row "truncated body (Content-Length 1000 B larger)" '(cut short|truncated|incomplete|connection lost)' "$B/truncated"
fetch_row "5 MiB body, Content-Length given (cap 4 MiB)" 'sent more than 4096 KiB' "$B/huge"
fetch_row "5 MiB body, no Content-Length (cap 4 MiB)" 'sent more than 4096 KiB' "$B/huge-unframed"
fetch_row "HTML page under HTTP 200" 'not its API.s JSON \(an HTML page' "$B/html"
fetch_row "invalid JSON under HTTP 200" 'not its API.s JSON \(truncated or invalid JSON' "$B/badjson"
fetch_row "APITube not_ok body under HTTP 200" 'ER0183' "$B/notok200"
fetch_row "HTTP 401, server echoes the key" 'rejected the API key.*\[redacted\]' "$B/401"
fetch_row "HTTP 403" 'refused the request.*ER0601' "$B/403"
fetch_row "HTTP 429, Retry-After: 120" 'rate-limiting requests.*until [0-9T:-]+Z' "$B/429"
fetch_row "HTTP 500" 'server error \(HTTP 500\)' "$B/500"
fetch_row "HTTP 502 (nginx HTML page)" 'server error \(HTTP 502\)' "$B/502"
fetch_row "HTTP 503" 'server error \(HTTP 503\)' "$B/503"

# ---- the host through good -> faults -> good -------------------------------------------------------
echo "== headlines run through good -> 500, reset, HTML, never-answer -> good (interval 2s)"
setenv "$WORK/host"
CONF=$WORK/host.conf
cat >"$CONF" <<CONF
[source]
provider = apitube
base-url = http://127.0.0.1:$PORT/dyn
timeout = 3s
[refresh]
interval = 2s
daily-budget = 500
[bar]
rotate = 1s
CONF
echo ok >"$WORK/control"
# Each host line gets the time it arrived, so windows of time can be checked.
stamp() { while IFS= read -r line; do printf '%s %s\n' "$EPOCHREALTIME" "$line"; done; }
"$BIN" --config "$CONF" run --verbose 2> >(stamp >"$WORK/host.log") &
HOST=$!; PIDS+=($HOST)
log_count() { local n; n=$(grep -c -- "$1" "$WORK/host.log" 2>/dev/null); echo "${n:-0}"; }
wait_count() { # PATTERN ABOVE SECONDS: until PATTERN occurs more than ABOVE times
    local deadline=$(( $(date +%s) + $3 ))
    while [ "$(log_count "$1")" -le "$2" ]; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        kill -0 "$HOST" 2>/dev/null || return 1
        sleep 0.05
    done
}
bar_last() { tail -n 1 "$WORK/waybar.out" 2>/dev/null; }
bar_class() { bar_last | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); c=d["class"]; print(" ".join(c) if isinstance(c,list) else c)' 2>/dev/null; }
bar_text() { bar_last | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["text"])' 2>/dev/null; }
cached_titles() { "$BIN" --config "$CONF" list --json | python3 -c 'import json,sys; [print(h["title"]) for h in json.load(sys.stdin)]'; }

host_ok=1
if wait_count "reload ok" 0 10; then
    "$BIN" --config "$CONF" waybar >"$WORK/waybar.out" 2>"$WORK/waybar.log" &
    WAYBAR=$!; PIDS+=($WAYBAR)
    deadline=$(( $(date +%s) + 10 ))
    until [[ " $(bar_class) " == *" fresh "* ]] || [ "$(date +%s)" -ge "$deadline" ]; do sleep 0.1; done
else
    host_ok=0
fi
TITLES=$(cached_titles)

stale_ok=(); stale_bad=(); timer_note=""
for fault in 500 reset html never; do
    [ "$host_ok" -eq 1 ] || break
    failed=$(log_count "reload failed")
    switched=$(now); req_before=$(requests)
    echo "$fault" >"$WORK/control"
    if ! wait_count "reload failed" "$failed" 12; then
        stale_bad+=("$fault: no failed reload within 12 s"); continue
    fi
    failed_at=$(now)
    # The copy re-renders on the next publication or entry.
    deadline=$(( $(date +%s) + 5 ))
    until [[ " $(bar_class) " == *" stale "* ]] || [ "$(date +%s)" -ge "$deadline" ]; do sleep 0.1; done
    cls=$(bar_class); txt=$(bar_text)
    if [[ " $cls " == *" stale "* ]] && grep -qxF -- "$txt" <<<"$TITLES"; then
        stale_ok+=("$fault")
    else
        stale_bad+=("$fault: class '$cls', text '$txt'")
    fi
    if [ "$fault" = never ]; then
        # While the request hangs (3 s), the host's 1 s rotation timer must keep firing.
        during=$(awk -v a="$switched" -v b="$failed_at" '$1>=a && $1<=b && / entry /' "$WORK/host.log" | wc -l)
        hung_requests=$(( $(requests) - req_before ))
        timer_note="$during rotation entries logged and $hung_requests request(s) made during the $(awk -v a="$switched" -v b="$failed_at" 'BEGIN{printf "%.1f", b-a}') s hung reload"
        [ "$during" -ge 2 ] && [ "$hung_requests" -le 2 ] || host_ok=2
    fi
done
if [ "$host_ok" -eq 0 ]; then
    row "host: keeps running, timers fire through faults" "the host never logged 'reload ok' against the good server: $(clip "$(tail -n 3 "$WORK/host.log")")" FAIL
else
    if kill -0 "$HOST" 2>/dev/null && [ "$host_ok" -eq 1 ] && \
       "$BIN" --config "$CONF" status --json | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["host_running"] else 1)'; then
        row "host: keeps running, timers fire through faults" "alive after 500, reset, HTML and a hung server; $timer_note" PASS
    else
        row "host: keeps running, timers fire through faults" "alive: $(kill -0 "$HOST" 2>/dev/null && echo yes || echo NO); $timer_note" FAIL
    fi
    if [ ${#stale_bad[@]} -eq 0 ]; then
        row "host: bar shows cached headlines as stale" "a waybar copy kept a cached headline with class stale after each of: ${stale_ok[*]}" PASS
    else
        row "host: bar shows cached headlines as stale" "stale for: ${stale_ok[*]:-none}; not for: $(IFS=';'; echo "${stale_bad[*]}")" FAIL
    fi
fi

# Recovery: the server is good again.
if [ "$host_ok" -ne 0 ]; then
    okc=$(log_count "reload ok")
    echo ok >"$WORK/control"
    good_at=$(now)
    if wait_count "reload ok" "$okc" 12; then
        deadline=$(( $(date +%s) + 5 ))
        until [[ " $(bar_class) " == *" fresh "* ]] || [ "$(date +%s)" -ge "$deadline" ]; do sleep 0.1; done
        took=$(awk -v a="$good_at" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
        if [[ " $(bar_class) " == *" fresh "* ]]; then
            row "host: recovers when the server does" "'reload ok' and the bar back to class fresh ${took} s after the server recovered" PASS
        else
            row "host: recovers when the server does" "'reload ok' but the bar's class is '$(bar_class)'" FAIL
        fi
    else
        row "host: recovers when the server does" "no 'reload ok' within 12 s of the server recovering" FAIL
    fi
fi

# delay: seconds from the last reload to the next one the host plans, from `status --json`.
delay() {
    "$BIN" --config "$1" status --json | python3 -c '
import json, sys
from datetime import datetime
d = json.load(sys.stdin)
p = lambda s: datetime.fromisoformat(s.replace("Z", "+00:00"))
print(round((p(d["next_reload"]) - p(d["last_reload"])).total_seconds()))' 2>/dev/null
}
# Memory: VmRSS before and after 40 failed reloads (Reload on the bus asks for each one at once).
rss() { awk '/^VmRSS/{print $2}' "/proc/$HOST/status" 2>/dev/null || echo 0; }
fail_reloads() { # N
    local faults=(500 reset html badjson) i
    for ((i = 0; i < $1; i++)); do
        echo "${faults[i % 4]}" >"$WORK/control"
        local f; f=$(log_count "reload failed")
        reload_host || return 1
        wait_count "reload failed" "$f" 8 || return 1
    done
}
if [ "$host_ok" -ne 0 ] && kill -0 "$HOST" 2>/dev/null; then
    if fail_reloads 10; then
        r0=$(rss); f0=$(log_count "reload failed")
        if fail_reloads 40; then
            r1=$(rss); n=$(( $(log_count "reload failed") - f0 ))
            growth=$(( r1 - r0 ))
            if [ "$growth" -lt 5120 ] && [ "$n" -ge 40 ]; then
                row "host: memory stays bounded" "VmRSS $((r0 / 1024)) MB -> $((r1 / 1024)) MB ($growth kB) over $n failed reloads (500, reset, HTML, bad JSON)" PASS
            else
                row "host: memory stays bounded" "VmRSS grew $growth kB ($r0 -> $r1 kB) over $n failed reloads (limit 5120 kB)" FAIL
            fi
        else
            row "host: memory stays bounded" "could not drive 40 failed reloads: $(clip "$(tail -n 2 "$WORK/host.log")")" FAIL
        fi
    else
        row "host: memory stays bounded" "could not drive the warm-up reloads: $(clip "$(tail -n 2 "$WORK/host.log")")" FAIL
    fi
fi
# Retry-After: with interval 2s, a 429 saying "Retry-After: 120" must push the next reload 2 minutes out.
if [ "$host_ok" -ne 0 ] && kill -0 "$HOST" 2>/dev/null; then
    f=$(log_count "rate-limiting")
    echo 429 >"$WORK/control"
    reload_host
    if wait_count "rate-limiting" "$f" 8; then
        sleep 0.5
        d=$(delay "$CONF"); before=$(requests); deferred=$(log_count "deferred until")
        reload_host
        sleep 3
        extra=$(( $(requests) - before ))
        if [[ $d =~ ^[0-9]+$ ]] && [ "$d" -ge 119 ] && [ "$d" -le 125 ] && [ "$extra" -eq 0 ] && [ "$(log_count "deferred until")" -gt "$deferred" ]; then
            row "host: honours 429 Retry-After: 120" "next reload planned ${d} s after the 429 (interval 2s); a refresh right after was deferred; no request in the next 3 s" PASS
        else
            row "host: honours 429 Retry-After: 120" "next reload planned ${d:-?} s after the 429 (expected 120), $extra request(s) in the 3 s after a refresh inside Retry-After" FAIL
        fi
    else
        row "host: honours 429 Retry-After: 120" "the host logged no 429 failure: $(clip "$(tail -n 2 "$WORK/host.log")")" FAIL
    fi
fi
[ -n "${WAYBAR:-}" ] && kill "$WAYBAR" 2>/dev/null && wait "$WAYBAR" 2>/dev/null
kill "$HOST" 2>/dev/null; wait "$HOST" 2>/dev/null
if grep -qF "$KEY" "$WORK/host.log" "$WORK/waybar.out" "$WORK/waybar.log" 2>/dev/null; then
    row "host: key never logged" "the key appears in the host's log or the bar's output" FAIL
fi

# ---- back-off and Retry-After: a host whose server fails from the start -----------------------------
echo "== back-off (interval 10m)"
setenv "$WORK/backoff"
CONF2=$WORK/backoff.conf
cat >"$CONF2" <<CONF
[source]
provider = apitube
base-url = http://127.0.0.1:$PORT/dyn
timeout = 3s
[refresh]
interval = 10m
daily-budget = 500
CONF
echo 500 >"$WORK/control"
: >"$WORK/host.log"
"$BIN" --config "$CONF2" run 2> >(stamp >"$WORK/host.log") &
HOST=$!; PIDS+=($HOST)
delays=(); backoff_ok=1
for k in 1 2 3 4; do
    f=$(log_count "next reload at")
    [ "$k" -eq 1 ] || reload_host
    wait_count "next reload at" "$f" 8 || { backoff_ok=0; break; }
    delays+=("$(delay "$CONF2")")
done
expect=(60 120 240 480)
if [ "$backoff_ok" -eq 1 ] && [ ${#delays[@]} -eq 4 ]; then
    for k in 0 1 2 3; do
        d=${delays[k]:-x}
        [[ $d =~ ^[0-9]+$ ]] && [ "$d" -ge "${expect[k]}" ] && [ "$d" -le $(( expect[k] + 5 )) ] || backoff_ok=0
    done
fi
if [ "$backoff_ok" -eq 1 ]; then
    row "host: backs off after repeated failures" "next reload after 4 straight failures: ${delays[*]} s (doubling from a minute, capped at the 10m interval)" PASS
else
    row "host: backs off after repeated failures" "planned delays after failures: ${delays[*]:-none} s, expected about ${expect[*]}" FAIL
fi

kill -0 "$HOST" 2>/dev/null || row "host: alive after back-off" "the back-off host died: $(clip "$(tail -n 2 "$WORK/host.log")")" FAIL
kill "$HOST" 2>/dev/null; wait "$HOST" 2>/dev/null

# ---- the transport itself ------------------------------------------------------------------
# shellcheck source=lib/transport_rows.sh
. "$HERE/lib/transport_rows.sh"
exit 0
