#!/usr/bin/env python3
"""Writes the article list the news server serves: `articles.py FILE N [extra titles...]`.

N numbered headlines ("Headline 1" .. "Headline N", newest first) plus any extra titles given
(first = newest), each as an APITube article with an id, href, date and source; an extra's id
and link (https://news.example.com/extra/SLUG) follow from its title. ID_OFFSET=K in the
environment adds K to every id (a source that renumbers its items: same titles, same links).
ARTICLE_IMAGE=URL gives the numbered headlines that image (else none). Written atomically
(rename)."""
import json, os, re, sys, datetime, zlib

path, n, extras = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
offset = int(os.environ.get("ID_OFFSET", "0"))
image = os.environ.get("ARTICLE_IMAGE", "")
now = datetime.datetime.now(datetime.timezone.utc)
items = []
for i, title in enumerate(extras):
    # Id and link follow from the title, so an extra keeps its identity from one call to the next.
    # The slug is cut so that a 100 KB title still has a link a source keeps.
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:80].strip("-")
    items.append({"id": offset + 50000 + zlib.crc32(title.encode()) % 1000000, "title": title,
                  "href": f"https://news.example.com/extra/{slug}",
                  "published_at": (now - datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                  "source": {"domain": "extra.example.com"}, "image": ""})
for k in range(n, 0, -1):
    items.append({"id": offset + 1000 + k, "title": f"Headline {k}", "href": f"https://news.example.com/story/{k}",
                  "published_at": (now - datetime.timedelta(minutes=60 + (n - k))).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                  "source": {"domain": "news.example.com"}, "image": image})
tmp = path + ".tmp"
with open(tmp, "w") as f:
    json.dump(items, f)
os.rename(tmp, path)
