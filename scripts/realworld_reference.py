"""The reference side of scripts/conformance_realworld.py: python3-feedparser's reading of a feed
file, and the title cleaning that both sides are compared after."""
import calendar
import html
import json
import re
import unicodedata

import feedparser
from feedparser.datetimes import _parse_date


def plain(text):
    """Our deliberate title transformation: markup stripped, entities decoded, invisible format
    characters (zero-width space, bidi controls: Unicode category Cf) dropped, whitespace collapsed."""
    text = html.unescape(re.sub(r"<[A-Za-z/!?][^>]*>", " ", text))
    return " ".join("".join(c for c in text if unicodedata.category(c) != "Cf").split())


INLINE = "a|abbr|b|bdi|cite|code|em|font|i|kbd|mark|q|s|small|span|strong|sub|sup|time|u"


def plain_inline(text):
    """`plain`, but inline elements (`ft<sup>2</sup>`, `<span>₹</span>4,000`) vanish without a space:
    either spacing is a faithful reading of the same markup, so both count as agreement."""
    return plain(re.sub(r"</?(?:" + INLINE + r")\b[^>]*>", "", text, flags=re.I))


def utc_seconds(struct):
    return calendar.timegm(struct) if struct else None


def reference_items(data):
    """feedparser's items as dicts of title, link, date (UTC seconds), guid, raw date, other links.

    feedparser 6.0.10 (Debian 12) has no JSON Feed support, so a JSON document is read here by
    the JSON Feed spec's own field names, with feedparser's date parser for the dates."""
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped[:1] in (b"{", b"["):
        try:
            body = json.loads(data.decode("utf-8-sig"))
        except ValueError as error:
            return None, f"not JSON: {error}"
        items = []
        for item in (body.get("items") or []) if isinstance(body, dict) else []:
            if not isinstance(item, dict):
                continue
            raw = item.get("date_published") or item.get("date_modified")
            items.append({
                "title": item.get("title") if isinstance(item.get("title"), str) else None,
                "link": item.get("url") if isinstance(item.get("url"), str) else None,
                "date": utc_seconds(_parse_date(raw)) if isinstance(raw, str) else None,
                "raw_date": raw, "guid": str(item.get("id")) if item.get("id") is not None else None,
                "links": [item.get("external_url")] if item.get("external_url") else [],
            })
        return items, None
    parsed = feedparser.parse(data)
    items = []
    for entry in parsed.entries:
        raw = entry.get("published") or entry.get("updated")
        items.append({
            "title": entry.get("title"),
            "link": entry.get("link"),
            "date": utc_seconds(entry.get("published_parsed") or entry.get("updated_parsed")),
            "raw_date": raw, "guid": entry.get("id"),
            "links": [l.get("href") for l in entry.get("links", []) if l.get("href")],
        })
    bozo = str(parsed.get("bozo_exception", "")) if parsed.get("bozo") else None
    return items, bozo
