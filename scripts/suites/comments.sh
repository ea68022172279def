#!/usr/bin/env bash
# A Hacker News headline under real dunst offers a "Comments" action, and picking it in dunst's
# context menu opens the discussion page: a private D-Bus session, Xvfb, dunst (its dmenu a
# stand-in that picks the Comments line), a loopback Algolia answering from Fixtures/ and a fake
# browser. Prints one line per check; exits non-zero on the first failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh

suite_dir comments
session_start "$WORK/session"

# dunst's context menu runs its dmenu with one line per action; this one records them and picks
# the Comments line.
cat > "$WORK/pick-comments" <<SH
#!/bin/sh
tee "$WORK/menu.txt" | grep -m 1 'Comments'
SH
chmod +x "$WORK/pick-comments"
dunst_stop
printf '    dmenu = %s\n' "$WORK/pick-comments" >> "$SESSION_DIR/dunstrc"
dunst_start

# Algolia's front page, served as a static file at the path the provider asks for.
mkdir -p "$WORK/www/api/v1"
cp Fixtures/hackernews/front-page.json "$WORK/www/api/v1/search"
start_news_server "$WORK/requests.log" --root "$WORK/www"

news_config "$WORK/headlines.conf" 'provider = hackernews' '[refresh]' 'interval = 1h'
HOST_LOG=$WORK/host.log
"$BIN" --config "$WORK/headlines.conf" run >>"$HOST_LOG" 2>&1 &
HOST_PID=$!
PIDS+=("$HOST_PID")

echo "the newest Hacker News story is notified with Open, Comments and Mute source"
calls() { python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log"; }
wait_for "the Notify call" 20 eval 'calls | grep -q GPU' \
    || { tail -n 20 "$HOST_LOG"; die "no notification for the Hacker News story"; }
calls | grep GPU | tail -n 1 | python3 -c '
import json, sys
c = json.loads(sys.stdin.readline())
assert c["summary"] == "Writing a GPU driver in Rust, one year later", c["summary"]
assert c["actions"] == ["default", "Open", "comments", "Comments", "mute", "Mute source"], c["actions"]
' || die "the notification's actions are not Open, Comments, Mute source"
ok "actions: default/Open, comments/Comments, mute/Mute source"

echo "picking Comments in dunst's context menu opens the discussion"
dunstctl context
wait_for "the fake browser" 10 test -s "$BROWSER_LOG" || { cat "$WORK/menu.txt" 2>/dev/null; die "no URL reached the browser"; }
grep -q Comments "$WORK/menu.txt" || die "dunst's menu had no Comments line: $(cat "$WORK/menu.txt")"
url=$(cat "$BROWSER_LOG")
[ "$url" = "https://news.ycombinator.com/item?id=46101234" ] || die "browser opened '$url', expected https://news.ycombinator.com/item?id=46101234"
ok "browser opened exactly $url"

echo "headlines open --comments opens the discussion of the headline the host has on display"
: >"$BROWSER_LOG"
"$BIN" --config "$WORK/headlines.conf" next || die "headlines next failed"
"$BIN" --config "$WORK/headlines.conf" open --comments || die "open --comments failed"
wait_for "the fake browser" 10 test -s "$BROWSER_LOG" || die "no URL reached the browser"
url=$(cat "$BROWSER_LOG")
shown=$(gdbus call --session --dest org.headlines.Headlines --object-path /org/headlines/Headlines \
    --method org.headlines.Headlines1.GetEntry "" | sed -n "s/.*'\(https[^']*\)')$/\1/p")
[ "$shown" = "https://sqlite.org/queryplanner-ng.html?from=hn&ref=front" ] || die "after next the host shows '$shown', expected the second story"
[ "$url" = "https://news.ycombinator.com/item?id=46099876" ] || die "open --comments opened '$url', expected https://news.ycombinator.com/item?id=46099876"
ok "open --comments opened $url, the discussion of the story on display"
