#!/usr/bin/env python3
"""Start-up of the last round's binary beside this round's, alternating runs in one process:
`headlines --version` and a one-shot `headlines i3blocks` reading a cache (what i3blocks runs
every few seconds, here with an empty cache so both print their placeholder line), median wall
time of RUNS, and peak RSS from GNU time in a separate pass (a child forked from Python would
carry Python's pages into its own peak).
Usage: bench_startup.py BASELINE_BIN CURRENT_BIN WORK_DIR"""
import os, statistics, subprocess, sys, time

baseline, current, work = sys.argv[1:4]
runs = int(os.environ.get("RUNS", "40"))
home = os.path.join(work, "startup")
os.makedirs(os.path.join(home, "runtime"), mode=0o700, exist_ok=True)
env = {"PATH": os.environ["PATH"], "HOME": home, "XDG_RUNTIME_DIR": os.path.join(home, "runtime"),
       "XDG_CACHE_HOME": os.path.join(home, "cache"), "XDG_STATE_HOME": os.path.join(home, "state"),
       "XDG_CONFIG_HOME": os.path.join(home, "config"), "DBUS_SESSION_BUS_ADDRESS": "disabled:"}

def once(argv):
    t = time.perf_counter()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    p.wait()
    return (time.perf_counter() - t) * 1000

def peak_rss_kb(argv):
    out = os.path.join(home, "time.out")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + argv, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(open(out).read().split()[-1])

commands = {}
for name, binary in (("baseline", baseline), ("current", current)):
    commands[f"{name}.version"] = [binary, "--version"]
    commands[f"{name}.i3blocks"] = [binary, "i3blocks"]
samples = {k: [] for k in commands}
for _ in range(runs):
    for name, argv in commands.items():
        samples[name].append(once(argv))
for name, argv in commands.items():
    print(f"startup.{name}.median_ms {statistics.median(samples[name]):.2f} ms")
    print(f"startup.{name}.peak_rss_kb {peak_rss_kb(argv)} kB")
