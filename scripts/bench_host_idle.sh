#!/usr/bin/env bash
# The idle cost of the widget host (issue 3): a release `headlines run` against the bench server,
# after its first reload, over IDLE_SECONDS of idling, with rotation off and on. Prints
# `name value unit` lines, like headlines-bench. Wake-ups are voluntary context switches summed
# over all the process's threads (/proc/PID/task/*/status); peak RSS is VmHWM. Baselines measured
# side by side in the same window: `sleep` (the floor) and an idle python3 process.
# Usage: bench_host_idle.sh BIN_DIR BASE_URL WORK_DIR
set -euo pipefail
bin=$1 base=$2 work=$3
IDLE_SECONDS=${IDLE_SECONDS:-60}

# Per-thread voluntary context switches, "TID COUNT" lines. Threads come and go (URLSession's),
# so wake-ups over a window are: for threads alive at both ends the difference, for threads born
# in between their whole count; threads that ended in between are missed (they ran during the
# reload, not while idle).
thread_switches() {
    for f in /proc/"$1"/task/*/status; do
        awk -v tid="$(basename "$(dirname "$f")")" '/^voluntary_ctxt_switches/ {print tid, $2}' "$f" 2>/dev/null || true
    done
}
wakeups_between() { # before-file after-file
    awk 'NR == FNR { before[$1] = $2; next } { total += $2 - (($1 in before) ? before[$1] : 0) } END { print total + 0 }' "$1" "$2"
}
hwm_kb() { awk '/^VmHWM/ {print $2}' /proc/"$1"/status; }

measure_host() { # name rotate
    local name=$1 rotate=$2 home="$work/idle-$1"
    mkdir -p "$home/runtime" && chmod 700 "$home/runtime"
    cat > "$home/headlines.conf" <<CONF
[source]
base-url = $base
[refresh]
interval = 30m
[bar]
rotate = $rotate
CONF
    env -i PATH="$PATH" HOME="$home" XDG_CACHE_HOME="$home/cache" XDG_STATE_HOME="$home/state" \
        XDG_CONFIG_HOME="$home/config" XDG_RUNTIME_DIR="$home/runtime" DBUS_SESSION_BUS_ADDRESS=disabled: \
        APITUBE_API_KEY=bench-key "$bin/headlines" --config "$home/headlines.conf" run 2>"$home/host.log" &
    local pid=$!
    for _ in $(seq 100); do grep -q "reload ok" "$home/host.log" && break; sleep 0.1; done
    grep -q "reload ok" "$home/host.log" || { echo "bench: the host did not reload:" >&2; cat "$home/host.log" >&2; kill $pid; return 1; }
    sleep 1
    thread_switches $pid > "$home/before"
    sleep "$IDLE_SECONDS"
    thread_switches $pid > "$home/after"
    echo "host.$name.wakeups_per_min $(( $(wakeups_between "$home/before" "$home/after") * 60 / IDLE_SECONDS )) per-minute"
    echo "host.$name.peak_rss $(( $(hwm_kb $pid) / 1024 )) MB"
    echo "host.$name.peak_rss_kb $(hwm_kb $pid) kB"
    kill -TERM $pid; wait $pid 2>/dev/null || true
}

measure_baseline() { # name command...
    local name=$1; shift
    "$@" & local pid=$!
    sleep 1
    thread_switches $pid > "$work/before-$name"
    sleep "$IDLE_SECONDS"
    thread_switches $pid > "$work/after-$name"
    echo "baseline.$name.wakeups_per_min $(( $(wakeups_between "$work/before-$name" "$work/after-$name") * 60 / IDLE_SECONDS )) per-minute"
    echo "baseline.$name.peak_rss_kb $(hwm_kb $pid) kB"
    kill $pid 2>/dev/null; wait $pid 2>/dev/null || true
}

# The two baselines idle in the same window as the first host run.
measure_baseline sleep sleep $((IDLE_SECONDS + 30)) > "$work/idle-sleep.txt" &
measure_baseline python python3 -c "import time; time.sleep($((IDLE_SECONDS + 30)))" > "$work/idle-python.txt" &
measure_host rotation_off 0
wait
cat "$work/idle-sleep.txt" "$work/idle-python.txt"
measure_host rotation_10s 10s
