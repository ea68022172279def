"""Compares headlines-feedcheck's view of the real-world corpus with python3-feedparser's.

Called by scripts/conformance-realworld.sh with: the corpus directory, a file of checker results
(one JSON line per feed file, from headlines-feedcheck) and a file of checker exit statuses
("status<TAB>path" per line). Prints the agreement table, the rejected files, the crashes and
every disagreement grouped by cause; exits 1 when the corpus fails the acceptance bar (see
FAIL_UNDER), 0 when it passes, 2 when it cannot run at all.

Items are matched by document order: both parsers emit items in the order of the document. When
the two item counts differ, the two sequences are aligned on a key (link, else guid, else title)
with difflib, so one item dropped by either side costs that item and not every item after it.
Matching by link or guid alone would hide exactly the link mistakes this check exists to find.
"""
import collections
import difflib
import json
import os
import re
import sys
import unicodedata
import urllib.parse

try:
    import feedparser
    from realworld_reference import plain, plain_inline, reference_items
except ImportError:
    print("conformance-realworld: FAILED: python3-feedparser is not installed (apt-get install python3-feedparser)")
    sys.exit(2)

FIELDS = ("title", "link", "date")
FAIL_UNDER = 99.0
CHECKER_REFUSED = 1  # headlines-feedcheck's status when a file is refused; anything else non-zero is a crash


def our_seconds(text):
    if not text:
        return None
    from datetime import datetime
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def key(item):
    return item.get("link") or item.get("guid") or plain(item.get("title") or "")


def align(ref, ours):
    """Pairs (reference item, our item or None), by position when the counts agree."""
    if len(ref) == len(ours):
        return list(zip(ref, ours))
    matched = {}
    matcher = difflib.SequenceMatcher(a=[key(i) for i in ref], b=[key(i) for i in ours], autojunk=False)
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            matched[block.a + k] = block.b + k
    # Unmatched stretches of equal length on both sides pair up by position (same items, the key differs).
    opcodes = matcher.get_opcodes()
    for tag, a0, a1, b0, b1 in opcodes:
        if tag == "replace":
            for k in range(min(a1 - a0, b1 - b0)):
                matched[a0 + k] = b0 + k
    return [(item, ours[matched[i]] if i in matched else None) for i, item in enumerate(ref)]


def is_web_url(text):
    return bool(text) and re.match(r"https?://[^\s/]", text, re.I) is not None


def mojibake(a, b):
    """True when `a` is `b`'s UTF-8 bytes read as Latin-1/Windows-1252."""
    for codec in ("latin-1", "cp1252"):
        try:
            if b.encode("utf-8").decode(codec) == a:
                return True
        except (UnicodeError, ValueError):
            pass
    return False


def title_cause(want, got):
    if got is None:
        return "title: we have none where the reference has one"
    if plain(got) == want and any(unicodedata.category(c) == "Cf" for c in got):
        return "title: we keep an invisible format character (U+200B, U+FEFF, bidi control)"
    if plain(got) == want:
        return "title: we leave markup or entities that the title cleaning removes"
    if "\ufffd" in got:
        return "title: charset: we produce U+FFFD replacement characters"
    if mojibake(got, want):
        return "title: charset: we read UTF-8 bytes as Latin-1/Windows-1252"
    if mojibake(want, got):
        return "title: charset: the reference reads as Latin-1 what we read as UTF-8"
    if got.casefold() == want.casefold():
        return "title: letter case differs"
    if want.startswith(got) or got.startswith(want):
        return "title: one is a truncation of the other"
    return "title: different text"


def link_cause(want, got, ref_item):
    if got is None:
        if want == ref_item.get("guid"):
            return "link: we have none; the reference takes an http(s) id/guid as the link"
        return "link: we have none where the reference has one"
    if urllib.parse.unquote(got) == urllib.parse.unquote(want):
        return "link: percent-encoding differs"
    if got.rstrip("/") == want.rstrip("/"):
        return "link: trailing slash differs"
    if got.split("://", 1)[-1] == want.split("://", 1)[-1]:
        return "link: scheme differs"
    if got in ref_item.get("links", []):
        return "link: we pick a different one of the item's links"
    if want == ref_item.get("guid"):
        return "link: the reference takes the id/guid, we take another link"
    return "link: different URL"


def date_cause(want, got):
    if got is None:
        return "date: we cannot read a date the reference reads"
    delta = got - want
    if delta % 1800 == 0 and abs(delta) <= 14 * 3600:
        return "date: read in a different zone"
    return "date: different instant"


