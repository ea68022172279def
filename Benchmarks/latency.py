#!/usr/bin/env python3
"""A reload against a server that answers in 200 ms: from the trigger to the new line on a
`headlines-bar waybar` follower (its stdout, read through a pipe, stamped as it arrives), over
BENCH_LATENCY_RELOADS reloads (default 60), the triggers alternating: `headlines refresh`
starting (its own start-up included; it calls the host's Reload on the session bus), and that
Reload called with gdbus. Before each, the feed the server reads afresh at each request
(WORK/latency.rss) gets a new newest headline, so each reload changes the bar and notifies it. The
server's time for each reload's request (request parsed to answer built, its 200 ms wait
included) comes from its wire log; the figure the target is about is the rest. The host is
`headlines run`, exactly as shipped. Prints `latency.*` lines, ms."""
import datetime, email.utils, os, re, statistics, sys, time
from xml.sax.saxutils import escape
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BENCH_NOTIFY, BIN, MONITOR, WORK, Follower, Host, control, emit, home, wait_until, wire
import proc

reloads = int(os.environ.get("BENCH_LATENCY_RELOADS", "60"))
feed = os.path.join(WORK, "latency.rss")
client = "latency"


def write_feed(title):
    """title as the newest item (its guid and link follow from it, so a new title is a new
    headline), then four fixed older ones; written whole (rename), never served half written."""
    now = datetime.datetime.now(datetime.timezone.utc)
    items = [(title, now)] + [(f"Older story {k}", now - datetime.timedelta(hours=k)) for k in range(1, 5)]
    body = "".join(f"<item><title>{escape(t)}</title><link>https://news.example.com/{slug}</link>"
                   f"<guid isPermaLink=\"false\">{slug}</guid><pubDate>{email.utils.format_datetime(when)}</pubDate></item>"
                   for t, when in items for slug in [re.sub(r"[^a-z0-9]+", "-", t.lower())])
    with open(feed + ".tmp", "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench News</title>'
                f"<link>https://news.example.com/</link><description>bench</description>{body}</channel></rss>")
    os.rename(feed + ".tmp", feed)


write_feed("Latency 0")
control(delay_ms=200)
# Every reload notifies its new headline: no hourly cap (BENCH_NOTIFY), or all but the first
# twenty would be held, and the figure is the time to the Notify, not the policy.
env = home("latency", f"[source]\nprovider = feeds\nfeeds = {os.environ['BENCH_BASE']}/{client}/latency.rss\n"
                      f"[refresh]\ndaily-budget = 1440\n{BENCH_NOTIFY}")
host = Host(env)
bar = Follower([os.path.join(BIN, "headlines-bar"), "waybar"], env)
bar.wait_line("Latency 0", 0)


def notify_stamp(title):
    """The bus timestamp of the Notify call whose summary is title (dbus-monitor's record)."""
    with open(MONITOR, errors="replace") as f:
        text = f.read()
    at = text.rfind(f'string "{title}"')
    if at < 0:
        return None
    head = text.rfind("method call time=", 0, at)
    return float(text[head:].split()[2].split("=")[1]) if head >= 0 and "member=Notify" in text[head:at] else None


figures = {f"{how}.{what}": [] for how in ("refresh", "bus") for what in ("bar", "server", "bar_minus_server")}
to_notify = []
for k in range(1, reloads + 1):
    title = f"Latency {k}"
    how = "refresh" if k % 2 else "bus"
    write_feed(title)
    seen = len(bar.lines)
    t0 = time.time()
    trigger = host.refresh() if how == "refresh" else host.bus_reload()
    shown = bar.wait_line(title, seen)
    trigger.wait(timeout=60)
    stamp = wait_until(f"the Notify of {title}", 10, lambda: notify_stamp(title))
    records = [r for r in wire(client, since=t0) if r["status"] == 200]
    if not records:
        raise SystemExit(f"bench: the server logged no answer for {title}")
    server_ms = (records[0]["t_answer"] - records[0]["t_request"]) * 1000
    took = (shown - t0) * 1000
    figures[f"{how}.bar"].append(took)
    figures[f"{how}.server"].append(server_ms)
    figures[f"{how}.bar_minus_server"].append(took - server_ms)
    to_notify.append((stamp - t0) * 1000)
    # The reload child ends after the report (it writes the cache then): no overlap with the next.
    wait_until("the reload child to end", 10, lambda: len(proc.tree(host.pid)) == 1)

emit("latency.reloads", reloads, "count")
emit("latency.host.exe", host.exe(), "name")
for name, xs in sorted(figures.items()) + [("notify", to_notify)]:
    xs = sorted(xs)
    emit(f"latency.{name}.p50", f"{statistics.median(xs):.1f}", "ms")
    emit(f"latency.{name}.p95", f"{xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]:.1f}", "ms")
bar.stop()
host.stop()
