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
BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}/headlines
LIB=scripts/suites/lib
die() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "  ok: $*"; }
USER_NAME=hlbar
id "$USER_NAME" >/dev/null 2>&1 || useradd --create-home --shell /bin/sh "$USER_NAME" || die "cannot create user $USER_NAME"

WORK=$(mktemp -d /tmp/headlines-i3bar.XXXXXX)
chmod 755 "$WORK"
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null; done; pkill -u "$USER_NAME" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

for program in headlines headlines-host headlines-fetch headlines-bar; do install -m 755 "$(dirname "$BIN")/$program" "$WORK/$program"; done
python3 "$LIB/articles.py" "$WORK/articles.json" 3 'Swaybar & <i3bar> "quoted" \back %{A1:x:} #[fg=red] story'
exec {portfd}< <(exec python3 "$LIB/news_server.py" --articles "$WORK/articles.json" --log "$WORK/requests.log")
read -r -t 10 PORT <&"$portfd" || die "news server did not start"
PIDS+=($(pgrep -f "news_server.py --articles $WORK/articles.json"))

HOME_DIR=$WORK/home; RUNTIME=$WORK/runtime
mkdir -p "$HOME_DIR" "$RUNTIME"; chmod 700 "$RUNTIME"; chown "$USER_NAME" "$HOME_DIR" "$RUNTIME"
cat > "$WORK/headlines.conf" <<CONF
[source]
base-url = http://127.0.0.1:$PORT
[refresh]
interval = 4s
daily-budget = 86400
[notify]
enabled = false
CONF
chmod 644 "$WORK/headlines.conf"
. "$LIB/sway.sh"
AS_USER_ENV=APITUBE_API_KEY=suite-key-i3bar
# sway's own bar runs `headlines-bar i3bar` (which, finding no host, runs `headlines start`);
# sway.sh's sway_start writes a config with no bar, so this one starts sway itself.
sway_start_with_bar() {
    user_bus_start "$WORK"
    # What swaybar writes to the status command's stdin is kept in stdin.log on its way.
    printf '#!/bin/sh\ntee %s/stdin.log | exec %s/headlines-bar --config %s/headlines.conf i3bar\n' "$HOME_DIR" "$WORK" "$WORK" > "$WORK/status"
    chmod 755 "$WORK/status"
    printf 'output * bg #202020 solid_color\nbar {\n  position top\n  font DejaVu Sans 13\n  status_command exec %s/status\n}\n' "$WORK" > "$WORK/sway.conf"
    chmod 644 "$WORK/sway.conf"
    as_user env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
        sway -c "$WORK/sway.conf" >"$WORK/sway.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 100); do ls "$RUNTIME"/wayland-* >/dev/null 2>&1 && ls "$RUNTIME"/sway-ipc.* >/dev/null 2>&1 && break; sleep 0.1; done
    SOCK=$(ls "$RUNTIME"/sway-ipc.* 2>/dev/null | head -n 1)
    DISPLAY_NAME=$(basename "$(ls "$RUNTIME"/wayland-* 2>/dev/null | grep -v lock | head -n 1)")
    [ -n "$SOCK" ] && [ -n "$DISPLAY_NAME" ] || { cat "$WORK/sway.log"; die "sway did not start"; }
}
sway_start_with_bar
follower() { pgrep -u "$USER_NAME" -f "headlines-bar --config $WORK/headlines.conf i3bar" >/dev/null; }
for _ in $(seq 100); do follower && break; sleep 0.1; done
follower || { cat "$WORK/sway.log"; die "swaybar did not start headlines-bar i3bar"; }
ok "swaybar runs headlines-bar i3bar as its status_command"

published() { grep -q 'Swaybar &' "$RUNTIME/headlines/bar/i3bar" 2>/dev/null; }
for _ in $(seq 200); do published && break; sleep 0.1; done
published || die "the host never published the i3bar blocks: $(ls "$RUNTIME/headlines/bar" 2>&1)"
sleep 1 # swaybar redraws on its next frame
# swaybar answers a header with click_events by opening its own endless array on our stdin; a
# stream it did not take as the i3bar protocol is shown as text and gets nothing.
opened() { [ "$(head -c 1 "$HOME_DIR/stdin.log" 2>/dev/null)" = "[" ]; }
for _ in $(seq 50); do opened && break; sleep 0.1; done
opened || { cat "$WORK/sway.conf"; ps -u "$USER_NAME" -o pid,args; die "swaybar did not take the stream as the i3bar protocol with click events (stdin: $(head -c 80 "$HOME_DIR/stdin.log" 2>&1))"; }
grep -iE "i3bar|status.*(parse|invalid)|json" "$WORK/sway.log" | grep -iE "error|fail|invalid" && die "swaybar complained about the stream"
ok "swaybar took the header, opened its click array on our stdin, and reported no protocol error"

reloads() { wc -l < "$WORK/requests.log"; }
for _ in $(seq 150); do [ "$(reloads)" -ge 3 ] && break; sleep 0.1; done
[ "$(pgrep -u "$USER_NAME" -f "$WORK/headlines-host" | wc -l)" -le 1 ] || die "more than one host"
ok "$(reloads) requests from one host"

mkdir -p "$ROOT/build/screenshots"
as_user env WAYLAND_DISPLAY="$DISPLAY_NAME" grim -g "0,0 1280x30" "$HOME_DIR/shot.png" || die "grim failed"
cp "$HOME_DIR/shot.png" "$ROOT/build/screenshots/swaybar.png"
[ -s "$ROOT/build/screenshots/swaybar.png" ] || die "no screenshot"
ok "screenshot kept at build/screenshots/swaybar.png"
echo "i3bar-sway: all checks passed"
