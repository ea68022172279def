#!/usr/bin/env bash
# Reload latency (issue 9): from a reload trigger (SIGUSR1 to the host, what `headlines refresh`
# sends) to (a) the new bar line printed by a `headlines waybar` follower and (b) the Notify call
# seen on the bus, over RELOADS reloads against a loopback server, with a real dunst on a private
# session. Prints `name value unit` lines (p50/p95 in ms).
# Usage: bench_latency.sh BIN_DIR WORK_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
bin=$1 work=$2
RELOADS=${RELOADS:-100}
LIB=scripts/suites/lib
. "$LIB/session.sh"
session_start "$work/latency-session"
EXTRA_PIDS=()
articles=$work/latency-articles.json
python3 "$LIB/articles.py" "$articles" 5 "Latency 0"
start_news_server "$articles" "$work/latency-requests.log"
port=$PORT
printf '[source]\nprovider = apitube\nbase-url = http://127.0.0.1:%s\n[refresh]\ninterval = 24h\ndaily-budget = 1440\n[notify]\nmax-per-refresh = 50\n' "$port" > "$work/latency.conf"
export APITUBE_API_KEY=bench-key
python3 - "$bin/headlines" "$work/latency.conf" "$articles" "$SESSION_DIR/monitor.log" "$RELOADS" "$LIB" <<'PY'
import json, os, re, selectors, signal, statistics, subprocess, sys, time
binary, conf, articles, monitor, reloads, lib = sys.argv[1:7]
reloads = int(reloads)
host = subprocess.Popen([binary, "--config", conf, "run"], stderr=subprocess.PIPE, text=True)
def wait_log(pattern, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        line = host.stderr.readline()
        if pattern in line:
            return line
    raise SystemExit(f"bench: no '{pattern}' from the host")
wait_log("reload ok")                      # the first reload (empty cache)
bar = subprocess.Popen([binary, "--config", conf, "waybar"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
sel = selectors.DefaultSelector(); sel.register(bar.stdout, selectors.EVENT_READ)
def bar_line_with(text, timeout=10):
    end = time.time() + timeout
    buf = b""
    while time.time() < end:
        for _ in sel.select(timeout=0.5):
            chunk = os.read(bar.stdout.fileno(), 65536)
            buf += chunk
            for line in buf.split(b"\n")[:-1]:
                if text.encode() in line:
                    return time.time()
            buf = buf.rsplit(b"\n", 1)[-1]
    raise SystemExit(f"bench: the bar never showed {text}")
bar_line_with("Latency 0")
to_bar, to_notify = [], []
for k in range(1, reloads + 1):
    title = f"Latency {k}"
    subprocess.run([sys.executable, os.path.join(lib, "articles.py"), articles, "5", title], check=True)
    t0 = time.time()
    host.send_signal(signal.SIGUSR1)
    to_bar.append((bar_line_with(title) - t0) * 1000)
    wait_log("reload ok")
    # the Notify call's bus timestamp, from dbus-monitor
    end = time.time() + 5
    stamp = None
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
print(f"latency.bar.p50 {statistics.median(to_bar):.1f} ms")
print(f"latency.bar.p95 {pct(to_bar, 95):.1f} ms")
print(f"latency.notify.p50 {statistics.median(to_notify):.1f} ms")
print(f"latency.notify.p95 {pct(to_notify, 95):.1f} ms")
bar.kill(); host.send_signal(signal.SIGTERM); host.wait(timeout=5)
PY
