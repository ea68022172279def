#!/usr/bin/env bash
# Without a compositor: the real i3blocks (1.4, Debian's) with our block, whose host the session
# bus starts (as the installed service file makes it),
# three `headlines waybar` copies beside `headlines run` over ten reloads, take-over when the host
# dies, and the bar's lifecycle when its reader goes away. Real dunst on a private D-Bus session
# counts notifications; a fake browser records what a click opens.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh

suite_dir bars
session_start "$WORK/session"
export APITUBE_API_KEY=suite-key-bars-5512
# As a desktop session does: the host the bus starts gets the variables of the session.
dbus-update-activation-environment APITUBE_API_KEY || die "the bus did not take the key for the host it starts"
ARTICLES=$WORK/articles.json
python3 "$LIB/articles.py" "$ARTICLES" 6 "Shown story"
start_news_server "$WORK/requests.log" --articles "$ARTICLES"
# What a host the bus starts reads; each part of the suite puts its config there.
DEFAULT_CONF=$XDG_CONFIG_HOME/headlines/headlines.conf
mkdir -p "$(dirname "$DEFAULT_CONF")"
conf() { # interval
    news_config "$WORK/headlines.conf" '[refresh]' "interval = $1" 'daily-budget = 86400'
    cp "$WORK/headlines.conf" "$DEFAULT_CONF"
}
requests() { wc -l < "$WORK/requests.log"; }

echo "i3blocks 1.4 runs our block; a click opens the headline on display"
conf 1h
cat > "$WORK/i3blocks.conf" <<CONF
[headlines]
command=$BIN --config $WORK/headlines.conf i3blocks
interval=2
CONF
mkfifo "$WORK/clicks"
i3blocks -c "$WORK/i3blocks.conf" <"$WORK/clicks" >"$WORK/i3bar.out" 2>"$WORK/i3blocks.err" &
I3B=$!; PIDS+=($I3B)
exec {clickfd}>"$WORK/clicks"
wait_for "our full_text on i3bar" 15 grep -q '"full_text":"Shown story — extra.example.com"' "$WORK/i3bar.out" \
    || { tail -c 600 "$WORK/i3bar.out"; cat "$WORK/i3blocks.err"; die "i3blocks did not show the headline"; }
ok "i3bar output carries our full_text"
printf '[\n{"name":"headlines","instance":"","button":1,"x":10,"y":5}\n' >&"$clickfd"
wait_for "the fake browser" 10 test -s "$BROWSER_LOG" || die "the click opened nothing"
[ "$(cat "$BROWSER_LOG")" = "https://news.example.com/extra/shown-story" ] || die "the click opened '$(cat "$BROWSER_LOG")'"
ok "a click object on stdin opened exactly the headline on display"
n=$(requests); [ "$n" -eq 1 ] || die "the block made $n requests, expected 1 (the reload was due once)"
ok "one request: the host the block asked the bus for reloaded once"
exec {clickfd}>&-; kill "$I3B"; wait "$I3B" 2>/dev/null
stop_activated_hosts || die "the host the block started did not stop"

echo "i3blocks 1.4 with interval=persist: our line shows whole"
cat > "$WORK/i3blocks-persist.conf" <<CONF
[headlines]
command=$BIN --config $WORK/headlines.conf i3blocks --persist
interval=persist
CONF
i3blocks -c "$WORK/i3blocks-persist.conf" </dev/null >"$WORK/i3bar-persist.out" 2>"$WORK/i3blocks-persist.err" &
I3P=$!; PIDS+=($I3P)
wait_for "the persist block's full_text" 15 grep -q '"full_text":"Shown story — extra.example.com"' "$WORK/i3bar-persist.out" \
    || { tail -c 600 "$WORK/i3bar-persist.out"; cat "$WORK/i3blocks-persist.err"; die "the persist block did not show the headline"; }
# The host the block asked the bus for outlives the block: it is stopped before the next config.
wait_for "the host the persist block started" 10 activated_host_runs \
    || die "the persist block started no host"
kill -KILL "$I3P"; wait "$I3P" 2>/dev/null
stop_activated_hosts || die "the host the persist block started did not stop"
ok "a persist block shows the whole line"

