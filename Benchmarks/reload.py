#!/usr/bin/env python3
"""What a reload costs, and a day at the defaults, for headlines and its peers fetching the same
real feeds from the same server (every answer after 200 ms), one after the other:

  one, ten   CPU per reload of 1 and of 10 real feeds (every fetch a 200 with the whole body):
             headlines (host + reload child), `newsboat -x reload`, the python3 feedparser loop;
             BENCH_CPU_RELOADS reloads each (default 20; 10 for ten feeds).
  startup    what starting and ending costs with no work: headlines-reload --version, newsboat
             --version, a C program linking the child's shared libraries; BENCH_STARTUP_RUNS each.
  day        the four default-like feeds, feeds changing (200s) and unchanged (304s):
             headlines (host + child + one `headlines-bar waybar` follower), newsboat, feedparser;
             BENCH_DAY_RELOADS reloads each (default 20).
  maxage     the four feeds sending Cache-Control: max-age=3600, the host reloading on its own
             schedule, scaled down in time (BENCH_MAXAGE_INTERVAL s for the half hour, default 3;
             BENCH_MAXAGE_SLOTS intervals, default 12), beside newsboat; requests per feed too.
  api        the same with a key set (the defaults then read APITube): headlines' APITube
             provider beside the `curl | jq` loop, on the same JSON.

headlines runs as shipped but for the meter (meter.c) standing in as `headlines-reload` beside a
copy of headlines-host: it runs the real child and logs the child's rusage, which is how its
context switches are known. Host and follower CPU: /proc/PID/stat (exact to a tick over all the
reloads); their wake-ups: their threads' context switches (proc.Switches). newsboat and the curl |
jq loop: wait4's rusage of each run or loop. feedparser: its own getrusage, round by round. Bytes:
the server's wire log. Prints `reload.CASE[.MODE].TOOL.FIGURE value unit` lines, per reload."""
import os, sqlite3, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (BASE, BIN, DEFAULT_FEEDS, HERE, BENCH_NOTIFY, ONE_FEED, PYTHON, RELOADS_A_DAY, TEN_FEEDS, WORK, Follower,
                    Host, answers, control, emit, feed_urls, feeds_conf, home, note, rusage_run, wait_until, wire)
import proc

SETTLE = 0.2            # after each reload, before the next: the host finishes its own part
METER_LOG = os.path.join(WORK, "meter.log")
METER_HOST = os.path.join(WORK, "meter-bin", "headlines-host")
API_PATH = "v1/news/top-headlines"
cpu_reloads = int(os.environ.get("BENCH_CPU_RELOADS", "20"))
ten_reloads = int(os.environ.get("BENCH_CPU_RELOADS", "10"))
day_reloads = int(os.environ.get("BENCH_DAY_RELOADS", "20"))
maxage_interval = int(os.environ.get("BENCH_MAXAGE_INTERVAL", "3"))
maxage_slots = int(os.environ.get("BENCH_MAXAGE_SLOTS", "12"))
startup_runs = int(os.environ.get("BENCH_STARTUP_RUNS", "50"))


def meter_lines():
    try:
        with open(METER_LOG) as f:
            return [list(map(int, line.split())) for line in f]
    except FileNotFoundError:
        return []


def wire_figures(prefix, client, since, n, records=None, feeds=None):
    records = wire(client, since) if records is None else records
    emit(f"{prefix}.bytes", round(sum(r["wire_bytes"] for r in records) / n), "B")
    emit(f"{prefix}.answers", answers(records), "status")
    if feeds:
        emit(f"{prefix}.requests_per_feed", f"{len(records) / n / feeds:.3f}", "count")


def emit_costs(prefix, n, cpu_us, wakeups, involuntary):
    """A peer's CPU and wake-ups, per reload, from its totals over n reloads."""
    emit(f"{prefix}.cpu_ms", ms(cpu_us / n), "ms")
    emit(f"{prefix}.wakeups", f"{wakeups / n:.1f}", "count")
    emit(f"{prefix}.involuntary", f"{involuntary / n:.1f}", "count")


def ms(us):
    return f"{us / 1000:.1f}"


