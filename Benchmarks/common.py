"""What make bench's sections share: the run's folders and server, private homes, the feeds,
the programs under test, and the `name value unit` lines every section prints.

Set by Benchmarks/sections.sh: BENCH_BIN (the release build folder), BENCH_WORK (this run's
folder), BENCH_RUNTIME (a tmpfs in it, for the runtime folders), BENCH_BASE (the server,
http://127.0.0.1:PORT), BENCH_WIRE (its wire log), and the private session's
DBUS_SESSION_BUS_ADDRESS, DISPLAY, XDG_DATA_DIRS and SESSION_DIR."""
import atexit, json, os, subprocess, sys, tempfile, threading, time, urllib.request

BIN = os.environ["BENCH_BIN"]
WORK = os.environ["BENCH_WORK"]
RUNTIME = os.environ["BENCH_RUNTIME"]
BASE = os.environ["BENCH_BASE"]
WIRE = os.environ["BENCH_WIRE"]
HERE = os.path.dirname(os.path.abspath(__file__))
MONITOR = os.path.join(os.environ["SESSION_DIR"], "monitor.log")
PYTHON = "/usr/bin/python3"   # Debian's, where python3-feedparser is

# The defaults' four keyless feeds are BBC World, NPR, The Guardian World and Al Jazeera
# (Config.defaultFeeds); the corpus has real captures of BBC and The Guardian, and Reuters and
# The New York Times stand in for the other two.
DEFAULT_FEEDS = ["feed-rs/rss_2.0_bbc.xml", "rss-parser/guardian.rss",
                 "feedreader-dotnet/Rss20Reuters.xml", "feedreader-dotnet/Rss20NYTimes.xml"]
# Ten news sites' real feeds, RSS 2.0, RSS 1.0 and Atom, 21 to 151 kB: what a reader follows.
TEN_FEEDS = ["feedreader-dotnet/Rss20NYTimes.xml", "rss-parser/guardian.rss", "feedreader-dotnet/Rss20Reuters.xml",
             "feedreader-dotnet/AtomTheVerge.xml", "feeder/golem-de.xml", "feeder/rdf_slashdot.xml",
             "rss-parser/heise.atom", "netnewswire/macworld.rss", "feedreader-dotnet/Rss20JapanTimes.xml",
             "netnewswire/aktuality.rss"]
ONE_FEED = TEN_FEEDS[:1]
# How a measured host notifies. Images off: the real feeds' image URLs are on the real network,
# which the bench cannot reach; with images on, every reload would try the page's images again
# (none gets stored). Off, a reload does what it does once the images are stored: no image fetch.
# Notifications still show, without images. No hourly cap: the bench packs a day's reloads into
# seconds, and a day at the defaults (two reloads an hour) never reaches it; with the cap, all but
# the first twenty reloads' notifications would be held, and cost less than a real day's.
BENCH_NOTIFY = "[notify]\nimages = false\nmax-per-hour = 500\n"
# Reloads a day at the defaults: one every [refresh] interval (30 minutes), at most
# [refresh] daily-budget (48) in any 24 hours (Config.swift).
DEFAULT_INTERVAL_S, DEFAULT_BUDGET = 30 * 60, 48
RELOADS_A_DAY = min(24 * 3600 // DEFAULT_INTERVAL_S, DEFAULT_BUDGET)


def targets():
    """targets.json, where every target of the bench is written (report.py judges by it)."""
    with open(os.path.join(HERE, "targets.json")) as f:
        return json.load(f)


def emit(name, value, unit):
    print(f"{name} {value} {unit}", flush=True)


def note(text):
    print(f"# {text}", file=sys.stderr, flush=True)


def feed_urls(client, paths):
    return [f"{BASE}/{client}/feeds/{p}" for p in paths]


def control(mode=None, delay_ms=None, max_age=None):
    query = "&".join(f"{k}={v}" for k, v in (("mode", mode), ("delay_ms", delay_ms), ("max_age", max_age)) if v is not None)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    opener.open(f"{BASE}/control?{query}", timeout=10).read()


def wire(client, since=0.0):
    """The server's records for client with t_request >= since."""
    with open(WIRE) as f:
        return [r for r in map(json.loads, f) if r["client"] == client and r["t_request"] >= since]


def answers(records):
    """"200x20,304x1": how many of the server's records had each status ("-" for none)."""
    statuses = {}
    for r in records:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    return ",".join(f"{s}x{c}" for s, c in sorted(statuses.items())) or "-"


def rusage_run(argv, env=None, check=True):
    """(user_us + system_us, context switches, the involuntary ones, minor page faults) of one
    run of argv and everything it waited for (wait4). Its errors go to a file, not a pipe: a
    pipe nobody reads until the end would stall a program with much to say (xmllint)."""
    with tempfile.TemporaryFile() as errors:
        p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        if check and p.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"bench: {' '.join(argv[:3])} exited {p.returncode}: {errors.read().decode(errors='replace')[-300:]}")
    return (ru.ru_utime + ru.ru_stime) * 1e6, ru.ru_nvcsw + ru.ru_nivcsw, ru.ru_nivcsw, ru.ru_minflt


