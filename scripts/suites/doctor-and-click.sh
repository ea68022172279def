#!/usr/bin/env bash
# A click that opens the article, on real servers (lib/session.sh: a private bus, Xvfb, a fake
# browser that records each URL it is asked to open):
#   doctor  `headlines doctor` reads dunst's config the way the running dunst does: the
#           session's `dunst -config FILE` with do_action passes; dunst on its default config
#           (/etc/xdg/dunst/dunstrc) is named, and the one line to add is printed (exit 1).
#   click   under that default config, a real pointer click (XTEST, xdotool) on dunst's window
#           closes the notification and opens nothing; after doing what the doctor said (copy the
#           file, set the line, restart dunst) the doctor has nothing to change (exit 0), and the
#           same click opens exactly the article.
#   servers a small server on the bus (python3-gi) whose capabilities the suite changes under
#           the running host, as xfce4-notifyd does in do-not-disturb: with actions, the body has
#           no link; without, it carries the link: a hyperlink with body-hyperlinks, escaped text
#           with body-markup alone, raw text with neither; every call has the actions and the
#           desktop-entry hint. The doctor names that server and says a click cannot open there.
# DOCTOR_CLICK_PARTS="doctor click servers" picks parts (each runs alone). Never prints the key.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
PARTS=${DOCTOR_CLICK_PARTS:-doctor click servers}
. scripts/lib/common.sh
for tool in dunst dunstctl xdotool Xvfb dbus-daemon dbus-monitor; do
    command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh --test"
done
# Debian's python3-gi is for Debian's python3, whatever python3 comes first on PATH.
PY_GI=/usr/bin/python3
"$PY_GI" -c 'import gi; gi.require_version("Gio", "2.0"); from gi.repository import Gio' 2>/dev/null \
    || die "python3-gi is missing: run scripts/install-deps.sh --test"

unset XDG_CONFIG_DIRS # dunst's default config is then /etc/xdg/dunst/dunstrc, as on a fresh system
suite_dir doctor
session_start "$WORK/session"

# A launcher for `headlines menu`, so the only thing the doctor can ask for is the dunst line.
mkdir -p "$WORK/bin"
printf '#!/bin/sh\nhead -n 1\n' > "$WORK/bin/dmenu"
chmod +x "$WORK/bin/dmenu"
export PATH="$WORK/bin:$PATH"

