#!/usr/bin/env bash
# A click that opens nothing tells the user (lib/session.sh: a private bus, Xvfb, real dunst,
# dbus-monitor recording every Notify call). With stderr going nowhere a user reads, as under a
# bar: `headlines open` and an i3blocks click with no default browser, `headlines menu` with no
# launcher and with a launcher that exits with status 2, a notification's default action in
# the host and `headlines open` asking the host over the bus, with no default browser, each
# send one notification whose body is the one
# sentence saying what to install or set. A launcher dismissed (status 1) sends none.
set -uo pipefail
cd "$(dirname "$0")/../.."
export HEADLINES_BIN=${HEADLINES_BIN:-$(swift build --show-bin-path)}
BIN=$HEADLINES_BIN/headlines
. scripts/lib/common.sh
for tool in dunst dunstctl Xvfb dbus-daemon dbus-monitor; do
    command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-deps.sh --test"
done
suite_dir failed-click
session_start "$WORK/session"

python3 "$LIB/articles.py" "$WORK/articles.json" 3
start_news_server "$WORK/requests.log" --articles "$WORK/articles.json"
news_config "$WORK/headlines.conf" 'provider = apitube' '[refresh]' 'interval = 1h' 'daily-budget = 200'
export APITUBE_API_KEY=suite-key-failed-click-5521
# The host the bus starts for a command reads the default config, with the session's key.
mkdir -p "$XDG_CONFIG_HOME/headlines"; cp "$WORK/headlines.conf" "$XDG_CONFIG_HOME/headlines/headlines.conf"
dbus-update-activation-environment APITUBE_API_KEY || die "the bus did not take the key"
"$BIN" --config "$WORK/headlines.conf" fetch >/dev/null 2>&1 || die "the first fetch failed"

# No default browser: the session's fake one is unregistered, and nothing else handles http.
rm -f "$SESSION_DIR/config/mimeapps.list" "$SESSION_DIR/data/applications/fake-browser.desktop"

# notified_after BEFORE TEXT: a Notify call after the first BEFORE ones has the summary and TEXT,
# in the error category a user's server rules match, naming the desktop file.
notified_after() { # BEFORE TEXT
    python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log" | tail -n +$(( $1 + 1 )) \
        | grep -F '"Headlines could not open it"' | grep -F '"category": "x-headlines.error"' \
        | grep -F '"desktop-entry": "headlines"' | grep -qF "$2"
}
expect_notice() { # WHAT TEXT COMMAND...
    local what=$1 text=$2 before; shift 2
    before=$(notify_count)
    "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
    wait_for "a notification for $what" 5 notified_after "$before" "$text" \
        || { cat "$WORK/err.txt"; python3 "$LIB/notify_calls.py" "$SESSION_DIR/monitor.log" | tail -n 3; die "$what: no notification saying \"$text\""; }
    grep -qF "$text" "$WORK/err.txt" || die "$what: stderr does not say \"$text\": $(cat "$WORK/err.txt")"
    ok "$what: one notification (category x-headlines.error) and stderr say \"$text\""
}

expect_notice "headlines open 1 with no default browser" "set a default web browser" \
    "$BIN" --config "$WORK/headlines.conf" open 1

# Launchers: none on PATH, then a dmenu that fails, then one the user dismisses.
mkdir -p "$WORK/bin"
ln -s "$(command -v python3)" "$WORK/bin/python3"
expect_notice "headlines menu with no launcher" "No launcher for the headlines menu is installed: install rofi or dmenu" \
    env PATH="$WORK/bin" "$BIN" --config "$WORK/headlines.conf" menu
printf '#!/bin/sh\ncat >/dev/null\necho "cannot open display" >&2\nexit 2\n' > "$WORK/bin/dmenu"
chmod +x "$WORK/bin/dmenu"
expect_notice "a launcher that exits with status 2" "The launcher failed (dmenu exited with status 2): check [bar] launcher." \
    env PATH="$WORK/bin" "$BIN" --config "$WORK/headlines.conf" menu
printf '#!/bin/sh\ncat >/dev/null\nexit 1\n' > "$WORK/bin/dmenu"
before=$(notify_count)
env PATH="$WORK/bin" "$BIN" --config "$WORK/headlines.conf" menu >/dev/null 2>"$WORK/err.txt"; rc=$?
[ "$rc" -eq 0 ] || die "a dismissed launcher made menu exit $rc: $(cat "$WORK/err.txt")"
sleep 0.5
[ "$(notify_count)" -eq "$before" ] || die "a dismissed launcher sent a notification"
ok "a launcher the user dismissed (status 1) sends nothing and exits 0"

# The host: a notification's default action (what a click on it does) with no default browser.
# The host the menus had the bus start steps aside for this one.
stop_activated_hosts
rm -f "$XDG_STATE_HOME/headlines/seen.json"
python3 "$LIB/articles.py" "$WORK/articles.json" 4
HOST_LOG=$WORK/host.log
dunstctl close-all # the notices above: the action below must reach the host's notification
before=$(notify_count)
"$BIN" --config "$WORK/headlines.conf" run >"$HOST_LOG" 2>&1 &
PIDS+=($!)
wait_for "the host to start" 10 grep -q "host started" "$HOST_LOG" || { cat "$HOST_LOG"; die "the host did not start"; }
"$BIN" --config "$WORK/headlines.conf" refresh >/dev/null 2>&1 || { cat "$HOST_LOG"; die "refresh failed"; }
wait_for "the host to notify" 15 bash -c "[ \$(grep -c 'member=Notify' '$SESSION_DIR/monitor.log') -gt $before ]" \
    || { cat "$HOST_LOG"; die "the host sent no notification"; }
wait_for "dunst to show it" 5 bash -c '[ "$(dunstctl count displayed)" -ge 1 ]' || die "dunst shows nothing"
before=$(notify_count)
dunstctl action 0
wait_for "a notification that the click opened nothing" 5 notified_after "$before" "set a default web browser" \
    || { cat "$HOST_LOG"; die "the host's failed open sent no notification"; }
grep -q "set a default web browser" "$HOST_LOG" || die "the host's log does not say why the click opened nothing"
ok "a notification's click with no default browser: the host says so in a notification and its log"
expect_notice "headlines open (the bar's click) asking the host over the bus" "set a default web browser" \
    "$BIN" --config "$WORK/headlines.conf" open
echo "failed-click: all checks passed"