class Headlines:
    """One metered host (and, for the day, one follower) for a case."""

    def __init__(self, case, conf, env_extra=None, follower=False):
        self.client = f"headlines-{case}"
        self.env = dict(home(f"reload-{case}", conf.replace("CLIENT", self.client)), **(env_extra or {}))
        self.host = Host(self.env, binary=METER_HOST)
        wait_until("the first reload child to end", 30, lambda: len(proc.tree(self.host.pid)) == 1)
        self.follower = Follower([os.path.join(BIN, "headlines-bar"), "waybar"], self.env) if follower else None
        if self.follower:
            self.follower.wait_line('"text"', 0)
        feeds = os.path.join(self.env["XDG_CACHE_HOME"], "headlines", "feeds.json")
        if os.path.exists(feeds) and '"lastError"' in open(feeds).read():
            raise SystemExit(f"bench: a feed failed in headlines' first reload: see {feeds}")

    def reload(self):
        before = len(meter_lines())
        if self.host.bus_reload().wait(timeout=30) != 0:
            raise SystemExit(f"bench: {self.client}: the host did not answer Reload on the bus")
        wait_until("the reload child's rusage", 60, lambda: len(meter_lines()) > before)
        wait_until("the reload child to end", 10, lambda: len(proc.tree(self.host.pid)) == 1)
        time.sleep(SETTLE)

    def measure(self, prefix, n, feeds=None):
        """n explicit reloads (the bus's Reload, as `headlines refresh`), after one warm-up."""
        self.reload()   # warm-up: the mode's first answer (an unchanged feed's validators)
        window = self.window()
        for _ in range(n):
            self.reload()
        children = window.children()
        if len(children) != n or any(c[5] != 0 for c in children):
            raise SystemExit(f"bench: {prefix}: {len(children)} reload children for {n} reloads, exit statuses {[c[5] for c in children]}")
        window.emit(prefix, n, children, feeds)

    def measure_scheduled(self, prefix, slots, interval, feeds):
        """The host left to its own schedule for `slots` reload intervals: the reloads it starts,
        and those it skips because no feed is due, are what a day of them costs."""
        wait_until("a scheduled reload", interval * 3, lambda: len(proc.tree(self.host.pid)) > 1)
        wait_until("the reload child to end", 30, lambda: len(proc.tree(self.host.pid)) == 1)
        window = self.window()
        time.sleep(slots * interval)
        children = window.children()
        if any(c[5] != 0 for c in children):
            raise SystemExit(f"bench: {prefix}: reload children exited {[c[5] for c in children]}")
        window.emit(prefix, slots, children, feeds)
        emit(f"{prefix}.children", f"{len(children) / slots:.2f}", "count")

    def window(self):
        return Window(self)

    def stop(self):
        if self.follower:
            self.follower.stop()
        self.host.stop()


class Window:
    """A metered stretch of one headlines host: its CPU, its reload children's and its
    follower's, their wake-ups and the bytes on the wire, per reload (or per reload interval)."""

    def __init__(self, headlines):
        self.h = headlines
        self.first, self.since = len(meter_lines()), time.time()
        self.pids = {"host": headlines.host.pid, **({"follower": headlines.follower.pid} if headlines.follower else {})}
        self.ticks = {k: proc.cpu_ticks(p) for k, p in self.pids.items()}
        self.switches = proc.Switches(self.pids, every=0.01).start()

    def children(self):
        self.switches.stop()
        return meter_lines()[self.first:]

    def emit(self, prefix, n, children, feeds=None):
        after = {k: proc.cpu_ticks(p) for k, p in self.pids.items()}
        host_us = (after["host"][0] - self.ticks["host"][0]) * 1e6 / proc.TICK
        child_us = sum(c[0] + c[1] for c in children)
        bar_us = (after["follower"][0] - self.ticks["follower"][0]) * 1e6 / proc.TICK if self.h.follower else 0
        switches = self.switches
        emit(f"{prefix}.cpu_ms", ms((host_us + child_us + bar_us) / n), "ms")
        emit(f"{prefix}.host_cpu_ms", ms(host_us / n), "ms")
        emit(f"{prefix}.child_cpu_ms", ms(child_us / n), "ms")
        # Cross-check: the host's reaped children by /proc (the meter's own fork and wait included).
        emit(f"{prefix}.children_by_proc_ms", ms((after["host"][1] - self.ticks["host"][1]) * 1e6 / proc.TICK / n), "ms")
        child_wakeups = sum(c[2] + c[3] for c in children)
        involuntary = switches.count("host", involuntary_only=True) + sum(c[3] for c in children)
        emit(f"{prefix}.host_wakeups", f"{switches.count('host') / n:.1f}", "count")
        emit(f"{prefix}.host_wakeups_by_thread", switches.by_thread("host"), "names")
        emit(f"{prefix}.child_wakeups", f"{child_wakeups / n:.1f}", "count")
        wakeups = switches.count("host") + child_wakeups
        if self.h.follower:
            emit(f"{prefix}.bar_cpu_ms", ms(bar_us / n), "ms")
            emit(f"{prefix}.bar_wakeups", f"{switches.count('follower') / n:.1f}", "count")
            wakeups += switches.count("follower")
            involuntary += switches.count("follower", involuntary_only=True)
        emit(f"{prefix}.wakeups", f"{wakeups / n:.1f}", "count")
        emit(f"{prefix}.involuntary", f"{involuntary / n:.1f}", "count")
        emit(f"{prefix}.host_threads_ended", switches.ended("host"), "count")
        if children:
            emit(f"{prefix}.child_peak_rss_kb", max(c[4] for c in children), "kB")
        wire_figures(prefix, self.h.client, self.since, n, feeds=feeds)


