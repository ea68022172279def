# Sourced by integration suites: a private desktop session with real components.
#   session_start DIR   private D-Bus session bus (activating the headlines host of this build,
#                       reading the default config file, and nothing else: a killed dunst stays
#                       dead), Xvfb on a free display, dunst, dbus-monitor recording Notify calls,
#                       a fake browser registered for http/https, isolated XDG folders.
#   dunst_start / dunst_stop, wait_for NAME SECONDS COMMAND..., start_news_server ARTICLES LOG,
#   session_stop (also on EXIT).
# Everything it starts is killed by session_stop.

. "$(dirname "${BASH_SOURCE[0]}")/private_bus.sh"
SESSION_PIDS=()

die() { echo "FAIL: $*" >&2; exit 1; }

# wait_for DESCRIPTION SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds.
wait_for() {
    local what=$1 seconds=$2; shift 2
    local deadline=$(( $(date +%s%N) + seconds * 1000000000 ))
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s%N)" -lt "$deadline" ] || { echo "timed out after ${seconds}s waiting for $what" >&2; return 1; }
        sleep 0.1
    done
}

session_start() {
    SESSION_DIR=$1
    mkdir -p "$SESSION_DIR"/{config,cache,state,data/applications,runtime}
    chmod 700 "$SESSION_DIR/runtime"
    export HOME=$SESSION_DIR XDG_CONFIG_HOME=$SESSION_DIR/config XDG_CACHE_HOME=$SESSION_DIR/cache \
           XDG_STATE_HOME=$SESSION_DIR/state XDG_DATA_HOME=$SESSION_DIR/data XDG_RUNTIME_DIR=$SESSION_DIR/runtime
    export XDG_DATA_DIRS=$SESSION_DIR/data:/usr/share
    unset APITUBE_API_KEY NEWSAPI_API_KEY WAYLAND_DISPLAY

    headlines_service "$SESSION_DIR/services"
    cat > "$SESSION_DIR/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=$SESSION_DIR</listen>
  <servicedir>$SESSION_DIR/services</servicedir>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
    local out
    out=$(dbus-daemon --config-file="$SESSION_DIR/bus.conf" --fork --print-address=1 --print-pid=1) || die "dbus-daemon did not start"
    export DBUS_SESSION_BUS_ADDRESS=$(echo "$out" | sed -n 1p)
    SESSION_PIDS+=("$(echo "$out" | sed -n 2p)")

    exec {displayfd}<> <(:)
    Xvfb -displayfd "$displayfd" -nolisten tcp -screen 0 1280x800x24 >"$SESSION_DIR/xvfb.log" 2>&1 &
    SESSION_PIDS+=($!)
    local display=""
    read -r -t 10 display <&"$displayfd" || die "Xvfb did not report a display"
    export DISPLAY=":$display"

    cat > "$SESSION_DIR/dunstrc" <<'CONF'
[global]
    notification_limit = 5
    mouse_left_click = do_action
    show_age_threshold = -1
    markup = full
CONF
    dunst_start

    dbus-monitor --session "interface='org.freedesktop.Notifications'" >"$SESSION_DIR/monitor.log" 2>&1 &
    SESSION_PIDS+=($!)
    sleep 0.3

    # The fake browser: records every URL it is asked to open.
    BROWSER_LOG=$SESSION_DIR/opened.txt
    : >"$BROWSER_LOG"
    # Its environment too, in browser.env (one variable a line, a blank line after each run).
    cat > "$SESSION_DIR/fake-browser" <<SH
#!/bin/sh
env >> "$SESSION_DIR/browser.env"; echo >> "$SESSION_DIR/browser.env"
printf '%s\n' "\$1" >> "$BROWSER_LOG"
SH
    chmod +x "$SESSION_DIR/fake-browser"
    cat > "$SESSION_DIR/data/applications/fake-browser.desktop" <<DESK
[Desktop Entry]
Type=Application
Name=Fake Browser
Exec=$SESSION_DIR/fake-browser %u
MimeType=x-scheme-handler/http;x-scheme-handler/https;
NoDisplay=true
DESK
    cat > "$SESSION_DIR/config/mimeapps.list" <<LIST
[Default Applications]
x-scheme-handler/http=fake-browser.desktop
x-scheme-handler/https=fake-browser.desktop
LIST
    trap session_stop EXIT
}

# start_news_server ARTICLES LOG: the loopback news server (news_server.py beside this file) fed
# from the ARTICLES file; sets PORT and leaves its PID in EXTRA_PIDS for session_stop.
start_news_server() {
    exec {NEWS_FD}< <(exec python3 "$(dirname "${BASH_SOURCE[0]}")/news_server.py" --articles "$1" --log "$2")
    read -r -t 10 PORT <&"$NEWS_FD" || die "news server did not start"
    EXTRA_PIDS+=($(pgrep -f "news_server.py --articles $1"))
}

notifications_owned() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q 'boolean true'
}

dunst_start() {
    dunst -config "$SESSION_DIR/dunstrc" >>"$SESSION_DIR/dunst.log" 2>&1 &
    DUNST_PID=$!
    wait_for "dunst to own org.freedesktop.Notifications" 10 notifications_owned || die "dunst did not start"
}

dunst_stop() {
    kill "$DUNST_PID" 2>/dev/null; wait "$DUNST_PID" 2>/dev/null
    wait_for "dunst to release its name" 5 bash -c '! dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications | grep -q "boolean true"'
}

# notify_count: Notify calls recorded so far.
notify_count() { grep -c 'member=Notify$\|member=Notify ' "$SESSION_DIR/monitor.log" || true; }

# Stops the hosts the session's bus started, until the bus has let go of the name.
stop_activated_hosts() {
    pkill -TERM -f "^${HEADLINES_BIN:-/nonexistent}/headlines-host --from-bar" 2>/dev/null
    wait_for "the bus to release org.headlines.Headlines" 5 bash -c "! dbus-send --session --print-reply --dest=org.freedesktop.DBus \
        /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.headlines.Headlines | grep -q 'boolean true'"
}

session_stop() {
    [ -n "${DUNST_PID:-}" ] && kill "$DUNST_PID" 2>/dev/null
    # The hosts the session's bus started for a bar or a command.
    pkill -TERM -f "^${HEADLINES_BIN:-/nonexistent}/headlines-host --from-bar" 2>/dev/null
    for pid in "${EXTRA_PIDS[@]:-}" "${SESSION_PIDS[@]}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
}
