#!/usr/bin/env python3
"""Issue 14's one-shot figure, with a host running: `headlines-bar i3blocks` printing the
published lines, beside `cat` of the same lines file ($XDG_RUNTIME_DIR/headlines/bar/i3blocks),
`newsboat -x reload` of the same feed from the same bench server (a fresh cache each run, as a
block that reloads would), and the old in-process one-shot (`headlines i3blocks` with
HEADLINES_NO_BAR_EXEC=1) for reference. Paired: one loop runs each command in turn, RUNS times
(default 40); median wall time each, peak RSS by GNU time in a separate pass. Prints
`oneshot.NAME.* value unit` lines, or `oneshot.NAME.missing WHAT`.

Usage: oneshot.py ENV_FILE BASE_URL WORK_DIR BIN_DIR [BAR_BIN]"""
import os, shutil, statistics, subprocess, sys, time

env_file, base, work, bin_dir = sys.argv[1:5]
bar_bin = sys.argv[5] if len(sys.argv) > 5 else ""
runs = int(os.environ.get("ONESHOT_RUNS", os.environ.get("RUNS", "40")))
env = dict(line.rstrip("\n").split("=", 1) for line in open(env_file) if "=" in line)
home = os.path.join(work, "oneshot-newsboat")
os.makedirs(home, exist_ok=True)
lines_file = os.path.join(env["XDG_RUNTIME_DIR"], "headlines", "bar", "i3blocks")
old = os.path.join(bin_dir, "headlines")
old_env = dict(env, HEADLINES_NO_BAR_EXEC="1")

commands = {}   # name -> (argv, env)
if os.path.exists(lines_file):
    cat_source = lines_file
else:
    # No published lines (a host from before the split): cat what the old one-shot prints instead.
    print("oneshot.lines.missing bar/i3blocks")
    cat_source = os.path.join(work, "oneshot-lines.txt")
    with open(cat_source, "wb") as f:
        f.write(subprocess.run([old, "i3blocks"], env=old_env, capture_output=True).stdout)
expected = open(cat_source, "rb").read()
commands["cat"] = (["cat", cat_source], env)
if bar_bin:
    got = subprocess.run([bar_bin, "i3blocks"], env=env, capture_output=True).stdout
    print(f"oneshot.bar.matches_lines {int(got == expected)} flag")
    print(f"oneshot.bar.exe {os.path.basename(bar_bin)} name")
    commands["bar"] = ([bar_bin, "i3blocks"], env)
if os.access(old, os.X_OK):
    commands["old"] = ([old, "i3blocks"], old_env)
urls = os.path.join(home, "urls")
open(urls, "w").write(base + "/feed.rss\n")
open(os.path.join(home, "newsboat.conf"), "w").write("")
if shutil.which("newsboat"):
    commands["newsboat"] = (["newsboat", "-x", "reload", "-u", urls, "-c", os.path.join(home, "newsboat.db"),
                             "-C", os.path.join(home, "newsboat.conf")], dict(env, HOME=home))
else:
    print("oneshot.newsboat.missing newsboat")

def fresh_newsboat():
    for f in ("newsboat.db", "newsboat.db.lock"):
        try: os.remove(os.path.join(home, f))
        except FileNotFoundError: pass

def once(name):
    argv, e = commands[name]
    if name == "newsboat":
        fresh_newsboat()
    t = time.perf_counter()
    r = subprocess.run(argv, env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    took = (time.perf_counter() - t) * 1000
    if r.returncode != 0:
        raise SystemExit(f"oneshot: {' '.join(argv)} exited {r.returncode}")
    return took

def peak_kb(name):
    argv, e = commands[name]
    if name == "newsboat":
        fresh_newsboat()
    out = os.path.join(work, "oneshot-time.out")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + argv, env=e,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(open(out).read().split()[-1])

for name in commands:      # warm the page cache once, untimed
    once(name)
samples = {name: [] for name in commands}
for _ in range(runs):
    for name in commands:
        samples[name].append(once(name))
print(f"oneshot.runs {runs} count")
for name in commands:
    print(f"oneshot.{name}.median_ms {statistics.median(samples[name]):.2f} ms")
    print(f"oneshot.{name}.peak_rss_kb {max(peak_kb(name) for _ in range(3))} kB")
