#!/usr/bin/env bash
# Issue 14's resident figures in one window: the idle host (`headlines run`, which execs
# headlines-host), three `headlines-bar waybar` copies following it, the C GLib floor
# (floor.c), last round's host (the baseline binary) and the `curl | jq` waybar script, all idling
# side by side for IDLE_SECONDS (default 300) after the hosts' first reload, rotation off, on a
# private D-Bus session with dunst (Xvfb for its display), as scripts/suites/notifications.sh does.
# Then, with the host still up, the one-shot figures (oneshot.py). Prints `name value unit` lines;
# a figure that cannot be taken prints `NAME.missing WHAT` instead, and the script goes on.
# Stand-ins while the binaries do not exist: HEADLINES_HOST_BIN=path/to/headlines (run as
# `headlines run`) and HEADLINES_BAR_BIN=path/to/headlines (run as `headlines waybar`).
# Usage: resident.sh BIN_DIR BASE_URL WORK_DIR
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=$1 base=$2 work=$3
IDLE_SECONDS=${IDLE_SECONDS:-300}
BASELINE_BIN=${BASELINE_BIN:-.build/baseline-22e8c70/.build/release/headlines}
HERE=scripts/bench
LIB=scripts/suites/lib
. "$LIB/session.sh"
session_start "$work/resident-session" >&2
EXTRA_PIDS=()
PROBES=()   # NAME=PID pairs measured over the window

host_bin=${HEADLINES_HOST_BIN:-}
if [ -z "$host_bin" ]; then
    if [ -x "$bin/headlines-host" ]; then host_bin=$bin/headlines; else echo "idle.host.missing headlines-host"; fi
fi
bar_bin=${HEADLINES_BAR_BIN:-$bin/headlines-bar}
[ -x "$bar_bin" ] || { echo "idle.bar.missing headlines-bar"; echo "oneshot.bar.missing headlines-bar"; bar_bin=; }

# A home of its own for each host: its own lock, runtime folder and cache; the one bus and dunst.
make_home() { # DIR -> writes DIR/env, the environment its processes run in
    local h=$1
    mkdir -p "$h"/{config/headlines,cache,state,runtime} && chmod 700 "$h/runtime"
    printf '[source]\nprovider = feeds\nfeeds = %s/feed.rss\n[refresh]\ninterval = 30m\n[bar]\nrotate = 0\n' "$base" \
        > "$h/config/headlines/headlines.conf"
    printf '%s\n' "PATH=$PATH" "HOME=$h" "XDG_CONFIG_HOME=$h/config" "XDG_CACHE_HOME=$h/cache" \
        "XDG_STATE_HOME=$h/state" "XDG_RUNTIME_DIR=$h/runtime" "XDG_DATA_HOME=$XDG_DATA_HOME" \
        "XDG_DATA_DIRS=$XDG_DATA_DIRS" "DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS" "DISPLAY=$DISPLAY" > "$h/env"
}
# Always run in the background (`in_home H CMD &`): it execs, so $! is the command's own PID.
in_home() { local h=$1; shift; local vars; mapfile -t vars < "$h/env"; exec env -i "${vars[@]}" "$@"; }

start_host() { # NAME BINARY -> HOST_PID, or returns 1 after printing NAME.missing
    local name=$1 binary=$2 h=$work/home-$1
    make_home "$h"
    in_home "$h" "$binary" run 2>"$h/host.log" &
    HOST_PID=$!
    EXTRA_PIDS+=("$HOST_PID")
    if ! wait_for "the $name host's first reload" 30 \
            bash -c "grep -q 'reload ok' '$h/host.log' || [ -s '$h/runtime/headlines/bar/waybar' ]"; then
        echo "idle.$name.missing $name-first-reload"; sed 's/^/  host log: /' "$h/host.log" | tail -5 >&2
        return 1
    fi
}

# The bar copies and the peer print into fifos that a cat drains into a file: a pipe that is read.
start_reader() { # NAME HOME COMMAND... -> READER_PID
    local name=$1 h=$2; shift 2
    mkfifo "$work/$name.fifo"
    cat "$work/$name.fifo" > "$work/$name.out" &
    EXTRA_PIDS+=($!)
    in_home "$h" "$@" > "$work/$name.fifo" 2>"$work/$name.err" &
    READER_PID=$!
    EXTRA_PIDS+=("$READER_PID")
}

