#!/usr/bin/env python3
"""Peers on the same data (issue 9): one refresh of the same ten headlines from the same loopback
server, by `headlines fetch` (RSS feed path, fresh state each run: fetch, parse, cache), newsboat
(`newsboat -x reload`, fresh cache each run), a Python feedparser script (fetch and parse),
`curl | jq` on the APITube JSON (fl=), and the floor (`cat` of the feed's bytes). Median wall time
over RUNS runs, alternating, and peak RSS by GNU time. Prints `name value unit` lines.

Usage: bench_peers.py HEADLINES_BIN WORK_DIR BASE_URL"""
import os, shutil, statistics, subprocess, sys, time

binary, work, base = sys.argv[1:4]
runs = int(os.environ.get("RUNS", "20"))
home = os.path.join(work, "peers")
os.makedirs(home, exist_ok=True)
env = {"PATH": os.environ["PATH"], "HOME": home, "DBUS_SESSION_BUS_ADDRESS": "disabled:",
       "XDG_CACHE_HOME": os.path.join(home, "cache"), "XDG_STATE_HOME": os.path.join(home, "state"),
       "XDG_CONFIG_HOME": os.path.join(home, "config"), "XDG_RUNTIME_DIR": os.path.join(home, "run")}
os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)
feed = base + "/feed.rss"
conf = os.path.join(home, "headlines.conf")
open(conf, "w").write(f"[source]\nprovider = feeds\nfeeds = {feed}\n")
urls = os.path.join(home, "urls"); open(urls, "w").write(feed + "\n")
nbconf = os.path.join(home, "newsboat.conf"); open(nbconf, "w").write("")
peer = os.path.join(home, "feedparser_refresh.py")
open(peer, "w").write("import feedparser, sys, urllib.request\n"
                      "d = feedparser.parse(urllib.request.urlopen(sys.argv[1]).read())\n"
                      "print(d.entries[0].title)\n")
floor_file = os.path.join(home, "feed.xml")
with open(floor_file, "wb") as f:
    f.write(subprocess.run(["curl", "-s", feed], check=True, capture_output=True).stdout)
jq_cmd = (f"curl -s -H 'X-API-Key: bench-key' '{base}/v1/news/top-headlines?fl=id,title,href,published_at,source.domain,image' "
          "| jq -r '.results[0].title'")

def fresh_state():
    for d in ("cache", "state"):
        shutil.rmtree(os.path.join(home, d), ignore_errors=True)
    for f in ("newsboat.db", "newsboat.db.lock"):
        try: os.remove(os.path.join(home, f))
        except FileNotFoundError: pass

commands = {
    "floor_cat": ["cat", floor_file],
    "headlines_fetch": [binary, "--config", conf, "fetch"],
    "curl_jq": ["sh", "-c", jq_cmd],
    "python_feedparser": ["/usr/bin/python3", peer, feed],
    "newsboat_reload": ["newsboat", "-x", "reload", "-u", urls, "-c", os.path.join(home, "newsboat.db"), "-C", nbconf],
}

def timed(argv):
    fresh_state()
    t = time.perf_counter()
    r = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = (time.perf_counter() - t) * 1000
    if r.returncode != 0:
        raise SystemExit(f"bench: {argv[0]} failed: {r.stderr.decode()[-300:]}")
    return took

def peak_kb(argv):
    fresh_state()
    out = os.path.join(home, "time.out")
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + argv, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(open(out).read().split()[-1])

samples = {k: [] for k in commands}
for _ in range(runs):
    for name, argv in commands.items():
        samples[name].append(timed(argv))
for name, argv in commands.items():
    print(f"peers.{name}.median_ms {statistics.median(samples[name]):.2f} ms")
    print(f"peers.{name}.peak_rss_kb {max(peak_kb(argv) for _ in range(3))} kB")
