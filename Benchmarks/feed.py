#!/usr/bin/env python3
"""Writes the RSS feed the latency bench serves: `feed.py FILE TITLE`: TITLE as the newest item
(its guid and link follow from the title, so a new title is a new headline), then four fixed
older ones. Written atomically (rename), so the server never serves half a file."""
import datetime, email.utils, os, re, sys
from xml.sax.saxutils import escape

path, title = sys.argv[1], sys.argv[2]
now = datetime.datetime.now(datetime.timezone.utc)
items = [(title, now)] + [(f"Older story {k}", now - datetime.timedelta(hours=k)) for k in range(1, 5)]
body = "".join(
    f"<item><title>{escape(t)}</title>"
    f"<link>https://news.example.com/{re.sub(r'[^a-z0-9]+', '-', t.lower())}</link>"
    f"<guid isPermaLink=\"false\">{re.sub(r'[^a-z0-9]+', '-', t.lower())}</guid>"
    f"<pubDate>{email.utils.format_datetime(when)}</pubDate></item>" for t, when in items)
tmp = path + ".tmp"
with open(tmp, "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Bench News</title>'
            f"<link>https://news.example.com/</link><description>bench</description>{body}</channel></rss>")
os.rename(tmp, path)