def home(name, conf):
    """A private home (XDG folders, headlines.conf = conf), its runtime folder on the tmpfs, and
    its environment: the one private bus and display, nothing else from the bench's own
    environment."""
    h = os.path.join(WORK, "home-" + name)
    for d in ("config/headlines", "cache", "state", "data"):
        os.makedirs(os.path.join(h, d), exist_ok=True)
    runtime = os.path.join(RUNTIME, name)
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    with open(os.path.join(h, "config/headlines/headlines.conf"), "w") as f:
        f.write(conf)
    return {"PATH": os.environ["PATH"], "HOME": h, "XDG_CONFIG_HOME": f"{h}/config", "XDG_CACHE_HOME": f"{h}/cache",
            "XDG_STATE_HOME": f"{h}/state", "XDG_DATA_HOME": f"{h}/data", "XDG_RUNTIME_DIR": runtime,
            "XDG_DATA_DIRS": os.environ["XDG_DATA_DIRS"], "DISPLAY": os.environ["DISPLAY"],
            "DBUS_SESSION_BUS_ADDRESS": os.environ["DBUS_SESSION_BUS_ADDRESS"], "LANG": "C.UTF-8"}


def feeds_conf(urls, extra=""):
    return f"[source]\nprovider = feeds\nfeeds = {';'.join(urls)}\n{BENCH_NOTIFY}{extra}"


def wait_until(what, seconds, check, every=0.02):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(every)
    raise SystemExit(f"bench: timed out after {seconds} s waiting for {what}")


def bus_count(member):
    """Notify calls (member=Notify) or NotificationClosed signals seen on the bus so far."""
    try:
        with open(MONITOR, errors="replace") as f:
            return sum(1 for line in f if line.rstrip().endswith("member=" + member))
    except OSError:
        return 0


def notify_count():
    return bus_count("Notify")


class Child:
    """A process the bench started (self.proc), ended with SIGTERM, or SIGKILL if it lingers.
    Each is also ended when its section's script exits, however it exits: a section that stops
    early must not leave a host owning the bus name, which would make every later section's host
    quit at once."""
    running = []

    def started(self, proc):
        Child.running.append(self)
        return proc

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


atexit.register(lambda: [child.stop() for child in reversed(Child.running)])


class Host(Child):
    """A headlines host in env: `headlines run` (which execs headlines-host, same PID), or the
    headlines-host binary given. Waits for its first reload ("reload ok" in its log)."""

    def __init__(self, env, binary=None, log_name="host.log"):
        self.env = env
        self.lines = os.path.join(env["XDG_RUNTIME_DIR"], "headlines", "bar", "waybar")
        self.log = open(os.path.join(env["HOME"], log_name), "wb")
        argv = [binary] if binary else [os.path.join(BIN, "headlines"), "run"]
        self.proc = self.started(subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log))
        self.pid = self.proc.pid
        wait_until("the host's first reload", 60, self.published)

    def published(self):
        if self.proc.poll() is not None:
            raise SystemExit(f"bench: the host exited ({self.proc.returncode}); its log: {self.log.name}")
        with open(self.log.name, errors="replace") as f:
            text = f.read()
        if "reload failed" in text:
            raise SystemExit(f"bench: the host's first reload failed; its log: {self.log.name}")
        return "reload ok" in text and os.path.exists(self.lines)

    def refresh(self):
        """`headlines refresh`, started (not waited for)."""
        return subprocess.Popen([os.path.join(BIN, "headlines"), "refresh"], env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def bus_reload(self):
        """The host's Reload method on the session bus (packaging/dbus/org.headlines.Headlines1.xml),
        called with gdbus, started (not waited for): what `headlines refresh` does, without the
        CLI's own start-up."""
        return subprocess.Popen(["gdbus", "call", "--session", "--dest", "org.headlines.Headlines",
                                 "--object-path", "/org/headlines/Headlines", "--method", "org.headlines.Headlines1.Reload", ""],
                                env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def exe(self):
        return os.path.basename(os.readlink(f"/proc/{self.pid}/exe"))



class Follower(Child):
    """A program whose stdout lines are read by a thread of the bench and stamped as they arrive
    (a bar copy, a peer's loop): a pipe that is read, as a bar reads it."""

    def __init__(self, argv, env):
        self.proc = self.started(subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                                  stderr=subprocess.DEVNULL))
        self.pid = self.proc.pid
        self.lines = []          # (time.time(), line)
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            with self.changed:
                self.lines.append((time.time(), raw.decode(errors="replace")))
                self.changed.notify_all()

    def wait_line(self, text, after, seconds=30):
        """The time the first line containing text arrived after index `after`."""
        end = time.monotonic() + seconds
        with self.changed:
            while True:
                for stamp, line in self.lines[after:]:
                    if text in line:
                        return stamp
                left = end - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise SystemExit(f"bench: {self.proc.args[0]} never printed a line with {text!r}")
                self.changed.wait(left)

