#!/usr/bin/env bash
# Hostile world, part 6: security. In a private desktop session (scripts/suites/lib/
# session.sh: D-Bus, Xvfb, dunst, a fake browser that here also dumps its environment), a host, a
# waybar copy and one-shot commands run with APITUBE_API_KEY set and umask 000, against a loopback
# server (lib/fault_server.py) whose articles carry javascript:, file:, data: and shell-injection links.
# Checks: the key is in no process's argv, no launched browser's environment, no log line, message,
# output, cache/state/runtime file or notification, and only in the X-API-Key header of requests
# (never a URL); a key-bearing request over plain http to a non-loopback host is refused before any
# connection; files are 0600 in 0700 folders even under umask 000; only http(s) links reach the
# browser, as one argument (no shell), and `headlines open` refuses the others.
# One ROW per check (see scripts/hostile.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
HERE=scripts/hostile
AREA=security
. scripts/suites/lib/session.sh

row() { # check outcome PASS|FAIL
    local outcome=${2//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$AREA" "$1" "$outcome" "$3"
}
clip() { local s=$1; [ ${#s} -le 150 ] && printf '%s' "$s" || printf '%s…' "${s:0:149}"; }

WORK=$(mktemp -d /tmp/headlines-hostile-sec.XXXXXX)
EXTRA_PIDS=()
cleanup() {
    for pid in "${EXTRA_PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
    session_stop
    rm -rf "$WORK"
}
session_start "$WORK/session"
trap cleanup EXIT
# reload_host: the host's Reload on the session's bus, as `headlines refresh` asks it.
. "$(dirname "$0")/../suites/lib/private_bus.sh"
OUT=$WORK/out; mkdir -p "$OUT"

# The fake browser dumps its environment (one file a launch, complete once it has its name), then
# records its argv (one line per URL): once a URL is recorded, that launch's environment is there.
cat >"$SESSION_DIR/fake-browser" <<SH
#!/bin/sh
env > "$WORK/.browser-env.\$\$" && mv "$WORK/.browser-env.\$\$" "$WORK/browser-env.\$\$"
printf '%s\n' "\$1" >> "$BROWSER_LOG"
SH
chmod +x "$SESSION_DIR/fake-browser"

KEY=hostile-sec-key-9f3a61c0d2
export APITUBE_API_KEY=$KEY
MARKER=$WORK/pwned
INJECT="https://news.example.com/story;touch\$IFS$MARKER;x"

# Articles: four numbered ones plus, newest first, a javascript:, a file:, a data: and a
# shell-injection link (the last is a valid https URL; a shell would run its `touch`).
python3 scripts/suites/lib/articles.py "$WORK/articles.json" 4 "Script link" "File link" "Data link" "Shell link"
python3 - "$WORK/articles.json" "$INJECT" <<'PY'
import json, sys
path, inject = sys.argv[1], sys.argv[2]
items = json.load(open(path))
links = {"Script link": "javascript:alert(document.cookie)", "File link": "file:///etc/passwd",
         "Data link": "data:text/html,<script>alert(1)</script>", "Shell link": inject}
for a in items:
    if a["title"] in links:
        a["href"] = links[a["title"]]
json.dump(items, open(path, "w"))
PY
echo ok >"$WORK/control"
exec {portfd}< <(exec python3 "$HERE/lib/fault_server.py" --log "$WORK/requests.log" \
    --articles "$WORK/articles.json" --control "$WORK/control")
EXTRA_PIDS+=($!)
read -r -t 10 PORT <&"$portfd" || { row "fault server" "the loopback server did not start" FAIL; exit 1; }

CONF=$XDG_CONFIG_HOME/headlines/headlines.conf
mkdir -p "$(dirname "$CONF")"
cat >"$CONF" <<CONF
[source]
provider = apitube
base-url = http://127.0.0.1:$PORT/dyn
timeout = 3s
[refresh]
interval = 2s
daily-budget = 86400
CONF

# Every headlines process runs under umask 000: modes must come from the program, not the umask.
hl() { (umask 000; exec "$BIN" "$@"); }

# ---- a host, a bar copy and a slow fetch; argv of every process --------------------------------------
"$BIN" --version >/dev/null || { row "binary" "$BIN does not run" FAIL; exit 1; }
(umask 000; exec "$BIN" run) 2>"$OUT/host.log" &
HOST=$!; EXTRA_PIDS+=($HOST)
wait_for "the host's first reload" 15 grep -q "reload ok" "$OUT/host.log" || {
    row "host" "the host did not reload: $(clip "$(cat "$OUT/host.log")")" FAIL; exit 1; }
(umask 000; exec "$BIN" waybar) >"$OUT/waybar.out" 2>"$OUT/waybar.log" &
WAYBAR=$!; EXTRA_PIDS+=($WAYBAR)
# A fetch that hangs for its 3 s timeout, so that it is alive while argv is read.
(umask 000; exec "$BIN" fetch --base-url "http://127.0.0.1:$PORT/never") >"$OUT/slow-fetch.out" 2>"$OUT/slow-fetch.err" &
SLOW=$!; EXTRA_PIDS+=($SLOW)
sleep 0.5
seen_pids=(); seen_cmds=(); argv_hits=()
for _ in $(seq 10); do
    for f in /proc/[0-9]*/cmdline; do
        pid=${f#/proc/}; pid=${pid%/cmdline}
        cmd=$(tr '\0' ' ' 2>/dev/null <"$f") || continue
        case $cmd in *"$KEY"*) argv_hits+=("$pid: $(clip "$cmd")");; esac
        # `run` becomes headlines-host, `waybar` headlines-bar and `fetch` headlines-fetch
        # (execve: the same process, the same arguments).
        case $cmd in "$BIN "*|"$BIN-host "*|"$BIN-bar "*|"$BIN-fetch "*)
            [[ " ${seen_pids[*]:-} " == *" $pid "* ]] || seen_pids+=("$pid")
            prog=${cmd%% *}; sub=${cmd#"$prog "}; sub=${sub%% *}; [ "$sub" != --base-url ] || sub=fetch
            case $prog in *-host) sub=host;; *-bar) sub="bar-$sub";; *-fetch) sub="fetch-$sub";; esac
            [[ " ${seen_cmds[*]:-} " == *" $sub "* ]] || seen_cmds+=("$sub");;
        esac
    done
    hl status >>"$OUT/status.out" 2>>"$OUT/status.err" &
    sleep 0.15
done
wait "$SLOW" 2>/dev/null
if [ ${#argv_hits[@]} -gt 0 ]; then
    row "key not in any process's argv" "found in: ${argv_hits[*]}" FAIL
elif [ ${#seen_pids[@]} -lt 3 ]; then
    row "key not in any process's argv" "only ${#seen_pids[@]} headlines process(es) were seen while scanning; expected run, waybar and fetch" FAIL
else
    row "key not in any process's argv" "absent from /proc/*/cmdline of every process in 10 scans; ${#seen_pids[@]} headlines processes seen ($(IFS=,; echo "${seen_cmds[*]}"))" PASS
fi

# ---- browsers: launched by the host (notification click) and by `headlines open` ----------------------
browser_env_row() { # CHECK DESCRIPTION
    local envs; envs=$(ls "$WORK"/browser-env.* 2>/dev/null)
    if [ -z "$envs" ]; then
        row "$1" "no browser was launched ($2), so its environment could not be checked" FAIL
    elif grep -l -- "$KEY" $envs >/dev/null 2>&1; then
        row "$1" "the browser launched by $2 has $(grep -h -- "$KEY" $envs | head -n 1 | sed "s/$KEY/<the key>/") in its environment" FAIL
    else
        row "$1" "the browser launched by $2 got no API key in its environment" PASS
    fi
    rm -f "$WORK"/browser-env.*
}
: >"$BROWSER_LOG"
wait_for "a notification" 10 bash -c "[ \$(grep -c 'member=Notify' '$SESSION_DIR/monitor.log') -ge 1 ]" || true
# dunst acts on what it displays: a Notify call on the bus may not be on screen yet.
displayed() { [ "$(dunstctl count displayed 2>/dev/null || echo 0)" -ge 1 ]; }
wait_for "dunst to display it" 10 displayed || true
dunstctl action 0
wait_for "the browser" 8 test -s "$BROWSER_LOG" || true
browser_env_row "key not in a browser's environment (host, notification click)" "the host (dunstctl action 0 on its notification)"
clicked=$(cat "$BROWSER_LOG")
"$BIN" list --json >"$OUT/list.json" 2>"$OUT/list.err"
: >"$BROWSER_LOG"
hl open 1 >"$OUT/open1.out" 2>"$OUT/open1.err"
wait_for "the browser" 8 test -s "$BROWSER_LOG" || true
browser_env_row "key not in a browser's environment (headlines open)" "\`headlines open 1\` run with APITUBE_API_KEY set"
opened=$(cat "$BROWSER_LOG")

# ---- links: only http(s), one argument, never a shell -------------------------------------------------
problems=()
listed=$(python3 -c 'import json,sys; print("\n".join(h["url"] for h in json.load(open(sys.argv[1]))))' "$OUT/list.json" 2>/dev/null)
[ -n "$listed" ] || problems+=("list --json gave no headlines")
bad=$(grep -Ev '^https?://' <<<"$listed" | grep -c .)
[ "$bad" -eq 0 ] || problems+=("$bad non-http(s) link(s) kept in the list: $(grep -Ev '^https?://' <<<"$listed" | head -n 1)")
grep -q 'touch' <<<"$listed" || problems+=("the https shell-injection link was dropped from the list (expected kept: it is a valid https URL)")
for u in "$clicked" "$opened"; do
    [ -z "$u" ] || grep -Eq '^https?://' <<<"$u" || problems+=("the browser got '$u'")
done
[ "$clicked" = "$INJECT" ] || problems+=("the notification click opened '$(clip "$clicked")', expected the newest http(s) headline verbatim")
[ "$opened" = "$INJECT" ] || problems+=("open 1 sent '$(clip "$opened")' to the browser, expected the link verbatim as one argument")
[ ! -e "$MARKER" ] || problems+=("the shell-injection link ran a command (marker file created)")
grep -Eq 'javascript:|file:///|data:text' "$SESSION_DIR/monitor.log" && problems+=("a notification carries a non-http(s) link")
if [ ${#problems[@]} -eq 0 ]; then
    row "only http(s) links launched, never through a shell" "javascript:, file: and data: links dropped from the list and notifications; the https link with ;touch\$IFS…; reached the browser verbatim as one argument and ran nothing" PASS
else
    row "only http(s) links launched, never through a shell" "$(IFS=';'; echo "${problems[*]}")" FAIL
fi

# ---- the refusal over plain http, before any connection ------------------------------------------------
# In a private network namespace (nothing can leave) and under strace (required), with every
# connect() recorded: a refusal before any connection makes no connect and no DNS lookup at all.
problems=(); evidence="in a private network namespace"
command -v strace >/dev/null || problems+=("strace is missing, so no connect() could be checked: run scripts/install-deps.sh")
for provider in apitube newsapi guardian nyt gnews; do
    tracer=()
    tracer=(strace -f -qq -e trace=connect,sendto,sendmsg -o "$OUT/strace-$provider.txt")
    env NEWSAPI_API_KEY="$KEY" GUARDIAN_API_KEY="$KEY" NYT_API_KEY="$KEY" GNEWS_API_KEY="$KEY" unshare -n "${tracer[@]}" "$BIN" fetch --provider "$provider" --base-url "http://example.invalid" \
        >"$OUT/plain-$provider.out" 2>"$OUT/plain-$provider.err"
    rc=$?
    msg=$(cat "$OUT/plain-$provider.err")
    [ "$rc" -eq 1 ] || problems+=("$provider: exit $rc")
    [ "$(grep -c '' "$OUT/plain-$provider.err")" -eq 1 ] || problems+=("$provider: not one line: $(clip "$msg")")
    grep -q "Refusing to send the .* API key over plain http to example.invalid" "$OUT/plain-$provider.err" || problems+=("$provider: $(clip "$msg")")
    if [ ${#tracer[@]} -gt 0 ]; then
        evidence="in a private network namespace, strace showing no connect()"
        grep -E 'connect\(|sendto\(|sendmsg\(' "$OUT/strace-$provider.txt" | grep -Eq 'AF_INET|AF_INET6|nscd|:53' \
            && problems+=("$provider: a connection or lookup was attempted: $(clip "$(grep -E 'AF_INET|nscd' "$OUT/strace-$provider.txt" | head -n 1)")")
    fi
done
if [ "$(unshare -n true 2>&1; echo $?)" != 0 ]; then
    row "key refused over plain http to a non-loopback host" "could not run: unshare -n (a private network namespace) is not permitted here" FAIL
elif [ ${#problems[@]} -eq 0 ]; then
    row "key refused over plain http to a non-loopback host" "APITube, NewsAPI, Guardian, NYT and GNews fetches of http://example.invalid exit 1 with 'Refusing to send the … API key over plain http …' $evidence" PASS
else
    row "key refused over plain http to a non-loopback host" "$(IFS=';'; echo "${problems[*]}")" FAIL
fi

# ---- an error message echoing the key -------------------------------------------------------------------
hl fetch --base-url "http://127.0.0.1:$PORT/401" >"$OUT/fetch401.out" 2>"$OUT/fetch401.err"
hl refresh >"$OUT/refresh.out" 2>"$OUT/refresh.err"
echo 401 >"$WORK/control"
f=$(grep -c "reload failed" "$OUT/host.log")
reload_host
wait_for "the host's 401" 8 bash -c "[ \$(grep -c 'reload failed' '$OUT/host.log') -gt $f ]" || true
echo ok >"$WORK/control"
sleep 0.5
hl status --json >"$OUT/status.json" 2>>"$OUT/status.err"

# ---- file modes under umask 000 ---------------------------------------------------------------------------
kill "$WAYBAR" 2>/dev/null; wait "$WAYBAR" 2>/dev/null
kill "$HOST" 2>/dev/null; wait "$HOST" 2>/dev/null
modes=$(find "$XDG_CACHE_HOME/headlines" "$XDG_STATE_HOME/headlines" "$XDG_RUNTIME_DIR/headlines" \
    \( -type f -a ! -perm 600 -printf 'file %m %p\n' \) -o \( -type d -a ! -perm 700 -printf 'folder %m %p\n' \) 2>&1)
count=$(find "$XDG_CACHE_HOME/headlines" "$XDG_STATE_HOME/headlines" "$XDG_RUNTIME_DIR/headlines" -type f 2>/dev/null | wc -l)
dirs=$(find "$XDG_CACHE_HOME/headlines" "$XDG_STATE_HOME/headlines" "$XDG_RUNTIME_DIR/headlines" -type d 2>/dev/null | wc -l)
if [ -n "$modes" ]; then
    row "files 0600 in 0700 folders (umask 000)" "$(clip "$(echo "$modes" | sed "s|$SESSION_DIR/||g" | tr '\n' ';')")" FAIL
elif [ "$count" -lt 5 ]; then
    row "files 0600 in 0700 folders (umask 000)" "only $count files were created; expected cache, status, ledger, seen, host.lock, timeline" FAIL
else
    row "files 0600 in 0700 folders (umask 000)" "all $count files 0600 and $dirs folders 0700 under cache, state and runtime after a host, a bar and CLI runs under umask 000" PASS
fi

# ---- the key in no log, message, output, file or notification; only in the header ------------------------
hits=$(grep -rlF -- "$KEY" "$OUT" "$XDG_CACHE_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR" "$XDG_CONFIG_HOME" \
    "$SESSION_DIR/monitor.log" "$SESSION_DIR/dunst.log" "$BROWSER_LOG" 2>/dev/null | sed "s|$WORK/||")
redacted=$(grep -c '\[redacted\]' "$OUT/fetch401.err" "$OUT/host.log" | awk -F: '{s+=$2} END{print s+0}')
logs=$(cat "$OUT"/*.log "$OUT"/*.err | grep -c '')
if [ -n "$hits" ]; then
    row "key not in a log line, message, output or file" "found in: $(echo $hits)" FAIL
elif [ "$redacted" -lt 2 ]; then
    row "key not in a log line, message, output or file" "the server's 401 echoing the key was not seen redacted in both fetch and host ($redacted)" FAIL
else
    row "key not in a log line, message, output or file" "absent from $logs log/stderr lines, every stdout, cache/state/runtime/config file and the recorded notifications; a 401 echoing it shows [redacted]" PASS
fi
header=$(python3 - "$WORK/requests.log" "$KEY" <<'PY'
import json, sys
path, key = sys.argv[1], sys.argv[2]
n = bad = 0; why = []
for line in open(path):
    r = json.loads(line); n += 1
    if key in r["target"]:
        bad += 1; why.append("in the URL " + r["target"][:60])
    for name, value in r["headers"].items():
        if key in value and name.lower() != "x-api-key":
            bad += 1; why.append("in header " + name)
    if {k.lower(): v for k, v in r["headers"].items()}.get("x-api-key") != key:
        bad += 1; why.append("X-API-Key missing on " + r["target"][:40])
print(f"{n} {bad} {'; '.join(why[:3])}")
PY
)
read -r n bad why <<<"$header"
if [ "${n:-0}" -ge 5 ] && [ "${bad:-1}" -eq 0 ]; then
    row "key only in the X-API-Key header, never a URL" "all $n requests the server received carry it in X-API-Key and nowhere else (URL, other headers)" PASS
else
    row "key only in the X-API-Key header, never a URL" "${n:-0} requests, $bad problem(s): ${why:-}" FAIL
fi

# ---- a tampered cache's other schemes never reach the browser ---------------------------------------------
CACHE=$XDG_CACHE_HOME/headlines/headlines.json
python3 - "$CACHE" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["headlines"][0]["url"] = "javascript:alert(document.cookie)"
c["headlines"][1]["url"] = "file:///etc/passwd"
json.dump(c, open(sys.argv[1], "w"))
PY
: >"$BROWSER_LOG"
problems=()
# Read back, the cache holds neither: what `list` numbers, and so what `open N` opens, is http(s).
listed=$(hl list --json | python3 -c 'import json, sys; print(" ".join(h["url"] for h in json.load(sys.stdin)))')
case "$listed" in *javascript:*|*file:*) problems+=("list shows: $(clip "$listed")");; esac
for n in 1 2; do
    hl open "$n" >"$OUT/open-bad$n.out" 2>"$OUT/open-bad$n.err"; rc=$?
    [ "$rc" -eq 0 ] || problems+=("open $n exited $rc: $(clip "$(cat "$OUT/open-bad$n.err")")")
done
sleep 0.5
grep -q "^https\?://" "$BROWSER_LOG" || problems+=("the browser got nothing")
grep -v "^https\?://" "$BROWSER_LOG" | grep -q . && problems+=("the browser got: $(grep -v "^https\?://" "$BROWSER_LOG" | head -n 1)")
if [ ${#problems[@]} -eq 0 ]; then
    row "a tampered cache's javascript: and file: links never reach the browser" "dropped where the cache is read: list and open N see http(s) links only; the browser got $(wc -l < "$BROWSER_LOG") http(s) link(s)" PASS
else
    row "a tampered cache's javascript: and file: links never reach the browser" "$(IFS=';'; echo "${problems[*]}")" FAIL
fi
exit 0
