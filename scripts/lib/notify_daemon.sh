#!/usr/bin/env bash
# One notification server, for real: `notify_daemon.sh DAEMON WORK BINDIR LIBDIR`, DAEMON one of
# dunst, mako, xfce4-notifyd. Run by notify-servers.sh (as an unprivileged user: sway refuses
# root). Starts a private session bus, the display the server needs (Xvfb; a headless sway for
# mako), the server, dbus-monitor, a fake browser and a news server whose one new headline has an
# image; runs the host; checks the Notify call (actions, image-path to a small PNG fetched
# without the key); invokes the default action the server's own way; checks the browser got the
# article. Prints "  ok: ..." lines; exits non-zero with "FAIL: ..." on the first failure.
set -uo pipefail
DAEMON=$1 WORK=$2 BINDIR=$3 LIB=$4
. "$LIB/common.sh"
D=$WORK/$DAEMON
isolated_home "$D"
export LANG=C.UTF-8
# A private bus without service activation: only the server we start owns the name.
private_bus_start "$D"

case $DAEMON in
dunst)
    start_xvfb "$D/xvfb.log"
    printf '[global]\n    notification_limit = 5\n    font = DejaVu Sans 11\n    width = 460\n    height = 200\n    offset = 16x16\n    max_icon_size = 96\n    icon_position = left\n' > "$D/dunstrc"
    dunst -config "$D/dunstrc" >"$D/daemon.log" 2>&1 &
    PIDS+=($!) ;;
xfce4-notifyd)
    start_xvfb "$D/xvfb.log"
    # Its settings come from xfconfd, over the bus; started by hand as there is no activation.
    /usr/lib/x86_64-linux-gnu/xfce4/xfconf/xfconfd >"$D/xfconfd.log" 2>&1 &
    PIDS+=($!)
    /usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd >"$D/daemon.log" 2>&1 &
    PIDS+=($!) ;;
mako)
    start_sway "$D/runtime" /dev/null "$D/sway.log"
    export WAYLAND_DISPLAY=$DISPLAY_NAME
    printf 'font=DejaVu Sans 11\nmax-icon-size=96\n' > "$D/mako.conf"
    mako -c "$D/mako.conf" >"$D/daemon.log" 2>&1 &
    PIDS+=($!) ;;
*) die "unknown server $DAEMON" ;;
esac
wait_for "$DAEMON to own org.freedesktop.Notifications" 10 notifications_owned || { cat "$D/daemon.log"; die "$DAEMON did not start"; }
server=$(dbus-send --session --print-reply --dest=org.freedesktop.Notifications /org/freedesktop/Notifications \
    org.freedesktop.Notifications.GetServerInformation | grep -o '"[^"]*"' | head -n 3 | tr '\n' ' ')
ok "server up: $server"

dbus-monitor --session "interface='org.freedesktop.Notifications'" >"$D/monitor.log" 2>&1 &
PIDS+=($!)
fake_browser "$D"

mkdir -p "$D/www/images"
python3 "$LIB/make_png.py" "$D/www/images/story.png" 640 360
echo '[]' > "$D/articles.json"
start_news_server "$D/requests.log" --articles "$D/articles.json" --root "$D/www"
python3 - "$D/articles.json" "$PORT" <<'PY'
import json, sys, datetime
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
json.dump([{"id": 4242, "title": "Harbour lights return to the old town", "href": "https://news.example.com/harbour-lights",
            "published_at": now, "source": {"domain": "news.example.com"},
            "image": f"http://127.0.0.1:{sys.argv[2]}/images/story.png"}], open(sys.argv[1], "w"))
PY
news_config "$D/headlines.conf" 'provider = apitube' '[refresh]' 'interval = 1h' '[notify]' 'max-per-refresh = 3'

