#!/usr/bin/env bash
# The real waybar: a headless sway with two outputs, run as an unprivileged user (sway
# refuses root), waybar with the headlines module on both outputs. Checks: two copies of
# `headlines waybar` make exactly one request per reload; the segment shows the headline (a grim
# screenshot is kept at build/screenshots/waybar.png).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh
sway_suite sway
python3 "$LIB/articles.py" "$WORK/articles.json" 5 "Bars & Pipes <demo> story"
start_news_server "$WORK/requests.log" --articles "$WORK/articles.json"
news_config "$WORK/headlines.conf" '[refresh]' 'interval = 4s' 'daily-budget = 86400' '[notify]' 'enabled = false'
cat > "$WORK/waybar.json" <<JSON
{
  "layer": "top", "position": "top", "height": 28,
  "modules-left": ["custom/headlines"],
  "modules-right": ["cpu", "memory", "clock"],
  "cpu": { "format": "cpu {usage}%", "interval": 30 },
  "memory": { "format": "mem {percentage}%", "interval": 30 },
  "clock": { "format": "{:%a %d %b  %H:%M}" },
  "custom/headlines": {
    "exec": "exec $WORK/headlines-bar --config $WORK/headlines.conf waybar",
    "return-type": "json", "format": "{}", "max-length": 90
  }
}
JSON
AS_USER_ENV=APITUBE_API_KEY=suite-key-sway
waybar_style "$WORK" '#cpu, #memory, #clock'
sway_start "$WORK"
as_user swaymsg -s "$SOCK" create_output >/dev/null || die "could not add a second output"
outputs=$(as_user swaymsg -s "$SOCK" -t get_outputs -r | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$outputs" -eq 2 ] || die "expected 2 outputs, sway has $outputs"
ok "headless sway as $USER_NAME with 2 outputs"

as_user env WAYLAND_DISPLAY="$DISPLAY_NAME" waybar -c "$WORK/waybar.json" -s "$WORK/style.css" >"$WORK/waybar.log" 2>&1 &
PIDS+=($!)
copies() { pgrep -u "$USER_NAME" -f "headlines-bar --config $WORK/headlines.conf waybar" | wc -l; }
wait_for "two copies" 10 eval '[ "$(copies)" -ge 2 ]'
[ "$(copies)" -eq 2 ] || { cat "$WORK/waybar.log"; die "expected 2 copies of headlines waybar, found $(copies)"; }
ok "waybar started one headlines copy per output (2)"

# The host the copies asked the bus for logs to the bus, not to waybar: its requests are counted.
requests() { wc -l < "$WORK/requests.log"; }
wait_for "a request" 10 eval '[ "$(requests)" -ge 1 ]' || { cat "$WORK/waybar.log"; die "no request within 10 s"; }
sleep 12
requests=$(requests)
# One host reloading every 4 s makes 4 requests in these 12 s (3 to 5 with timing); two would make 8.
[ "$requests" -ge 3 ] && [ "$requests" -le 5 ] || die "$requests requests in 12 s at interval 4s with two copies"
[ "$(pgrep -u "$USER_NAME" -x headlines-host | wc -l)" -eq 1 ] || die "more than one host"
ok "$requests requests in 12 s at interval 4s from one host with two copies"

bar_screenshot waybar.png
grep -q "Bars &amp; Pipes &lt;demo&gt; story" "$WORK/waybar.log" 2>/dev/null && die "escaped markup reached waybar's log as an error"
ok "screenshot kept at build/screenshots/waybar.png"
echo "bars-sway: all checks passed"
