#!/usr/bin/env bash
# Reload latency (issues 9 and 14): from a trigger (alternately `headlines refresh` starting, and
# the SIGUSR1 it sends delivered straight to the host) to
# (a) the new line on a bar follower's stdout (`headlines-bar waybar`, read through a pipe) and
# (b) the Notify call seen on the bus (a real dunst on a private session), over RELOADS reloads
# of a feed from scripts/bench_server.py on loopback, whose log stamps each request and answer:
# the server's share (request parsed to answer built) is reported apart and taken out of the
# figure the target is about ("not counting the network"). Prints `name value unit` lines (ms),
# or `latency.missing WHAT` when the host or bar binary is not there.
# Stand-ins: HEADLINES_HOST_BIN=path/to/headlines (`headlines run`), HEADLINES_BAR_BIN=path/to/headlines.
# Usage: bench_latency.sh BIN_DIR WORK_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$1 work=$2
RELOADS=${RELOADS:-100}
host_bin=${HEADLINES_HOST_BIN:-}
[ -z "$host_bin" ] && [ -x "$bin/headlines-host" ] && host_bin=$bin/headlines
[ -n "$host_bin" ] || { echo "latency.missing headlines-host"; exit 0; }
bar_bin=${HEADLINES_BAR_BIN:-$bin/headlines-bar}
[ -x "$bar_bin" ] || { echo "latency.missing headlines-bar"; exit 0; }
LIB=scripts/suites/lib
. "$LIB/session.sh"
session_start "$work/latency-session" >&2
EXTRA_PIDS=()
feed=$work/latency-feed.xml
python3 scripts/bench/feed.py "$feed" "Latency 0"
exec {server_fd}< <(exec python3 scripts/bench_server.py --feed "$feed" --log "$work/latency-wire.jsonl")
EXTRA_PIDS+=($!)   # bash sets $! to a process substitution's PID
read -r -t 10 _ port <&"$server_fd" || die "the bench server did not start"
mkdir -p "$XDG_CONFIG_HOME/headlines"
printf '[source]\nprovider = feeds\nfeeds = http://127.0.0.1:%s/feed.rss\n[refresh]\ninterval = 24h\ndaily-budget = 1440\n[notify]\nmax-per-refresh = 50\n' \
    "$port" > "$XDG_CONFIG_HOME/headlines/headlines.conf"
python3 - "$host_bin" "$bar_bin" "$bin/headlines" "$feed" "$work/latency-wire.jsonl" "$SESSION_DIR/monitor.log" "$RELOADS" <<'PY'
import atexit, json, os, re, selectors, signal, statistics, subprocess, sys, time
host_bin, bar_bin, cli, feed, wire, monitor, reloads = sys.argv[1:8]
reloads = int(reloads)
here = os.path.join(os.getcwd(), "scripts", "bench", "feed.py")
host = subprocess.Popen([host_bin, "run"], stderr=subprocess.PIPE)
atexit.register(lambda: [p.kill() for p in (host, globals().get("bar")) if p and p.poll() is None])
os.set_blocking(host.stderr.fileno(), False)
log_sel = selectors.DefaultSelector(); log_sel.register(host.stderr, selectors.EVENT_READ)
log_tail = b""
def wait_log(pattern, timeout=10):
    """Reads the host's log until a line has pattern; never blocks past timeout."""
    global log_tail
    end = time.time() + timeout
    while time.time() < end:
        if not log_sel.select(timeout=max(0.0, end - time.time())):
            continue
        chunk = os.read(host.stderr.fileno(), 65536)
        if not chunk:
            break
        lines = (log_tail + chunk).split(b"\n")
        log_tail = lines[-1]
        if any(pattern.encode() in line for line in lines[:-1]):
            return True
    raise SystemExit(f"bench: no '{pattern}' in the host's log within {timeout} s")
wait_log("reload ok", 30)                  # the first reload (empty cache)
bar = subprocess.Popen([bar_bin, "waybar"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
sel = selectors.DefaultSelector(); sel.register(bar.stdout, selectors.EVENT_READ)
pending = b""
def bar_line_with(text, timeout=10):
    global pending
    end = time.time() + timeout
    while time.time() < end:
        for _ in sel.select(timeout=0.5):
            pending += os.read(bar.stdout.fileno(), 65536)
            lines = pending.split(b"\n")
            pending = lines[-1]
            for line in lines[:-1]:
                if text.encode() in line:
                    return time.time()
    raise SystemExit(f"bench: the bar never showed {text}")
def answered_after(t0):
    """The server's stamps for the first 200 of /feed.rss requested after t0."""
    for _ in range(100):
        for record in map(json.loads, open(wire)):
            if record["path"] == "/feed.rss" and record["status"] == 200 and record["t_request"] >= t0:
                return record
        time.sleep(0.01)
    raise SystemExit("bench: the server logged no request for the reload")
bar_line_with("Latency 0")
# Two triggers, alternating: the `headlines refresh` command (its own start-up included) and the
# SIGUSR1 it sends, straight to the host (the trigger of issue 9's figure, 6.6 ms then).
figures = {f"{how}.{what}": [] for how in ("refresh", "signal")
           for what in ("bar", "bar_without_server", "server", "trigger_to_request")}
to_notify = []
for k in range(1, reloads + 1):
    title = f"Latency {k}"
    how = "refresh" if k % 2 else "signal"
    subprocess.run([sys.executable, here, feed, title], check=True)
    t0 = time.time()
    if how == "refresh":
        trigger = subprocess.Popen([cli, "refresh"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    else:
        host.send_signal(signal.SIGUSR1)
    shown = bar_line_with(title)
    if how == "refresh":
        trigger.wait(timeout=30)
    wait_log("reload ok")
    record = answered_after(t0)
    took = (shown - t0) * 1000
    server_ms = (record["t_answer"] - record["t_request"]) * 1000
    figures[f"{how}.bar"].append(took)
    figures[f"{how}.server"].append(server_ms)
    figures[f"{how}.bar_without_server"].append(took - server_ms)
    figures[f"{how}.trigger_to_request"].append((record["t_request"] - t0) * 1000)
    end, stamp = time.time() + 5, None     # the Notify call's bus timestamp, from dbus-monitor
    while stamp is None and time.time() < end:
        text = open(monitor, errors="replace").read()
        for m in re.finditer(r"method call time=([0-9.]+) [^\n]*member=Notify\n((?:\s+.*\n){4})", text):
            if f'string "{title}"' in m.group(2):
                stamp = float(m.group(1))
        if stamp is None:
            time.sleep(0.02)
    if stamp is None:
        raise SystemExit(f"bench: no Notify for {title}")
    to_notify.append((stamp - t0) * 1000)
def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
print(f"latency.reloads {reloads} count")
print(f"latency.host.exe {os.path.basename(os.readlink(f'/proc/{host.pid}/exe'))} name")
for name, xs in sorted(figures.items()) + [("notify", to_notify)]:
    print(f"latency.{name}.p50 {statistics.median(xs):.1f} ms")
    print(f"latency.{name}.p95 {pct(xs, 95):.1f} ms")
bar.kill(); host.terminate(); host.wait(timeout=5)
PY