echo "i3blocks with [bar] rotate = 2s and interval=60: a click opens the headline the block shows"
news_config "$WORK/rotate.conf" '[refresh]' 'interval = 1h' 'daily-budget = 500' '[bar]' 'rotate = 2s'
"$BIN" --config "$WORK/rotate.conf" run 2>"$WORK/rotate-host.log" & ROT_HOST=$!; PIDS+=($ROT_HOST)
wait_for "the rotating host" 10 grep -q "host started" "$WORK/rotate-host.log" || { cat "$WORK/rotate-host.log"; die "the rotating host did not start"; }
cat > "$WORK/i3blocks-rotate.conf" <<CONF
[headlines]
command=$BIN --config $WORK/rotate.conf i3blocks
interval=60
CONF
mkfifo "$WORK/rotate-clicks"
i3blocks -c "$WORK/i3blocks-rotate.conf" <"$WORK/rotate-clicks" >"$WORK/i3bar-rotate.out" 2>"$WORK/i3blocks-rotate.err" &
I3R=$!; PIDS+=($I3R)
exec {rotfd}>"$WORK/rotate-clicks"
shown_text() { tail -n 1 "$WORK/i3bar-rotate.out" | python3 -c '
import json, sys
print(next(b["full_text"] for b in json.loads(sys.stdin.read().lstrip(",")) if b.get("name") == "headlines"))' 2>/dev/null; }
wait_for "the block's first line" 15 bash -c "tail -n 1 '$WORK/i3bar-rotate.out' | grep -q '\"name\":\"headlines\"'" || die "the rotate block showed nothing"
shown=$(shown_text)
sleep 5  # the host turns twice meanwhile; the block, at interval=60, still shows its first line
host_now=$(gdbus call --session --dest org.headlines.Headlines --object-path /org/headlines/Headlines \
    --method org.headlines.Headlines1.GetEntry "" | sed "s/^([0-9]*, '\([^']*\)'.*/\1/")
case "$shown" in "$host_now"*) die "the host still shows '$host_now' after 5 s at rotate = 2s: nothing to tell apart";; esac
: >"$BROWSER_LOG"
printf '[\n{"name":"headlines","instance":"","button":1,"x":10,"y":5}\n' >&"$rotfd"
wait_for "the fake browser" 10 test -s "$BROWSER_LOG" || die "the click on the rotate block opened nothing"
want=$("$BIN" --config "$WORK/rotate.conf" list --json | python3 -c '
import json, sys
shown = sys.argv[1]
for h in json.load(sys.stdin):
    if shown.startswith(h["title"]): print(h["url"]); break' "$shown")
[ -n "$want" ] && [ "$(head -n 1 "$BROWSER_LOG")" = "$want" ] \
    || die "the block showed '$shown' ($want); the click opened '$(cat "$BROWSER_LOG")'"
ok "the block showed '$shown' for 5 s while the host turned to '$host_now'; the click opened the block's article ($want)"
exec {rotfd}>&-; kill "$I3R" "$ROT_HOST"; wait "$I3R" "$ROT_HOST" 2>/dev/null

echo "a typo in the config: both blocks say so in the error colour instead of vanishing"
printf '[source]\ntypo = 1\n' > "$WORK/typo.conf"
cp "$WORK/typo.conf" "$DEFAULT_CONF"
cat > "$WORK/i3blocks-typo.conf" <<CONF
[headlines]
command=$BIN --config $WORK/typo.conf i3blocks
interval=2
markup=pango

[headlines-persist]
command=$BIN --config $WORK/typo.conf i3blocks --persist
interval=persist
CONF
i3blocks -c "$WORK/i3blocks-typo.conf" </dev/null >"$WORK/i3bar-typo.out" 2>"$WORK/i3blocks-typo.err" &
I3T=$!; PIDS+=($I3T)
both_blocks_say_so() {
    tail -n 1 "$WORK/i3bar-typo.out" | python3 -c '
import json, sys
blocks = {b.get("name"): b for b in json.loads(sys.stdin.read().lstrip(","))}
text = "headlines: config error (see headlines status)"
ok = blocks["headlines"]["full_text"] == text and blocks["headlines"].get("color", "").upper() == "#BF616A" \
    and blocks["headlines-persist"]["full_text"] == text
sys.exit(0 if ok else 1)' 2>/dev/null
}
wait_for "the config error in both blocks" 15 both_blocks_say_so \
    || { tail -c 800 "$WORK/i3bar-typo.out"; cat "$WORK/i3blocks-typo.err"; die "a block vanished or did not name the config error"; }
grep -q "bad exit code" "$WORK/i3blocks-typo.err" && die "i3blocks logged: $(grep 'bad exit code' "$WORK/i3blocks-typo.err")"
sleep 3 # two more one-shot intervals: still there, no exit-code complaint
both_blocks_say_so || die "the blocks lost the config error line"
grep -q "bad exit code" "$WORK/i3blocks-typo.err" && die "i3blocks logged: $(grep 'bad exit code' "$WORK/i3blocks-typo.err")"
kill "$I3T"; wait "$I3T" 2>/dev/null
stop_activated_hosts || die "the host the typo blocks started did not stop"
ok "the one-shot block (exit 0, error colour) and the persist block both show 'headlines: config error (see headlines status)'"

echo "headlines menu: the launcher lists the headlines and the one picked opens"
cat > "$WORK/pick-second" <<'SH'
#!/bin/sh
# A stand-in dmenu: records the list it was given and picks the second line.
tee "$(dirname "$0")/menu-input.txt" | sed -n 2p
SH
chmod +x "$WORK/pick-second"
printf '[bar]\nlauncher = %s --ignored-flag\n' "$WORK/pick-second" >> "$WORK/headlines.conf"
cp "$WORK/headlines.conf" "$DEFAULT_CONF"
: >"$BROWSER_LOG"
"$BIN" --config "$WORK/headlines.conf" menu || die "menu failed"
grep -q "^1\. Shown story — extra.example.com" "$WORK/menu-input.txt" || die "the launcher got: $(head -n 2 "$WORK/menu-input.txt")"
# The host opens it (OpenHeadline), so the browser may start after `menu` has returned.
wait_for "the fake browser" 10 test -s "$BROWSER_LOG" || die "the menu's pick opened nothing"
[ "$(cat "$BROWSER_LOG")" = "https://news.example.com/story/6" ] || die "menu opened '$(cat "$BROWSER_LOG")'"
ok "the launcher got numbered lines; picking line 2 opened its article"
stop_activated_hosts || die "the host menu started did not stop"

echo "three waybar copies and one host over ten reloads at interval 2s, four new headlines: one request per reload"
conf 2s
rm -f "$XDG_CACHE_HOME/headlines/headlines.json" "$XDG_STATE_HOME/headlines/ledger.json"
: >"$WORK/requests.log"
"$BIN" --config "$WORK/headlines.conf" run 2>"$WORK/host.log" & HOST=$!; PIDS+=($HOST)
wait_for "the host" 10 grep -q "host started (pid $HOST)" "$WORK/host.log" || die "host did not start"
for i in 1 2 3; do
    "$BIN" --config "$WORK/headlines.conf" waybar >"$WORK/waybar$i.out" 2>"$WORK/waybar$i.log" &
    PIDS+=($!); eval "WB$i=$!"
done
python3 "$LIB/articles.py" "$ARTICLES" 6 "Shown story"
reloads() { cat "$WORK/host.log" "$WORK"/waybar*.log | grep -c "reload ok"; }
every_copy_shows() { local i; for i in 1 2 3; do tail -n 1 "$WORK/waybar$i.out" | grep -qF "\"text\":\"$1\"" || return 1; done; }
at_least_reloads() { [ "$(reloads)" -ge "$1" ]; }
# A new headline on the server once every copy shows the last one, four times.
for k in 1 2 3 4; do
    python3 "$LIB/articles.py" "$ARTICLES" 6 "Newer story $k" "Shown story"
    wait_for "every copy to show Newer story $k" 20 every_copy_shows "Newer story $k" \
        || die "after $(reloads) reloads not every copy shows Newer story $k: $(for i in 1 2 3; do tail -n 1 "$WORK/waybar$i.out"; done)"
done
# Right after a reload is logged the next request is an interval away, so the counts can be compared.
wait_for "ten reloads" 40 at_least_reloads 10 || die "only $(reloads) reloads in 40 s at 2s"
reloads=$(reloads)
n=$(requests)
[ "$n" -eq "$reloads" ] || die "$n requests for $reloads reloads"
ok "$reloads reloads and $n requests with four processes"
dups=$(python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log" | python3 -c 'import json,sys,collections; c=collections.Counter(json.loads(l)["summary"] for l in sys.stdin); print(sum(v-1 for v in c.values()))')
[ "$dups" -eq 0 ] || die "$dups notifications were posted twice"
ok "no notification posted twice ($(python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log" | wc -l) in all)"
every_copy_shows "Newer story 4" || die "not every copy shows the newest headline: $(for i in 1 2 3; do tail -n 1 "$WORK/waybar$i.out"; done)"
ok "every copy showed each new headline in turn, and shows the newest"

