# A private desktop session with real components (sourced by common.sh).
#   session_start DIR   DIR as an isolated home; a private session bus that activates this build's
#                       host (reading the default config file, and nothing else: a killed dunst
#                       stays dead), Xvfb on a free display, dunst, dbus-monitor recording the
#                       Notify calls in DIR/monitor.log, the fake browser. Sets SESSION_DIR.
#   dunst_start / dunst_stop, notifications_owned, notify_count (Notify calls so far),
#   stop_activated_hosts (the hosts the bus started, until the bus has let go of the name).
# Everything it starts stops at exit.

session_start() {
    SESSION_DIR=$1
    isolated_home "$SESSION_DIR"
    headlines_service "$SESSION_DIR/services"
    private_bus_start "$SESSION_DIR" "$SESSION_DIR/services"
    start_xvfb "$SESSION_DIR/xvfb.log"
    printf '[global]\n    notification_limit = 5\n    mouse_left_click = do_action\n    show_age_threshold = -1\n    markup = full\n' \
        > "$SESSION_DIR/dunstrc"
    dunst_start
    dbus-monitor --session "interface='org.freedesktop.Notifications'" >"$SESSION_DIR/monitor.log" 2>&1 &
    PIDS+=($!)
    sleep 0.3
    fake_browser "$SESSION_DIR"
    EXIT_HOOKS+=(session_stop)
}

name_owned() { # NAME
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q 'boolean true'
}
notifications_owned() { name_owned org.freedesktop.Notifications; }

dunst_start() {
    dunst -config "$SESSION_DIR/dunstrc" >>"$SESSION_DIR/dunst.log" 2>&1 &
    DUNST_PID=$!
    wait_for "dunst to own org.freedesktop.Notifications" 10 notifications_owned || die "dunst did not start"
}

dunst_stop() {
    kill "$DUNST_PID" 2>/dev/null; wait "$DUNST_PID" 2>/dev/null
    wait_for "dunst to release its name" 5 eval '! notifications_owned'
}

notify_count() { grep -c 'member=Notify$\|member=Notify ' "$SESSION_DIR/monitor.log" || true; }

activated_host_runs() { pgrep -f "^${HEADLINES_BIN:-/nonexistent}/headlines-host --from-bar" >/dev/null; }
stop_activated_hosts() {
    pkill -TERM -f "^${HEADLINES_BIN:-/nonexistent}/headlines-host --from-bar" 2>/dev/null
    wait_for "the activated host to stop" 5 eval '! activated_host_runs' || return 1
    wait_for "the bus to release org.headlines.Headlines" 5 eval '! name_owned org.headlines.Headlines'
}

session_stop() {
    [ -n "${DUNST_PID:-}" ] && kill "$DUNST_PID" 2>/dev/null
    pkill -TERM -f "^${HEADLINES_BIN:-/nonexistent}/headlines-host --from-bar" 2>/dev/null
    return 0
}
