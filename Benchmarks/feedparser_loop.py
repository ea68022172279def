#!/usr/bin/python3
"""The python3 feedparser peer: the resident loop a user writes for a bar, the way feedparser's
documentation says to poll (each feed's ETag and Last-Modified passed back, so an unchanged
feed is a 304). Every INTERVAL seconds it fetches and parses every URL and prints the newest
title as a waybar JSON line; COUNT rounds, or forever when COUNT is 0.

  feedparser_loop.py [--report FILE] INTERVAL COUNT URL...

With --report, one line per round is appended: the round's user_us system_us
voluntary_switches involuntary_switches (getrusage of this process, from the end of the last
round, the sleep between them included, to the end of this one)."""
import argparse, json, resource, sys, time
import feedparser

args = argparse.ArgumentParser()
args.add_argument("--report")
args.add_argument("interval", type=float)
args.add_argument("count", type=int)
args.add_argument("urls", nargs="+")
args = args.parse_args()
validators = {url: {} for url in args.urls}
newest = {url: "" for url in args.urls}   # a 304 has no entries: the last title stays
last = resource.getrusage(resource.RUSAGE_SELF)
done = 0
while True:
    for url in args.urls:
        d = feedparser.parse(url, **validators[url])
        validators[url] = {k: d[k] for k in ("etag", "modified") if d.get(k)} or validators[url]
        if d.entries:
            newest[url] = d.entries[0].get("title", "")
    print(json.dumps({"text": newest[args.urls[0]]}), flush=True)
    now = resource.getrusage(resource.RUSAGE_SELF)
    if args.report:
        with open(args.report, "a") as f:
            f.write("%d %d %d %d\n" % (round((now.ru_utime - last.ru_utime) * 1e6), round((now.ru_stime - last.ru_stime) * 1e6),
                                       now.ru_nvcsw - last.ru_nvcsw, now.ru_nivcsw - last.ru_nivcsw))
    last = now
    done += 1
    if args.count and done >= args.count:
        break
    time.sleep(args.interval)
