#!/usr/bin/env bash
# A Hacker News headline under real dunst offers a "Comments" action, and picking it in dunst's
# context menu opens the discussion page: a private D-Bus session, Xvfb, dunst (its dmenu a
# stand-in that picks the Comments line), a loopback Algolia answering from Fixtures/ and a fake
# browser. Prints one line per check; exits non-zero on the first failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
LIB=scripts/suites/lib
. "$LIB/session.sh"

WORK=$(mktemp -d /tmp/headlines-comments.XXXXXX)
session_start "$WORK/session"
EXTRA_PIDS=()
ok() { echo "  ok: $*"; }

# dunst's context menu runs its dmenu with one line per action; this one records them and picks
# the Comments line.
cat > "$WORK/pick-comments" <<SH
#!/bin/sh
tee "$WORK/menu.txt" | grep -m 1 'Comments'
SH
chmod +x "$WORK/pick-comments"
dunst_stop
cat >> "$SESSION_DIR/dunstrc" <<CONF
    dmenu = $WORK/pick-comments
CONF
dunst_start

# Algolia's front page, served as a static file at the path the provider asks for.
mkdir -p "$WORK/www/api/v1"
cp Fixtures/hackernews/front-page.json "$WORK/www/api/v1/search"
exec {WWW_FD}< <(cd "$WORK/www" && exec python3 -u -c '
import http.server, socketserver, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
with socketserver.TCPServer(("127.0.0.1", 0), Quiet) as s:
    print(s.server_address[1], flush=True); s.serve_forever()')
read -r -t 10 PORT <&"$WWW_FD" || die "the loopback Algolia did not start"
EXTRA_PIDS+=($(pgrep -f "print\(s.server_address" | head -n 1))

cat > "$WORK/headlines.conf" <<CONF
[source]
provider = hackernews
base-url = http://127.0.0.1:$PORT
[refresh]
interval = 1h
CONF
HOST_LOG=$WORK/host.log
"$BIN" --config "$WORK/headlines.conf" run >>"$HOST_LOG" 2>&1 &
HOST_PID=$!
EXTRA_PIDS+=("$HOST_PID")
trap 'kill "${EXTRA_PIDS[@]}" 2>/dev/null; session_stop' EXIT

echo "the newest Hacker News story is notified with Open, Comments and Mute source"
calls() { python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log"; }
wait_for "the Notify call" 20 bash -c "python3 '$LIB/notify_calls.py' '$SESSION_DIR/monitor.log' | grep -q GPU" \
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
