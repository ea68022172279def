#!/usr/bin/env python3
"""One-shot start-up cost: `headlines i3blocks` (what an interval=N block runs every N seconds)
beside `cat` of the same three lines (the floor) and a Python feedparser script printing the top
headline of the same ten headlines as RSS (the usual peer). Runs each RUNS times, alternating,
and prints `name value unit` lines: median wall time, and peak RSS measured by GNU time in a
separate pass (a child forked from this Python would carry Python's own pages into its peak).

Usage: bench_oneshot.py HEADLINES_BIN WORK_DIR BASE_URL FEED_FILE"""
import os, statistics, subprocess, sys, time

binary, work, base, feed = sys.argv[1:5]
runs = int(os.environ.get("RUNS", "40"))
home = os.path.join(work, "oneshot")
os.makedirs(os.path.join(home, "runtime"), mode=0o700, exist_ok=True)
env = {"PATH": os.environ["PATH"], "HOME": home, "XDG_RUNTIME_DIR": os.path.join(home, "runtime"),
       "XDG_CACHE_HOME": os.path.join(home, "cache"), "XDG_STATE_HOME": os.path.join(home, "state"),
       "XDG_CONFIG_HOME": os.path.join(home, "config"), "DBUS_SESSION_BUS_ADDRESS": "disabled:",
       "APITUBE_API_KEY": "bench-key"}
conf = os.path.join(home, "headlines.conf")
with open(conf, "w") as f:
    f.write(f"[source]\nbase-url = {base}\n[refresh]\ninterval = 1h\n")
# Fill the cache once, as a running host would have; the timed runs then only read it.
subprocess.run([binary, "--config", conf, "fetch"], env=env, check=True, stdout=subprocess.DEVNULL)
block = subprocess.run([binary, "--config", conf, "i3blocks"], env=env, check=True, capture_output=True).stdout
assert block.count(b"\n") == 3, block
floor_file = os.path.join(home, "block.txt")
with open(floor_file, "wb") as f:
    f.write(block)
peer = os.path.join(home, "peer.py")
with open(peer, "w") as f:
    f.write("import feedparser, sys\n"
            "d = feedparser.parse(sys.argv[1])\n"
            "e = d.entries[0]\n"
            "print(e.title + ' — ' + d.feed.title)\nprint(e.title)\nprint('#FFFFFF')\n")

commands = {
    "floor_cat": ["cat", floor_file],
    "headlines_i3blocks": [binary, "--config", conf, "i3blocks"],
    "python_feedparser": ["/usr/bin/python3", peer, feed],
}

def once(argv):
    t = time.perf_counter()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    took = time.perf_counter() - t
    assert os.waitstatus_to_exitcode(status) == 0, argv
    return took * 1000, usage.ru_maxrss  # ms, kB

def peak_rss_kb(argv):
    out = os.path.join(home, "time.out")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + argv, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(open(out).read().split()[-1])

samples = {k: [] for k in commands}
for _ in range(runs):
    for name, argv in commands.items():
        samples[name].append(once(argv)[0])
for name, argv in commands.items():
    print(f"oneshot.{name}.median_ms {statistics.median(samples[name]):.2f} ms")
    print(f"oneshot.{name}.peak_rss_kb {max(peak_rss_kb(argv) for _ in range(5))} kB")