APITUBE_API_KEY=suite-key-notify-servers "$BINDIR/headlines" --config "$D/headlines.conf" run >"$D/host.log" 2>&1 &
PIDS+=($!)
calls() { python3 "$LIB/notify_calls.py" "$D/monitor.log"; }
wait_for "the Notify call" 20 eval 'calls | grep -q Harbour' || { cat "$D/host.log"; die "no Notify call"; }
calls | grep Harbour | head -n 1 | python3 -c '
import json, os, sys, struct
c = json.loads(sys.stdin.readline())
a = c["actions"]
assert a[0::2][:1] == ["default"] and "mute" in a[0::2], a
# "Open" once: the default action carries the label, no second action repeats it.
assert [l for l in a[1::2]].count("Open") == 1, a
path = c["hints"].get("image-path", "")
assert path.startswith(os.environ["XDG_CACHE_HOME"] + "/headlines/images/") and path.endswith(".png"), c["hints"]
head = open(path, "rb").read(24)
w, h = struct.unpack(">II", head[16:24])
assert head[:8] == b"\x89PNG\r\n\x1a\n" and (w, h) == (256, 144), (head[:8], w, h)
assert os.stat(path).st_mode & 0o777 == 0o600, oct(os.stat(path).st_mode)
print(path)
' > "$D/image-path" || die "the Notify call lacks the default action or a 256x144 image-path"
grep -q '^/images/story.png$' "$D/requests.log" || die "the image was not fetched, or fetched with the key: $(cat "$D/requests.log")"
grep -q suite-key-notify-servers "$D/monitor.log" "$D/host.log" && die "the key reached the bus or the log"
ok "Notify call with actions default (\"Open\", once) and mute, and image-path $(basename "$(cat "$D/image-path")") (256x144, 0600), image fetched without the key"
sleep 0.5

case $DAEMON in
dunst)
    if [ -n "${SHOT:-}" ]; then
        import -window root -crop 496x100+776+8 +repage "$SHOT" || die "import failed"
        ok "screenshot $SHOT"
    fi
    dunstctl action 0 || die "dunstctl action failed"
    how="dunstctl action 0 (dunst's own command for the default action)" ;;
mako)
    if [ -n "${SHOT:-}" ]; then
        grim -g "780,0 500x140" "${SHOT%.png}-mako.png" 2>/dev/null && ok "screenshot ${SHOT%.png}-mako.png"
    fi
    makoctl list > "$D/mako-list.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=d["data"][0]; assert "default" in n[0]["actions"]["data"], n' "$D/mako-list.json" \
        || die "makoctl list does not show the default action: $(cat "$D/mako-list.json")"
    makoctl invoke || die "makoctl invoke failed"
    how="makoctl invoke (mako's own command; the default action)" ;;
xfce4-notifyd)
    # xfce4-notifyd 0.7.3 closes the notification on a click on its body (no ActionInvoked, seen
    # here) and shows every action, "default" included, as a button: a real pointer click
    # (XTEST) on the default action's button.
    # The window slides and fades in: click only once it holds still, and try the button's row a
    # few times (a loaded machine may map it late), each followed by a wait.
    window_still xfce4-notifyd
    # NOTIFY_DEBUG_SHOT=FILE keeps a picture of the screen before the click (to see the layout).
    [ -z "${NOTIFY_DEBUG_SHOT:-}" ] || import -window root "$NOTIFY_DEBUG_SHOT"
    # xfce4-notifyd 0.7.3 lays the buttons out right-aligned under the text: "Open" (the default
    # action) then "Mute source"; "Open" sits about 55% across and 71% down the window.
    for spot in "55 71" "50 71" "58 74"; do
        set -- $spot
        xdotool mousemove $((X + WIDTH * $1 / 100)) $((Y + HEIGHT * $2 / 100)) click 1 || die "xdotool click failed"
        wait_for "the fake browser" 3 test -s "$BROWSER_LOG" && break
    done
    how="an XTEST left click on the default action's button (xdotool)" ;;
esac
wait_for "the fake browser" 5 test -s "$BROWSER_LOG" || die "$how opened nothing"
url=$(head -n 1 "$BROWSER_LOG")
[ "$url" = "https://news.example.com/harbour-lights" ] || die "the browser opened '$url'"
# The server itself said which action: ActionInvoked(id, "default") on the bus.
grep -A2 'member=ActionInvoked' "$D/monitor.log" | grep -q 'string "default"' || die "no ActionInvoked for the default action on the bus"
ok "$how: the server sent ActionInvoked \"default\"; the browser opened exactly $url"