echo "killing the host: every copy says so; the next command starts a host that every copy follows"
kill -KILL "$HOST"
every_copy_says_stopped() { local i; for i in 1 2 3; do tail -n 1 "$WORK/waybar$i.out" | grep -qF "the host stopped" || return 1; done; }
wait_for "every copy to say the host stopped" 5 every_copy_says_stopped \
    || die "not every copy says the host stopped: $(for i in 1 2 3; do tail -n 1 "$WORK/waybar$i.out"; done)"
sleep 1
pgrep -f "^$HEADLINES_BIN/headlines-host" >/dev/null && die "a bar copy started a host itself"
ok "every copy says the host stopped, and none starts one itself"
before=$(requests)
python3 "$LIB/articles.py" "$ARTICLES" 6 "After restart" "Newer story 4"
"$BIN" --config "$WORK/headlines.conf" refresh >"$WORK/refresh.out" 2>&1 || die "refresh failed: $(cat "$WORK/refresh.out")"
wait_for "the new host to reload" 10 bash -c "[ \$(wc -l < '$WORK/requests.log') -gt $before ]" || die "the new host did not reload"
wait_for "every copy to follow the new host" 10 every_copy_shows "After restart" \
    || die "not every copy follows the new host: $(for i in 1 2 3; do tail -n 1 "$WORK/waybar$i.out"; done)"
