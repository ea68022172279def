#!/usr/bin/env python3
"""What a reload writes at the largest budget the config allows: `daily-budget = 86400` and
`interval = 1s`, one feed answering 304, and the host's budget ledger either empty or holding an
attempt for every second of the last 24 hours (in the one-document form earlier versions wrote,
which the host reads and rewrites once at its start, before the window).

For each ledger, after a warm-up, over BENCH_LEDGER_SECONDS (default 60): the bytes the host and
its reload children wrote (/proc/HOST/io write_bytes, which takes in each child's as the host
reaps it), their CPU as a share of one core (/proc/HOST/stat utime + stime + cutime + cstime),
the reloads made (the server's wire log), the length of each state and cache file at the
window's start and end, and the host's private dirty memory at its end (printed, not gated).
Prints `ledger.CASE.FIGURE value unit` lines."""
import json, os, sys, time
from datetime import datetime, timedelta, timezone
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import ONE_FEED, Host, answers, control, emit, feed_urls, feeds_conf, home, note, wire
import proc

SECONDS = float(os.environ.get("BENCH_LEDGER_SECONDS", "60"))
WARM_UP = 5.0
BUDGET = "[refresh]\ninterval = 1s\ndaily-budget = 86400\n"
FILES = ["state/headlines/ledger.json", "state/headlines/status.json", "state/headlines/seen.json",
         "cache/headlines/headlines.json", "cache/headlines/feeds.json"]


def write_bytes(pid):
    with open(f"/proc/{pid}/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("write_bytes:"))


def sizes(env):
    """"name:bytes,..." of FILES in env's home ("-": none)."""
    def size(p):
        p = os.path.join(env["HOME"], p)
        return os.path.getsize(p) if os.path.exists(p) else "-"
    return ",".join(f"{os.path.basename(p)}:{size(p)}" for p in FILES)


def on_tmpfs(path):
    """write_bytes counts what goes to a disk: nothing written to a tmpfs shows."""
    mounts = [line.split()[1:3] for line in open("/proc/self/mounts")]
    best = max((m for m in mounts if path == m[0] or path.startswith(m[0].rstrip("/") + "/")), key=lambda m: len(m[0]))
    return best[1] == "tmpfs"


def day_of_attempts(path):
    """An attempt every second of the last 24 hours but the newest second: one reload may go out."""
    now = datetime.now(timezone.utc)
    stamps = []
    for ago in range(86_399, 0, -1):
        t = now - timedelta(seconds=ago)
        stamps.append(t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"attempts": stamps, "consecutiveFailures": 0, "lastOutcome": "success"}, f, separators=(",", ":"))


def measure(case, full):
    client = f"headlines-ledger-{case}"
    env = home(f"ledger-{case}", feeds_conf(feed_urls(client, ONE_FEED), BUDGET))
    if on_tmpfs(os.path.realpath(env["XDG_STATE_HOME"])):
        raise SystemExit(f"bench: {env['XDG_STATE_HOME']} is on a tmpfs, where write_bytes counts nothing: "
                         "run with TMPDIR on a disk")
    if full:
        day_of_attempts(os.path.join(env["XDG_STATE_HOME"], "headlines", "ledger.json"))
    host = Host(env)
    time.sleep(WARM_UP)
    if not wire(client):
        raise SystemExit(f"bench: {client}: no request reached the server")
    before_files, since = sizes(env), time.time()
    written, cpu = write_bytes(host.pid), sum(proc.cpu_ticks(host.pid))
    time.sleep(SECONDS)
    written, cpu = write_bytes(host.pid) - written, sum(proc.cpu_ticks(host.pid)) - cpu
    elapsed = time.time() - since
    memory = proc.rollup(host.pid)
    records = wire(client, since)
    host.stop()
    emit(f"ledger.{case}.seconds", f"{elapsed:.1f}", "s")
    emit(f"ledger.{case}.reloads", len(records), "count")
    emit(f"ledger.{case}.answers", answers(records), "status")
    emit(f"ledger.{case}.write_kib_s", f"{written / 1024 / elapsed:.1f}", "KiB/s")
    emit(f"ledger.{case}.cpu_pct", f"{cpu / proc.TICK / elapsed * 100:.1f}", "%")
    emit(f"ledger.{case}.host_private_dirty_kb", memory.get("Private_Dirty", "-"), "kB")
    emit(f"ledger.{case}.files_start", before_files, "bytes")
    emit(f"ledger.{case}.files_end", sizes(env), "bytes")


control(mode="unchanged")
for case, full in (("empty", False), ("full", True)):
    note(f"the ledger {case}: daily-budget 86400, interval 1s, one feed answering 304, {SECONDS:.0f} s")
    measure(case, full)
control(mode="changing")