def load_errata(path):
    rows = []
    if os.path.exists(path):
        for number, line in enumerate(open(path, encoding="utf-8"), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                print(f"conformance-realworld: FAILED: {path}:{number}: want file, item, field, why (tab-separated)")
                sys.exit(2)
            rows.append({"file": parts[0], "item": parts[1], "field": parts[2], "why": parts[3], "used": 0})
    return rows


def erratum_for(errata, rel, index, ref_item, field):
    for row in errata:
        if row["file"] == rel and row["field"] == field and row["item"] in (str(index), ref_item.get("link") or "", "*"):
            return row
    return None


def show(value):
    return json.dumps(value, ensure_ascii=False) if value is not None else "none"


def main():
    corpus, results_path, status_path = sys.argv[1:4]
    statuses = {}
    for line in open(status_path):
        status, path = line.rstrip("\n").split("\t", 1)
        statuses[path] = int(status)
    ours_by_file = {}
    for line in open(results_path):
        if line.strip():
            record = json.loads(line)
            ours_by_file[record["file"]] = record
    errata = load_errata(os.path.join(corpus, "REFERENCE-ERRATA.tsv"))

    agreed = collections.Counter()
    comparable = collections.Counter()
    by_errata = collections.Counter()
    normalised = collections.Counter()
    items_total = items_all_agree = 0
    not_comparable_links = collections.Counter()
    causes = collections.defaultdict(list)
    rejected, rejected_both, crashes, count_differences, errata_used, empty = [], [], [], [], [], []

    for path in sorted(statuses):
        rel = os.path.relpath(path, corpus)
        data = open(path, "rb").read()
        ref, bozo = reference_items(data)
        ref = ref or []
        status = statuses[path]
        record = ours_by_file.get(path)
        crashed = status not in (0, CHECKER_REFUSED) or record is None
        if crashed:
            if status == 124:
                why = "hung: killed after 20 s"
            elif status > 128:
                why = f"killed by signal {status - 128}"
            elif status not in (0, CHECKER_REFUSED):
                why = f"exit status {status}"
            else:
                why = "no output line"
            crashes.append((rel, why))
            ours = None
        elif "error" in record:
            ours = None
            (rejected if ref else rejected_both).append((rel, record["error"], len(ref), bozo))
        else:
            ours = record.get("items") or []
            if not ours and ref:
                empty.append((rel, len(ref), bozo))
        if ours is not None and len(ours) != len(ref):
            count_differences.append((rel, len(ref), len(ours)))
        pairs = align(ref, ours or []) if ours is not None else [(item, None) for item in ref]
        for index, (want_item, got_item) in enumerate(pairs):
            items_total += 1
            item_ok = True
            wants = {
                "title": plain(want_item["title"]) if want_item.get("title") else None,
                "title_inline": plain_inline(want_item["title"]) if want_item.get("title") else None,
                "link": want_item.get("link"),
                "date": want_item.get("date"),
            }
            if wants["link"] is not None and not is_web_url(wants["link"]):
                not_comparable_links[rel] += 1
                wants["link"] = None  # relative or non-web: we are given no base URL and keep only http(s)
            gots = {
                "title": got_item.get("title") if got_item else None,
                "link": got_item.get("link") if got_item else None,
                "date": our_seconds(got_item.get("published")) if got_item else None,
            }
            for field in FIELDS:
                want, got = wants[field], gots[field]
                if want is None or want == "":
                    continue
                comparable[field] += 1
                if got == want or (field == "title" and got is not None and got == wants["title_inline"]):
                    agreed[field] += 1
                    normalised[field] += field == "title" and got != want_item["title"]
                    continue
                row = erratum_for(errata, rel, index, want_item, field)
                if row is not None and got_item is not None:
                    agreed[field] += 1
                    by_errata[field] += 1
                    row["used"] += 1
                    shown = (fmt(want), fmt(got)) if field == "date" else (want, got)
                    errata_used.append((rel, index, field, show(shown[0]), show(shown[1]), row["why"]))
                    continue
                item_ok = False
                if ours is None:
                    cause = "we crash" if crashed else "we reject the whole document"
                elif not ours:
                    cause = "we read no items from the document, and report no error"
                elif got_item is None:
                    cause = "we do not have this item at all"
                elif field == "title":
                    cause = title_cause(want, got)
                elif field == "link":
                    cause = link_cause(want, got, want_item)
                else:
                    cause = date_cause(want, got)
                extra = f" (raw {show(want_item.get('raw_date'))})" if field == "date" else ""
                if field == "date":
                    want, got = fmt(want), fmt(got)
                if not ours:
                    causes[cause].append(rel)  # one line per file below, not one per field
                else:
                    causes[cause].append(f"{rel} #{index}: {field}: reference {show(want)}, ours {show(got)}{extra}")
            items_all_agree += item_ok

    print(f"conformance-realworld: {len(statuses)} files, {items_total} items read by the reference (python3-feedparser {feedparser.__version__})")
    print(f"{'field':<8} {'agreed':>7} {'comparable':>10} {'pct':>7}  (of the agreed: by REFERENCE-ERRATA, after title cleaning)")
    failed = False
    total_agreed = total_comparable = 0
    for field in FIELDS:
        pct = 100.0 * agreed[field] / comparable[field] if comparable[field] else 0.0
        failed |= pct < FAIL_UNDER
        total_agreed += agreed[field]
        total_comparable += comparable[field]
        print(f"{field:<8} {agreed[field]:>7} {comparable[field]:>10} {pct:>6.1f}%  ({by_errata[field]}, {normalised[field]})")
    overall = 100.0 * total_agreed / total_comparable if total_comparable else 0.0
    per_item = 100.0 * items_all_agree / items_total if items_total else 0.0
    failed |= overall < FAIL_UNDER or per_item < FAIL_UNDER
    print(f"{'all':<8} {total_agreed:>7} {total_comparable:>10} {overall:>6.1f}%")
    print(f"items agreeing on every comparable field: {items_all_agree}/{items_total} ({per_item:.1f}%); threshold {FAIL_UNDER}% for each line above")
    print(f"links not compared (the reference's link is relative or not http(s); we are given no base URL): "
          f"{sum(not_comparable_links.values())}" + "".join(f"\n  {rel}: {n}" for rel, n in sorted(not_comparable_links.items())))

    print(f"files we reject while the reference reads items from them: {len(rejected)}")
    for rel, error, count, bozo in rejected:
        print(f"  FAIL {rel}: {error} (reference: {count} items{', bozo: ' + bozo if bozo else ''})")
    print(f"files we read no items from, without an error, while the reference reads items: {len(empty)}")
    for rel, count, bozo in empty:
        print(f"  FAIL {rel}: 0 items (reference: {count} items{', bozo: ' + bozo if bozo else ''})")
    if rejected_both:
        print(f"files neither parser reads items from: {len(rejected_both)}")
        for rel, error, count, bozo in rejected_both:
            print(f"  {rel}: ours: {error}; reference: {bozo or 'no items'}")
    print(f"crashes (exit status other than 0 or {CHECKER_REFUSED}, signal, or no output): {len(crashes)}")
    for rel, why in crashes:
        print(f"  FAIL {rel}: {why}")
    if count_differences:
        print(f"item count differs: {len(count_differences)} files")
        for rel, want, got in count_differences:
            print(f"  {rel}: reference {want}, ours {got}")
    if errata_used:
        print(f"counted as ours because the reference is wrong (REFERENCE-ERRATA.tsv): {len(errata_used)}")
        for rel, index, field, want, got, why in errata_used:
            print(f"  {rel} #{index}: {field}: reference {want}, ours {got}: {why}")
    stale = [row for row in errata if not row["used"]]
    if stale:
        print(f"errata rows that matched no disagreement (fixed, or stale): {len(stale)}")
        for row in stale:
            print(f"  {row['file']} {row['item']} {row['field']}")
    total = sum(len(v) for v in causes.values())
    print(f"disagreements: {total}, by cause:")
    for cause, lines in sorted(causes.items(), key=lambda kv: -len(kv[1])):
        print(f"== {cause}: {len(lines)}")
        if cause in ("we reject the whole document", "we crash", "we read no items from the document, and report no error"):
            for rel, count in collections.Counter(lines).items():
                print(f"  {rel}: {count} comparable fields")
            continue
        for line in lines:
            print(f"  {line}")
    failed |= bool(rejected) or bool(crashes) or bool(empty)
    print("conformance-realworld: " + ("FAILED" if failed else "passed"))
    return 1 if failed else 0


def fmt(seconds):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds)) if seconds is not None else None


if __name__ == "__main__":
    sys.exit(main())
