#!/usr/bin/env python3
"""Idle, side by side for BENCH_IDLE_SECONDS (default: targets.json's idle_window_s): the host (`headlines run`, after its
first real reload of the four default-like feeds and the notification it sends on the private
bus, dunst showing it), three `headlines-bar waybar` copies following it, the C GLib floor
(floor.c, after its one notification), the python3 feedparser loop and the `curl | jq` loop, each
asleep after its first fetch. newsboat (`newsboat -x reload`, run from cron or a bar's interval)
has no resident process. The window starts once dunst has closed both notifications (their
timeout; the closing wakes their senders). Prints `idle.NAME.FIGURE value unit` lines: wake-ups and CPU over the
window; Private_Dirty, Anonymous, Pss and Rss at its end; threads."""
import os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (BIN, DEFAULT_FEEDS, HERE, PYTHON, WORK, BASE, Follower, Host, emit, feed_urls,
                    bus_count, feeds_conf, home, note, notify_count, targets, wait_until, control)
import proc

seconds = float(os.environ.get("BENCH_IDLE_SECONDS", targets()["idle_window_s"]))
control(mode="changing", delay_ms=200)
host_env = home("idle-host", feeds_conf(feed_urls("idle-host", DEFAULT_FEEDS)))
notified = notify_count()
host = Host(host_env)
wait_until("the host's notification", 30, lambda: notify_count() > notified)
emit("idle.host.exe", host.exe(), "name")
bars = {}
for k in (1, 2, 3):
    bars[f"bar{k}"] = bar = Follower([os.path.join(BIN, "headlines-bar"), "waybar"], host_env)
    bar.wait_line('"text"', 0)
notified = notify_count()
floor = Follower([os.path.join(WORK, "floor")], home("idle-floor", ""))
floor.wait_line("floor ready", 0)
wait_until("the floor's notification", 10, lambda: notify_count() > notified)
feedparser = Follower([PYTHON, os.path.join(HERE, "feedparser_loop.py"), "1800", "0"]
                      + feed_urls("idle-feedparser", DEFAULT_FEEDS), home("idle-feedparser", ""))
feedparser.wait_line('"text"', 0, seconds=60)
api = f"{BASE}/idle-curl-jq/v1/news/top-headlines?fl=id,title,href,published_at,source.domain,image"
curl_jq = Follower(["sh", os.path.join(HERE, "curl_jq_loop.sh"), "1800", "0", api, "bench-key"], home("idle-curl-jq", ""))
curl_jq.wait_line('"text"', 0)
# dunst closes each notification when it times out, and tells its sender (NotificationClosed):
# a wake-up that belongs to the notification, not to idling. The window starts after it.
wait_until("dunst to close the notifications", 60, lambda: bus_count("NotificationClosed") >= notify_count())
time.sleep(2)   # every start-up settles

# name -> (pid, with its descendants)
measured = {"host": (host.pid, False), **{k: (b.pid, False) for k, b in bars.items()}, "floor": (floor.pid, False),
            "feedparser": (feedparser.pid, True), "curl_jq": (curl_jq.pid, True)}
lines_before = {k: len(b.lines) for k, b in bars.items()}
cpu_before = {k: proc.own_cpu_ticks(pid, tree) for k, (pid, tree) in measured.items()}
note(f"idling {seconds:.0f} s: " + ", ".join(f"{k}={pid}" for k, (pid, _) in measured.items()))
own = proc.Switches({k: pid for k, (pid, tree) in measured.items() if not tree}, every=2).start()
trees = proc.Switches({k: pid for k, (pid, tree) in measured.items() if tree}, tree=True, every=2).start()
time.sleep(seconds)
own.stop()
trees.stop()
emit("idle.window", f"{seconds:.0f}", "s")
emit("idle.elapsed", f"{own.elapsed:.0f}", "s")
for name, (pid, tree) in measured.items():
    if not os.path.exists(f"/proc/{pid}"):
        emit(f"idle.{name}.died", 1, "flag")
        continue
    sampler = trees if tree else own
    cpu = proc.own_cpu_ticks(pid, tree) - cpu_before[name]
    emit(f"idle.{name}.wakeups", sampler.count(name), "count")
    emit(f"idle.{name}.wakeups_by_thread", sampler.by_thread(name), "names")
    emit(f"idle.{name}.threads_ended", sampler.ended(name), "count")
    emit(f"idle.{name}.cpu_ms", f"{cpu * 1000 / proc.TICK:.0f}", "ms")
    memory = proc.rollup(pid, with_tree=tree)
    for field in ("Private_Dirty", "Anonymous", "Pss", "Rss"):
        emit(f"idle.{name}.{field.lower()}_kb", memory.get(field, 0), "kB")
    emit(f"idle.{name}.threads", proc.thread_count(pid), "count")
for name, bar in bars.items():
    emit(f"idle.{name}.lines_in_window", len(bar.lines) - lines_before[name], "count")
for p in (curl_jq, feedparser, floor, *bars.values()):
    p.stop()
host.stop()