ok "headlines refresh started a host on the session bus ($(head -c 120 "$WORK/refresh.out")); every copy shows its headline"

echo "closing the reading end of stdout ends headlines waybar within a second, status 0"
python3 - "$BIN" "$WORK/headlines.conf" <<'PY' || die "waybar did not end quietly when its reader went away"
import os, subprocess, sys, time
binary, conf = sys.argv[1], sys.argv[2]
r, w = os.pipe()
p = subprocess.Popen([binary, "--config", conf, "waybar"], stdout=w, stderr=subprocess.DEVNULL)
os.close(w)
first = os.read(r, 65536)               # the first line arrived: the bar is up
assert first.endswith(b"\n"), first
time.sleep(1)
os.close(r)                             # the reader goes away
t = time.time()
try:
    status = p.wait(timeout=3)
except subprocess.TimeoutExpired:
    p.kill(); print("still running 3 s after its stdout broke"); sys.exit(1)
took = time.time() - t
print(f"  exited with status {status} after {took:.2f} s")
sys.exit(0 if status == 0 and took <= 1.0 else 1)
PY
ok "ended within a second with status 0"

grep -rq "$APITUBE_API_KEY" "$WORK"/*.log "$WORK"/*.out "$XDG_CACHE_HOME" "$XDG_STATE_HOME" && die "the API key appeared in an output or a file"
ok "the API key appears in no output, log, cache or state file"
echo "bars: all checks passed"
# Bar copies and the hosts they or `headlines start` started (in their own sessions, with any of
# the suite's configs) still write into $WORK as they stop: stop them first.
pkill -TERM -f -- "--config $WORK/|^$HEADLINES_BIN/headlines-host --from-bar" 2>/dev/null || true
for _ in $(seq 50); do pgrep -f -- "--config $WORK/|^$HEADLINES_BIN/headlines-host --from-bar" >/dev/null || break; sleep 0.1; done
pkill -KILL -f -- "--config $WORK/|^$HEADLINES_BIN/headlines-host --from-bar" 2>/dev/null || true