class Newsboat:
    def __init__(self, case, paths):
        self.client = f"newsboat-{case}"
        self.env = home(f"reload-{self.client}", "")
        h = self.env["HOME"]
        with open(f"{h}/urls", "w") as f:
            f.write("".join(u + "\n" for u in feed_urls(self.client, paths)))
        open(f"{h}/newsboat.conf", "w").close()
        self.db = f"{h}/cache.db"
        self.argv = ["newsboat", "-x", "reload", "-u", f"{h}/urls", "-c", self.db, "-C", f"{h}/newsboat.conf"]
        self.paths = paths

    def measure(self, prefix, n):
        rusage_run(self.argv, self.env)   # warm-up: its cache holds the feeds and their validators
        with sqlite3.connect(self.db) as db:
            read = {url for (url,) in db.execute("SELECT DISTINCT feedurl FROM rss_item")}
        if len(read) != len(self.paths):
            raise SystemExit(f"bench: newsboat read items from {len(read)} of {len(self.paths)} feeds")
        since, runs = time.time(), []
        for _ in range(n):
            runs.append(rusage_run(self.argv, self.env))
            time.sleep(SETTLE)
        emit_costs(prefix, n, *(sum(r[k] for r in runs) for k in range(3)))
        wire_figures(prefix, self.client, since, n, feeds=len(self.paths))


def feedparser(case, paths, prefix, n):
    """n rounds of the loop after one warm-up round (its imports, an unchanged feed's validators)."""
    client = f"feedparser-{case}"
    report = os.path.join(WORK, prefix + ".rounds")
    since = time.time()
    rusage_run([PYTHON, os.path.join(HERE, "feedparser_loop.py"), "--report", report, str(SETTLE), str(n + 1)]
               + feed_urls(client, paths), home(f"reload-{client}", ""))
    rounds = [list(map(int, line.split())) for line in open(report)][1:]
    emit_costs(prefix, n, sum(r[0] + r[1] for r in rounds), sum(r[2] + r[3] for r in rounds), sum(r[3] for r in rounds))
    # The loop fetches its feeds one after the other: its first round's answers come first.
    wire_figures(prefix, client, since, n, records=wire(client, since)[len(paths):])


def curl_jq(prefix, n):
    client = "curl-jq-api"
    url = f"{BASE}/{client}/{API_PATH}?fl=id,title,href,published_at,source.domain,image"
    since = time.time()
    cost = rusage_run(["sh", os.path.join(HERE, "curl_jq_loop.sh"), str(SETTLE), str(n), url, "bench-key"],
                      home(f"reload-{client}", ""))
    emit_costs(prefix, n, *cost[:3])
    wire_figures(prefix, client, since, n)


