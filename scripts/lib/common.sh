# The shell suites' one library, sourced first by every suite (scripts/suites/*.sh) and by the
# hostile sub-suites that run real programs. It also sources session.sh (a private desktop session
# with dunst) and sway.sh (a headless sway as an unprivileged user). At exit it runs EXIT_HOOKS,
# stops every PID in PIDS, and removes WORK if suite_dir made it and the suite passed (a failed
# run keeps it and says where).
#   die / ok MESSAGE, row AREA FAULT OUTCOME PASS|FAIL (a hostile-world row), with_commas N
#   not_ok MESSAGE            a failed check that does not stop the suite, counted in $failed
#   check MESSAGE COMMAND...  ok MESSAGE when COMMAND succeeds, else not_ok MESSAGE
#   wait_for DESCRIPTION SECONDS COMMAND...   polls COMMAND (a function too) until it succeeds
#   suite_dir NAME            WORK=/tmp/headlines-NAME.XXXXXX
#   isolated_home DIR         HOME and every XDG folder under DIR; no display, no key
#   install_programs DIR      the four programs of $HEADLINES_BIN side by side, as make install puts them
#   start_news_server LOG OPTION...   lib/news_server.py on loopback (options: see that file); sets PORT
#   news_config FILE LINE...  a config whose source is that server, then each LINE
#   start_xvfb LOG            Xvfb on a free display; exports DISPLAY
#   bus_config FILE ADDRESS [SERVICE_DIR [standard]], private_bus_start FOLDER [SERVICE_DIR]   a session
#                             bus; with "standard", the system's session services (dconf ...) too,
#                             after SERVICE_DIR's
#   headlines_service DIR [EXEC]   the packaged service file, activating EXEC (this build's host)
#   window_still CLASS        the first visible X window of CLASS, once it holds still: sets X, Y, WIDTH, HEIGHT
#   fake_browser DIR          the default browser for http(s) in DIR's home: records each URL in
#                             BROWSER_LOG, its environment in DIR/browser.env
LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PIDS=()
EXIT_HOOKS=()

die() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "  ok: $*"; }
failed=0
not_ok() { echo "  not ok: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
row() { # AREA FAULT OUTCOME PASS|FAIL: one line of scripts/hostile.sh's table
    local outcome=${3//$'\t'/ }; outcome=${outcome//$'\n'/ }
    printf 'ROW\t%s\t%s\t%s\t%s\n' "$1" "$2" "$outcome" "$4"
}
with_commas() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta'; }

wait_for() {
    local what=$1 seconds=$2; shift 2
    local deadline=$(( $(date +%s%N) + seconds * 1000000000 ))
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s%N)" -lt "$deadline" ] || { echo "timed out after ${seconds}s waiting for $what" >&2; return 1; }
        sleep 0.05
    done
}

suite_stop() {
    local status=$? hook pid
    for hook in "${EXIT_HOOKS[@]}"; do eval "$hook"; done
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
    [ -n "${WORK_MADE:-}" ] || return 0
    if [ "$status" -eq 0 ]; then rm -rf "$WORK_MADE"; else echo "kept $WORK_MADE for a look" >&2; fi
}
trap suite_stop EXIT
suite_dir() { WORK=$(mktemp -d "/tmp/headlines-$1.XXXXXX"); WORK_MADE=$WORK; }

isolated_home() {
    mkdir -p "$1"/{config,cache,state,data/applications,runtime}
    chmod 700 "$1/runtime"
    export HOME=$1 XDG_CONFIG_HOME=$1/config XDG_CACHE_HOME=$1/cache XDG_STATE_HOME=$1/state \
           XDG_DATA_HOME=$1/data XDG_RUNTIME_DIR=$1/runtime XDG_DATA_DIRS=$1/data:/usr/share
    unset APITUBE_API_KEY NEWSAPI_API_KEY DISPLAY WAYLAND_DISPLAY
}
install_programs() {
    local program
    for program in headlines headlines-host headlines-reload headlines-fetch headlines-bar; do
        install -m 755 "${HEADLINES_BIN:?}/$program" "$1/$program"
    done
}

start_news_server() {
    local log=$1; shift
    : > "$log"
    exec {NEWS_FD}< <(exec python3 "$LIB/news_server.py" --log "$log" "$@")
    PIDS+=($!)
    read -r -t 10 PORT <&"$NEWS_FD" || die "the news server did not start"
}
news_config() { local file=$1; shift; printf '%s\n' '[source]' "base-url = http://127.0.0.1:$PORT" "$@" > "$file"; }

start_xvfb() {
    local displayfd display=""
    exec {displayfd}<> <(:)
    Xvfb -displayfd "$displayfd" -nolisten tcp -screen 0 1280x800x24 >"$1" 2>&1 &
    PIDS+=($!)
    read -r -t 10 display <&"$displayfd" || die "Xvfb did not report a display"
    export DISPLAY=":$display"
}

bus_config() {
    { echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"'
      echo ' "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
      echo "<busconfig><type>session</type><listen>$2</listen>"
      [ -z "${3:-}" ] || echo "<servicedir>$3</servicedir>"
      [ "${4:-}" != standard ] || echo "<standard_session_servicedirs/>"
      # Eavesdropping too: dbus-monitor records the Notify calls.
      echo '<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow receive_sender="*"/>'
      echo '<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>'; } > "$1"
}
private_bus_start() {
    mkdir -p "$1"
    bus_config "$1/bus.conf" "unix:path=$1/bus" "${2:-}"
    local out
    out=$(dbus-daemon --config-file="$1/bus.conf" --fork --print-address=1 --print-pid=1) || die "dbus-daemon did not start"
    export DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p <<<"$out")
    BUS_PID=$(sed -n 2p <<<"$out")
    PIDS+=("$BUS_PID")
}
headlines_service() {
    mkdir -p "$1"
    sed "s|^Exec=.*|Exec=${2:-${HEADLINES_BIN:?}/headlines-host --from-bar}|; /^SystemdService=/d" \
        "$LIB/../../packaging/dbus/org.headlines.Headlines.service" > "$1/org.headlines.Headlines.service"
}

fake_browser() {
    BROWSER_LOG=$1/opened.txt
    : >"$BROWSER_LOG"
    printf '#!/bin/sh\nenv >> "%s/browser.env"; echo >> "%s/browser.env"\nprintf "%%s\\n" "$1" >> "%s"\n' \
        "$1" "$1" "$BROWSER_LOG" > "$1/fake-browser"
    chmod +x "$1/fake-browser"
    printf '[Desktop Entry]\nType=Application\nName=Fake Browser\nExec=%s %%u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\nNoDisplay=true\n' \
        "$1/fake-browser" > "$1/data/applications/fake-browser.desktop"
    printf '[Default Applications]\nx-scheme-handler/http=fake-browser.desktop\nx-scheme-handler/https=fake-browser.desktop\n' \
        > "$1/config/mimeapps.list"
}

first_window() { WINDOW=$(xdotool search --onlyvisible --class "$1" 2>/dev/null | head -n 1); [ -n "$WINDOW" ]; }
window_still() {
    wait_for "a $1 window" 5 first_window "$1" || die "no $1 window on the display"
    # A server may still slide it in or place it: wait until its geometry holds still.
    local geometry="" last=""
    for _ in $(seq 30); do
        geometry=$(xdotool getwindowgeometry --shell "$WINDOW" 2>/dev/null)
        [ -n "$geometry" ] && [ "$geometry" = "$last" ] && break
        last=$geometry; sleep 0.2
    done
    eval "$geometry"
}

. "$LIB/session.sh"
. "$LIB/sway.sh"
