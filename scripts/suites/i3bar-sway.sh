#!/usr/bin/env bash
# The real swaybar reading `headlines-bar i3bar`: a headless sway whose bar runs it as its
# status_command, a host started by that bar, a hostile title. Checks: swaybar takes the stream
# (the header once, then one block array per change) as the i3bar protocol with click events
# (it opens its click array on our stdin) without a protocol error, shows the headline
# (a grim screenshot is kept at build/screenshots/swaybar.png), and the host makes one request per
# reload. No pointer exists in a headless sway, so the clicks are bar-binary.sh's.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh
sway_suite i3bar
python3 "$LIB/articles.py" "$WORK/articles.json" 3 'Swaybar & <i3bar> "quoted" \back %{A1:x:} #[fg=red] story'
start_news_server "$WORK/requests.log" --articles "$WORK/articles.json"
news_config "$WORK/headlines.conf" '[refresh]' 'interval = 4s' 'daily-budget = 86400' '[notify]' 'enabled = false'
AS_USER_ENV=APITUBE_API_KEY=suite-key-i3bar
# sway's own bar runs `headlines-bar i3bar` (which, finding no host, runs `headlines start`);
# what swaybar writes to the status command's stdin is kept in stdin.log on its way.
printf '#!/bin/sh\ntee %s/stdin.log | exec %s/headlines-bar --config %s/headlines.conf i3bar\n' "$HOME_DIR" "$WORK" "$WORK" > "$WORK/status"
chmod 755 "$WORK/status"
sway_start "$WORK" "$(printf 'bar {\n  position top\n  font DejaVu Sans 13\n  status_command exec %s/status\n}' "$WORK")"
follower() { pgrep -u "$USER_NAME" -f "headlines-bar --config $WORK/headlines.conf i3bar" >/dev/null; }
wait_for "headlines-bar i3bar under swaybar" 10 follower || { cat "$WORK/sway.log"; die "swaybar did not start headlines-bar i3bar"; }
ok "swaybar runs headlines-bar i3bar as its status_command"

published() { grep -q 'Swaybar &' "$RUNTIME/headlines/bar/i3bar" 2>/dev/null; }
wait_for "the i3bar blocks" 20 published || die "the host never published the i3bar blocks: $(ls "$RUNTIME/headlines/bar" 2>&1)"
sleep 1 # swaybar redraws on its next frame
# swaybar answers a header with click_events by opening its own endless array on our stdin; a
# stream it did not take as the i3bar protocol is shown as text and gets nothing.
opened() { [ "$(head -c 1 "$HOME_DIR/stdin.log" 2>/dev/null)" = "[" ]; }
wait_for "swaybar's click array" 5 opened || { cat "$WORK/sway.conf"; ps -u "$USER_NAME" -o pid,args; die "swaybar did not take the stream as the i3bar protocol with click events (stdin: $(head -c 80 "$HOME_DIR/stdin.log" 2>&1))"; }
grep -iE "i3bar|status.*(parse|invalid)|json" "$WORK/sway.log" | grep -iE "error|fail|invalid" && die "swaybar complained about the stream"
ok "swaybar took the header, opened its click array on our stdin, and reported no protocol error"

reloads() { wc -l < "$WORK/requests.log"; }
wait_for "three requests" 15 eval '[ "$(reloads)" -ge 3 ]'
[ "$(pgrep -u "$USER_NAME" -f "$WORK/headlines-host" | wc -l)" -le 1 ] || die "more than one host"
ok "$(reloads) requests from one host"

bar_screenshot swaybar.png 30
ok "screenshot kept at build/screenshots/swaybar.png"
echo "i3bar-sway: all checks passed"