ARTICLES=$WORK/articles.json
# articles TITLE URL [TITLE URL...]: the news server's list, the first newest.
articles() {
    python3 - "$ARTICLES" "$@" <<'PY'
import datetime, json, os, sys, zlib
path, pairs = sys.argv[1], sys.argv[2:]
now = datetime.datetime.now(datetime.timezone.utc)
items = [{"id": zlib.crc32(title.encode()), "title": title, "href": url,
          "published_at": (now - datetime.timedelta(seconds=n)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
          "source": {"domain": "news&views.example.com"}, "image": ""}
         for n, (title, url) in enumerate(zip(pairs[0::2], pairs[1::2]))]
json.dump(items, open(path + ".tmp", "w")); os.rename(path + ".tmp", path)
PY
}
articles "The first story" "https://news.example.com/first"
start_news_server "$WORK/requests.log" --articles "$ARTICLES"
news_config "$WORK/headlines.conf" 'provider = apitube' '[refresh]' 'interval = 1h' 'daily-budget = 200'
KEY=suite-key-doctor-4471
export APITUBE_API_KEY=$KEY
HOST_LOG=$WORK/host.log

doctor() { # doctor OUT: runs `headlines doctor` into OUT, returns its exit status
    "$BIN" --config "$WORK/headlines.conf" doctor >"$1" 2>&1
    local rc=$?
    grep -q "$KEY" "$1" && die "the doctor printed the API key"
    return $rc
}
reloads() { grep -c "reload ok" "$HOST_LOG"; }
refresh_and_wait() { # one more successful reload
    local before; before=$(reloads)
    "$BIN" --config "$WORK/headlines.conf" refresh >/dev/null || die "refresh failed"
    wait_for "a reload" 10 bash -c "[ \$(grep -c 'reload ok' '$HOST_LOG') -gt $before ]" || die "no reload after refresh"
}
# Every provider's key variable in the host's environment: none may reach the browser a click opens.
KEY_VARIABLES="APITUBE_API_KEY NEWSAPI_API_KEY GUARDIAN_API_KEY NYT_API_KEY GNEWS_API_KEY HEADLINES_JSON_API_KEY"
env NEWSAPI_API_KEY=k-newsapi GUARDIAN_API_KEY=k-guardian NYT_API_KEY=k-nyt GNEWS_API_KEY=k-gnews HEADLINES_JSON_API_KEY=k-json \
    "$BIN" --config "$WORK/headlines.conf" run >"$HOST_LOG" 2>&1 &
HOST_PID=$!
PIDS+=("$HOST_PID")
wait_for "the first reload" 15 grep -q "reload ok" "$HOST_LOG" || { cat "$HOST_LOG"; die "the host did not reload"; }

# dunst as a user starts it: no -config, so it reads $XDG_CONFIG_HOME/dunst/dunstrc, else /etc/xdg.
PLAIN_DUNST=0
dunst_plain() {
    PLAIN_DUNST=1
    dunst_stop
    dunst >>"$SESSION_DIR/dunst.log" 2>&1 &
    DUNST_PID=$!
    wait_for "dunst to own org.freedesktop.Notifications" 10 notifications_owned || die "dunst did not start"
}
# click_dunst: one real left click (XTEST) in the middle of dunst's window, once it is shown.
click_dunst() {
    wait_for "dunst to show the notification" 10 bash -c '[ "$(dunstctl count displayed)" -ge 1 ]' || die "dunst shows nothing"
    window_still Dunst
    xdotool mousemove $((X + WIDTH / 2)) $((Y + HEIGHT / 2)) click 1 || die "xdotool click failed"
}
new_story() { # new_story TITLE URL: serve it beside the first story, reload, wait for its Notify
    articles "$1" "$2" "The first story" "https://news.example.com/first"
    refresh_and_wait
}

part_doctor() {
    echo "doctor: dunst started with -config FILE (mouse_left_click = do_action): nothing about dunst"
    doctor "$WORK/doctor-session.txt"; rc=$?
    grep -q "^  notifications  dunst 1.9" "$WORK/doctor-session.txt" || { cat "$WORK/doctor-session.txt"; die "the doctor does not name dunst"; }
    grep -qF "a left click opens the article (mouse_left_click = do_action, in $SESSION_DIR/dunstrc)" "$WORK/doctor-session.txt" \
        || { cat "$WORK/doctor-session.txt"; die "the doctor did not read the -config file of the running dunst"; }
    [ "$rc" -eq 0 ] || { cat "$WORK/doctor-session.txt"; die "the doctor exited $rc with nothing to change"; }
    ok "names dunst, read its -config file from its command line, exit 0"

    echo "doctor: dunst on its default config"
    dunst_plain
    doctor "$WORK/doctor-default.txt"; rc=$?
    cat "$WORK/doctor-default.txt" | sed 's/^/    | /'
    grep -q "^  notifications  dunst 1\.9\.0 .*supports actions, " "$WORK/doctor-default.txt" || die "the doctor does not name dunst and its capabilities"
    grep -qF "a left click closes the notification without opening the article (mouse_left_click = close_current, in /etc/xdg/dunst/dunstrc)" \
        "$WORK/doctor-default.txt" || die "the doctor did not find dunst's default left click in /etc/xdg/dunst/dunstrc"
    grep -qx "       mouse_left_click = do_action, close_current" "$WORK/doctor-default.txt" || die "the doctor did not print the line to add"
    grep -qF "Copy /etc/xdg/dunst/dunstrc to $XDG_CONFIG_HOME/dunst/dunstrc" "$WORK/doctor-default.txt" || die "the doctor did not say where the line goes"
    grep -q "^1 thing to change:" "$WORK/doctor-default.txt" || die "the doctor asks for more than the dunst line"
    [ "$rc" -eq 1 ] || die "the doctor exited $rc with a change to make, expected 1"
    ok "names dunst 1.9.0 and its capabilities, prints 'mouse_left_click = do_action, close_current' and where it goes, exit 1"
}

part_click() {
    [ "$PLAIN_DUNST" = 1 ] || dunst_plain
    echo "click: a left click under dunst's default config closes and opens nothing"
    dunstctl close-all
    : >"$BROWSER_LOG"
    closed_before=$(grep -c "member=NotificationClosed" "$SESSION_DIR/monitor.log")
    new_story "A story for the default click" "https://news.example.com/default-click"
    click_dunst
    wait_for "dunst to close the notification" 5 bash -c "[ \$(grep -c 'member=NotificationClosed' '$SESSION_DIR/monitor.log') -gt $closed_before ]" \
        || die "the click did not reach dunst (no NotificationClosed)"
    sleep 1 # a browser started by the click would have written by now
    [ -s "$BROWSER_LOG" ] && die "under the default config the click opened $(cat "$BROWSER_LOG")"
    ok "the click closed the notification (NotificationClosed) and the browser got nothing"

    echo "click: with the doctor's line in dunstrc, a left click opens the article"
    mkdir -p "$XDG_CONFIG_HOME/dunst"
    sed 's/^\([[:space:]]*\)mouse_left_click = .*/\1mouse_left_click = do_action, close_current/' /etc/xdg/dunst/dunstrc \
        >"$XDG_CONFIG_HOME/dunst/dunstrc"
    grep -qx "[[:space:]]*mouse_left_click = do_action, close_current" "$XDG_CONFIG_HOME/dunst/dunstrc" || die "could not set the line"
    dunst_plain
    doctor "$WORK/doctor-fixed.txt"; rc=$?
    grep -qF "a left click opens the article (mouse_left_click = do_action, close_current, in $XDG_CONFIG_HOME/dunst/dunstrc)" \
        "$WORK/doctor-fixed.txt" || { cat "$WORK/doctor-fixed.txt"; die "the doctor did not see the new line"; }
    grep -qx "Nothing to change." "$WORK/doctor-fixed.txt" && [ "$rc" -eq 0 ] || { cat "$WORK/doctor-fixed.txt"; die "the doctor exited $rc"; }
    ok "doctor: the left click opens (read from $XDG_CONFIG_HOME/dunst/dunstrc), nothing to change, exit 0"
    : >"$BROWSER_LOG"
    new_story "A story for the fixed click" "https://news.example.com/fixed-click"
    click_dunst
    wait_for "the fake browser" 5 test -s "$BROWSER_LOG" || die "the click opened nothing"
    url=$(cat "$BROWSER_LOG")
    [ "$url" = "https://news.example.com/fixed-click" ] || die "the click opened '$url'"
    grep -A2 'member=ActionInvoked' "$SESSION_DIR/monitor.log" | grep -q 'string "default"' || die "no ActionInvoked \"default\" on the bus"
    for variable in $KEY_VARIABLES; do
        grep -q "^$variable=" "$SESSION_DIR/browser.env" && die "the browser the click opened has $variable in its environment"
    done
    ok "a real pointer click on dunst's window: ActionInvoked \"default\", the browser opened exactly $url, with none of the host's key variables"
}

part_servers() {
    echo "servers: capabilities change under the running host; the body carries the link when actions go"
    dunst_stop
    CAPS=$WORK/caps
    CALLS=$WORK/server-calls.jsonl
    echo "actions body body-markup body-hyperlinks" >"$CAPS"
    : >"$CALLS"
    "$PY_GI" "$LIB/notification_server.py" "$CAPS" "$CALLS" >"$WORK/server.log" 2>&1 &
    PIDS+=($!)
    wait_for "the test server to own org.freedesktop.Notifications" 10 notifications_owned || { cat "$WORK/server.log"; die "the test server did not start"; }
    # check_call TITLE PYTHON-ASSERTIONS: the Notify call for TITLE, as `c`.
    check_call() {
        wait_for "the Notify call for $1" 10 grep -qF "\"summary\": \"$1\"" "$CALLS" || { tail -n 20 "$HOST_LOG"; die "no Notify call for '$1'"; }
        grep -F "\"summary\": \"$1\"" "$CALLS" | tail -n 1 | python3 -c "
import json, sys
c = json.loads(sys.stdin.readline())
assert c['actions'] == ['default', 'Open', 'mute', 'Mute source'], c['actions']
assert c['hints'].get('desktop-entry') == 'headlines', c['hints']
$2" || die "the Notify call for '$1' is wrong: $(grep -F "\"summary\": \"$1\"" "$CALLS" | tail -n 1)"
    }
    link='https://news.example.com/story?id=7&lang=en'
    new_story "With actions" "$link"
    check_call "With actions" "assert 'https://' not in c['body'] and c['body'].startswith('news&amp;views.example.com · '), c['body']"
    ok "actions, body-markup, body-hyperlinks: the actions and desktop-entry, no link in the (escaped) body"

    echo "body body-markup body-hyperlinks" >"$CAPS" # do-not-disturb on xfce4-notifyd: actions gone
    new_story "Actions dropped" "$link"
    check_call "Actions dropped" "assert c['body'].endswith('\n<a href=\"https://news.example.com/story?id=7&amp;lang=en\">https://news.example.com/story?id=7&amp;lang=en</a>'), c['body']"
    ok "actions dropped under the running host: the body ends with the link as an escaped <a href>"

    echo "body body-markup" >"$CAPS" # notify-osd: markup, no actions, no hyperlinks
    new_story "Markup only" "$link"
    check_call "Markup only" "assert c['body'].endswith('\nhttps://news.example.com/story?id=7&amp;lang=en'), c['body']"
    ok "body-markup without hyperlinks: the link as escaped text"

    echo "body" >"$CAPS"
    new_story "Plain text" "$link"
    check_call "Plain text" "assert c['body'].startswith('news&views.example.com · ') and c['body'].endswith('\n$link'), c['body']"
    ok "no markup: the body is plain text and ends with the raw link"

    doctor "$WORK/doctor-server.txt"; rc=$?
    grep -q "^  notifications  headlines-suite-server 0.1 (suite) supports body$" "$WORK/doctor-server.txt" \
        && grep -qF "no actions: a click cannot open the article, so each notification carries its link as text" "$WORK/doctor-server.txt" \
        && [ "$rc" -eq 0 ] || { cat "$WORK/doctor-server.txt"; die "the doctor did not describe the server without actions (exit $rc)"; }
    ok "doctor names headlines-suite-server, says it has no actions and that the link is in the body, exit 0"
}

for part in $PARTS; do "part_$part"; done
grep -q "$KEY" "$HOST_LOG" && die "the key reached the host's log"
echo "doctor-and-click: all checks passed"