budget = "[refresh]\ndaily-budget = 1440\n"   # more reloads than a day's 48 in one home
control(mode="changing", delay_ms=200)
for case, paths, n in (("one", ONE_FEED, cpu_reloads), ("ten", TEN_FEEDS, ten_reloads)):
    note(f"CPU per reload, {len(paths)} feed(s), {n} reloads each")
    emit(f"reload.{case}.feeds", len(paths), "count")
    emit(f"reload.{case}.reloads", n, "count")
    emit(f"reload.{case}.feed_bytes", sum(os.path.getsize(os.path.join("Fixtures/real-world", p)) for p in paths), "B")
    h = Headlines(case, feeds_conf(feed_urls("CLIENT", paths), budget))
    h.measure(f"reload.{case}.headlines", n)
    h.stop()
    Newsboat(case, paths).measure(f"reload.{case}.newsboat", n)
    feedparser(case, paths, f"reload.{case}.feedparser", n)

# What starting and ending a process costs before any work, beside the peer that pays the same:
# headlines-reload linking its libraries and the Swift runtime, newsboat, and the C program that
# links the child's shared libraries and returns (bench.sh). Printed, never gated.
note(f"start-up and exit with no work, {startup_runs} runs each")
emit("reload.startup.runs", startup_runs, "count")
for name, argv in (("headlines_reload", [os.path.join(BIN, "headlines-reload"), "--version"]),
                   ("newsboat", ["newsboat", "--version"]),
                   ("child_libraries", [os.path.join(WORK, "child-libraries")])):
    runs = [rusage_run(argv, home("startup", "")) for _ in range(startup_runs)]
    emit(f"reload.startup.{name}.cpu_ms", ms(sum(r[0] for r in runs) / startup_runs), "ms")
    emit(f"reload.startup.{name}.page_faults", f"{sum(r[3] for r in runs) / startup_runs:.0f}", "count")
emit("reload.startup.child_libraries.count", len(subprocess.run(["ldd", os.path.join(WORK, "child-libraries")],
                                                                capture_output=True, text=True).stdout.splitlines()), "count")

note(f"a day at the defaults: the four feeds and the API, changing and unchanged, {day_reloads} reloads each")
emit("reload.day.reloads", day_reloads, "count")
emit("reload.day.per_day", RELOADS_A_DAY, "count")
# One host at a time: a host owns org.headlines.Headlines on the session bus, and a second one exits.
day = Headlines("day", feeds_conf(feed_urls("CLIENT", DEFAULT_FEEDS), budget), follower=True)
boat = Newsboat("day", DEFAULT_FEEDS)
for mode in ("changing", "unchanged"):
    control(mode=mode)
    day.measure(f"reload.day.{mode}.headlines", day_reloads, feeds=len(DEFAULT_FEEDS))
    boat.measure(f"reload.day.{mode}.newsboat", day_reloads)
    feedparser("day", DEFAULT_FEEDS, f"reload.day.{mode}.feedparser", day_reloads)
day.stop()
# The same feeds saying they keep an hour (Cache-Control: max-age=3600) at the defaults' reload
# every half hour, with both times divided by the same factor: the host left to its own schedule
# (an explicit reload fetches every feed whatever max-age says), each of its reload intervals one
# of the day's. newsboat has no per-feed schedule: it fetches every feed at every reload.
note(f"a day of feeds with max-age=3600: {maxage_slots} reload intervals of {maxage_interval} s, max-age {2 * maxage_interval} s")
control(mode="unchanged", max_age=2 * maxage_interval)
scheduled = Headlines("maxage", feeds_conf(feed_urls("CLIENT", DEFAULT_FEEDS),
                                           f"[refresh]\ninterval = {maxage_interval}s\ndaily-budget = 86400\n"), follower=True)
scheduled.measure_scheduled("reload.maxage.headlines", maxage_slots, maxage_interval, len(DEFAULT_FEEDS))
scheduled.stop()
boat.measure("reload.maxage.newsboat", day_reloads)
control(mode="changing", max_age=0)
api = Headlines("api", f"[source]\nprovider = apitube\nbase-url = {BASE}/CLIENT\n{BENCH_NOTIFY}{budget}",
                env_extra={"APITUBE_API_KEY": "bench-key"}, follower=True)
for mode in ("changing", "unchanged"):
    control(mode=mode)
    api.measure(f"reload.api.{mode}.headlines", day_reloads)
    curl_jq(f"reload.api.{mode}.curl_jq", day_reloads)
api.stop()
control(mode="changing")