host_home=$work/home-host
if [ -n "$host_bin" ] && start_host host "$host_bin"; then
    PROBES+=("host=$HOST_PID")
    host_pid=$HOST_PID
    sleep 1
    echo "idle.host.exe $(basename "$(readlink "/proc/$host_pid/exe")") name"
    python3 "$HERE/proc.py" threads host "$host_pid"
    if [ -n "$bar_bin" ]; then
        for k in 1 2 3; do
            start_reader "bar$k" "$host_home" "$bar_bin" waybar
            PROBES+=("bar$k=$READER_PID")
            wait_for "bar copy $k's first line" 10 test -s "$work/bar$k.out" || echo "idle.bar$k.missing first-line"
        done
        echo "idle.bar.exe $(basename "$(readlink "/proc/$READER_PID/exe")") name"
    fi
else
    host_pid=
fi

if [ -x "$BASELINE_BIN" ] && start_host baseline "$BASELINE_BIN"; then
    PROBES+=("baseline=$HOST_PID")
    echo "idle.baseline.commit ${BASELINE_COMMIT:-22e8c70} id"
else
    [ -x "$BASELINE_BIN" ] || echo "idle.baseline.missing $BASELINE_BIN"
fi

if command -v gcc >/dev/null && pkg-config --exists libnotify && \
        gcc -O2 "$HERE/floor.c" $(pkg-config --cflags --libs libnotify) -o "$work/floor" 2>"$work/floor.err"; then
    make_home "$work/home-floor"
    start_reader floor "$work/home-floor" "$work/floor"
    PROBES+=("floor=$READER_PID")
    wait_for "the floor" 5 test -s "$work/floor.out" || echo "idle.floor.missing start"
else
    echo "idle.floor.missing gcc-or-libnotify-dev"
fi

# The usual waybar custom script: a shell loop, curl | jq, then sleep until the next refresh.
make_home "$work/home-peer"
# (sleep in the background and wait, so a SIGTERM at the end takes the sleep with the shell.)
start_reader curl_jq "$work/home-peer" sh -c "trap 'kill \$s 2>/dev/null; exit 0' TERM
    while :; do curl -s -H 'X-API-Key: bench-key' \
    '$base/v1/news/top-headlines?fl=id,title,href,published_at,source.domain,image' \
    | jq -c '{text: .results[0].title}'; sleep 1800 & s=\$!; wait \$s; done"
PROBES+=("curl_jq=$READER_PID")
wait_for "the curl | jq script" 10 test -s "$work/curl_jq.out" || echo "idle.curl_jq.missing first-line"

sleep 2 # let every start-up settle
lines_before() { for k in 1 2 3; do [ -f "$work/bar$k.out" ] && wc -l < "$work/bar$k.out" || echo 0; done; }
mapfile -t before_lines < <(lines_before)
echo "# idling ${IDLE_SECONDS} s: ${PROBES[*]}" >&2
echo "idle.window $IDLE_SECONDS s"
python3 "$HERE/proc.py" window "$IDLE_SECONDS" "${PROBES[@]}"
mapfile -t after_lines < <(lines_before)
for k in 1 2 3; do
    [ -f "$work/bar$k.out" ] && echo "idle.bar$k.lines_in_window $(( after_lines[k-1] - before_lines[k-1] )) count"
done

# The one-shot figures, the host still up. Without one, cat, newsboat and the old one-shot still run.
if [ -n "$host_pid" ] && kill -0 "$host_pid" 2>/dev/null; then
    python3 "$HERE/oneshot.py" "$host_home/env" "$base" "$work" "$bin" "${bar_bin:-}"
else
    [ -n "$bar_bin" ] && echo "oneshot.bar.missing headlines-host"
    [ -f "$host_home/env" ] || make_home "$host_home"
    python3 "$HERE/oneshot.py" "$host_home/env" "$base" "$work" "$bin"
fi
