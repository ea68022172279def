#!/usr/bin/env bash
# Several widgets under real bars: a headless sway with a waybar of two widget modules
# (`headlines-bar waybar --widget world` and `--widget tech`) and the real i3blocks with two
# blocks told apart by `instance=`, one host serving three widgets (a third on world's feed).
# Checks: each module and block shows its own widget's headline, the feed shared by two widgets is
# fetched once per reload, and a screenshot of the two segments side by side is kept at
# build/screenshots/widgets.png.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
. scripts/lib/common.sh
sway_suite widgets

# Two feeds on loopback; the server logs one line per request.
mkdir -p "$WORK/feeds"
feed() { # FILE TOPIC
    python3 - "$1" "$2" <<'PY'
import datetime, email.utils, sys
path, topic = sys.argv[1], sys.argv[2]
now = datetime.datetime.now(datetime.timezone.utc)
items = "".join(f"<item><title>{topic} story {k}</title><link>https://{topic.lower()}.example.com/{k}</link>"
                f"<guid>{topic}-{k}</guid><pubDate>{email.utils.format_datetime(now - datetime.timedelta(minutes=20 * k))}</pubDate></item>"
                for k in range(1, 4))
open(path, "w").write(f'<?xml version="1.0"?><rss version="2.0"><channel><title>{topic} Desk</title>{items}</channel></rss>')
PY
}
feed "$WORK/feeds/world.rss" World
feed "$WORK/feeds/tech.rss" Tech
start_news_server "$WORK/requests.log" --root "$WORK/feeds"
cat > "$WORK/headlines.conf" <<CONF
[source]
provider = feeds
feeds = http://127.0.0.1:$PORT/world.rss
[refresh]
interval = 1h
[notify]
enabled = false
[widget world]
[widget tech]
feeds = http://127.0.0.1:$PORT/tech.rss
[widget again]
max-length = 20
CONF
cat > "$WORK/waybar.json" <<JSON
{
  "layer": "top", "position": "top", "height": 28,
  "modules-left": ["custom/world", "custom/tech"],
  "modules-right": ["clock"],
  "clock": { "format": "{:%a %d %b  %H:%M}" },
  "custom/world": {
    "exec": "exec $WORK/headlines-bar --config $WORK/headlines.conf waybar --widget world",
    "return-type": "json", "format": "World · {}", "max-length": 60
  },
  "custom/tech": {
    "exec": "exec $WORK/headlines-bar --config $WORK/headlines.conf waybar --widget tech",
    "return-type": "json", "format": "Tech · {}", "max-length": 60
  }
}
JSON
waybar_style "$WORK" '#custom-world, #custom-tech, #clock'
sway_start "$WORK"
ok "headless sway as $USER_NAME"

as_user env WAYLAND_DISPLAY="$DISPLAY_NAME" waybar -c "$WORK/waybar.json" -s "$WORK/style.css" >"$WORK/waybar.log" 2>&1 &
PIDS+=($!)
line() { cat "$RUNTIME/headlines-widget-$1/bar/waybar" 2>/dev/null; }
shows() { line "$1" | grep -q "\"text\":\"$2 story 1\""; } # WIDGET TOPIC
wait_for "both widgets' lines" 15 eval 'shows world World && shows tech Tech'
shows world World || { cat "$WORK/waybar.log"; die "the world widget's line: $(line world)"; }
shows tech Tech || { cat "$WORK/waybar.log"; die "the tech widget's line: $(line tech)"; }
copies=$(pgrep -u "$USER_NAME" -f "headlines-bar --config $WORK/headlines.conf waybar --widget" | wc -l)
[ "$copies" -eq 2 ] || die "expected the two widget copies under waybar, found $copies"
# Both copies start a host at once; the one that finds the widgets served exits at once.
wait_for "one host" 5 eval '[ "$(pgrep -u "$USER_NAME" -x headlines-host | wc -l)" -eq 1 ]'
hosts=$(pgrep -u "$USER_NAME" -x headlines-host | wc -l)
[ "$hosts" -eq 1 ] || die "expected one host serving every widget, found $hosts"
ok "waybar's two widget modules show World and Tech headlines from one host"

echo "the real i3blocks: two blocks told apart by instance="
cat > "$WORK/i3blocks.conf" <<CONF
[headlines]
command=$WORK/headlines-bar --config $WORK/headlines.conf i3blocks
interval=2
instance=again

[headlines]
command=$WORK/headlines-bar --config $WORK/headlines.conf i3blocks
interval=2
instance=tech
CONF
chmod 644 "$WORK/i3blocks.conf"
as_user i3blocks -c "$WORK/i3blocks.conf" </dev/null >"$WORK/i3bar.out" 2>"$WORK/i3blocks.err" &
PIDS+=($!)
block_shows() { grep -q "\"instance\":\"$1\",\"full_text\":\"$2 story 1" "$WORK/i3bar.out"; } # INSTANCE TOPIC
wait_for "both blocks" 10 eval 'block_shows again World && block_shows tech Tech'
python3 - "$WORK/i3bar.out" <<'PY' || die "i3blocks did not show each instance's own headline"
import json, sys
text = open(sys.argv[1]).read()
# i3bar protocol: a header, then "[" and one JSON array of blocks per line.
rows = [json.loads(l.lstrip(",")) for l in text.splitlines() if l.lstrip(",").startswith("[{")]
assert rows, text[-400:]
last = {b.get("instance", ""): b.get("full_text", "") for b in rows[-1]}
assert last.get("again", "").startswith("World story 1"), last
assert last.get("tech", "").startswith("Tech story 1"), last
PY
ok "instance=again shows World's headline, instance=tech shows Tech's"

world=$(grep -c "^/world.rss" "$WORK/requests.log"); tech=$(grep -c "^/tech.rss" "$WORK/requests.log")
[ "$world" -eq 1 ] || die "world.rss, shared by the world and again widgets, was fetched $world times for one reload"
[ "$tech" -eq 1 ] || die "tech.rss was fetched $tech times for one reload"
ok "one request per feed: the two widgets on world.rss share one fetch"

bar_screenshot widgets.png
ok "screenshot of the two widgets kept at build/screenshots/widgets.png"
echo "widgets-sway: all checks passed"
