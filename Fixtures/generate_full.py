#!/usr/bin/env python3
"""Writes apitube/top-headlines-full.json: the ten articles of top-headlines-fl.json with every
field APITube sends when `fl` is not given. Deterministic (no randomness, no clock): running it
again reproduces the committed file byte for byte.  Usage: python3 Fixtures/generate_full.py"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FL = os.path.join(HERE, "apitube", "top-headlines-fl.json")
OUT = os.path.join(HERE, "apitube", "top-headlines-full.json")

# Per article (same order as the fl fixture): description, category, topic, industry, entities,
# country, bias, opr, author name ("" = no byline).
META = [
    ("The central bank left its main rate unchanged for a third meeting as price growth eased.",
     "Economy", "monetary_policy", "Banking", ["Federal Reserve", "Jerome Powell", "Washington"],
     ("United States", "us"), "center", 8, "Ann Saphir"),
    ("Coastal towns in the south west saw a month of rain in a day as the storm passed.",
     "Weather", "storms", "Insurance", ["Met Office", "Cornwall", "Devon"],
     ("United Kingdom", "gb"), "center", 9, ""),
    ("The first 2 nm laptop chip promises longer battery life and cooler machines.",
     "Technology", "semiconductors", "Semiconductors", ["TSMC", "Apple", "Intel"],
     ("United States", "us"), "left", 7, "Sean Hollister"),
    ("A goal in the ninety-third minute decided a tense local derby in front of a full stadium.",
     "Sports", "football", "Sports", ["Premier League", "Old Trafford"],
     ("United Kingdom", "gb"), "left", 8, "Jamie Jackson"),
    ("Researchers used autonomous submarines to build the first 3D map of the trench floor.",
     "Science", "oceanography", "Research", ["Mariana Trench", "Pacific Ocean"],
     ("United Kingdom", "gb"), "center", 9, "Alexandra Witze"),
    ("The council voted to build forty kilometres of protected cycle lanes over three years.",
     "Politics", "transport", "Construction", ["City Council", "Department of Transportation"],
     ("United States", "us"), "center", 8, ""),
    ("Hundreds of flights were cancelled after a faulty update took down the booking system.",
     "Business", "aviation", "Airlines", ["Federal Aviation Administration", "Chicago"],
     ("United States", "us"), "center", 7, "Leslie Josephs"),
    ("The museum handed back a collection of bronzes after years of negotiation.",
     "Arts", "museums", "Culture", ["British Museum", "Nigeria", "Benin City"],
     ("United States", "us"), "left", 9, "Alex Marshall"),
    ("Battery electric cars outsold petrol models across the region for the first month ever.",
     "Business", "electric_vehicles", "Automotive", ["European Union", "Tesla", "Volkswagen"],
     ("United Kingdom", "gb"), "center", 8, "Peter Campbell"),
    ("The runner took forty seconds off the previous mark on a cold morning in Berlin.",
     "Sports", "athletics", "Sports", ["Berlin", "World Athletics"],
     ("United States", "us"), "center", 7, ""),
]

SENTENCES = [
    "Officials said the decision followed weeks of consultation with experts and local groups.",
    "Analysts had expected the announcement, although few predicted how quickly it would come.",
    "The figures published on Friday were revised twice before the final version appeared.",
    "Several people who spoke to reporters asked not to be named because talks are continuing.",
    "Critics argued that the plan leaves important questions unanswered for the coming year.",
    "Supporters pointed to earlier results as evidence that the approach has worked before.",
    "A spokesperson declined to comment on the details but confirmed the timetable.",
    "Data from the past decade show a steady trend that few observers dispute.",
    "The change will be reviewed again in the spring, when more information is available.",
    "Residents described the news as a relief after a long period of uncertainty.",
    "Industry groups welcomed the move while warning about costs that remain hard to estimate.",
    "Independent researchers said the results were promising but needed confirmation.",
]


def paragraph(seed, n):
    return " ".join(SENTENCES[(seed * 5 + k * 7) % len(SENTENCES)] for k in range(n))


def article(i, fl, meta):
    desc, category, topic, industry, entities, (country, cc), bias, opr, author = meta
    aid, domain = fl["id"], fl["source"]["domain"]
    paragraphs = [fl["title"] + ". " + desc] + [paragraph(i + p, 6 + (p % 3)) for p in range(24)]
    body = "\n\n".join(paragraphs)
    words = body.split()
    sentences = [s for s in body.replace("\n", " ").split(". ") if s]
    return {
        "id": aid,
        "href": fl["href"],
        "published_at": fl["published_at"],
        "title": fl["title"],
        "description": desc,
        "body": body,
        "language": "en",
        "author": {"id": (aid * 7) % 100000 if author else 0, "name": author},
        "image": fl["image"],
        "categories": [{
            "id": "medtop:%08d" % (aid % 20000000),
            "name": category.lower(),
            "score": round(0.5 + (aid % 50) / 100, 2),
            "taxonomy": "iptc_mediatopics",
            "links": {"self": "https://api.apitube.io/v1/news/category/iptc_mediatopics/medtop:%08d" % (aid % 20000000)},
        }],
        "topics": [{"id": topic, "name": topic.replace("_", " "), "score": 0.91,
                    "links": {"self": "https://api.apitube.io/v1/news/topic/" + topic}}],
        "industries": [{"id": 1000 + i, "name": industry,
                        "links": {"self": "https://api.apitube.io/v1/news/industry/%d" % (1000 + i)}}],
        "entities": [{
            "id": 700000 + i * 10 + k,
            "name": name,
            "type": ["organization", "person", "location"][k % 3],
            "frequency": 1 + (i + k) % 4,
            "title": {"pos": [{"start": 0, "end": len(name)}]} if k == 0 else {"pos": []},
            "body": {"pos": [{"start": 100 * k + 12, "end": 100 * k + 12 + len(name)},
                             {"start": 900 + 60 * k, "end": 900 + 60 * k + len(name)}]},
            "links": {"self": "https://api.apitube.io/v1/news/entity/%d" % (700000 + i * 10 + k),
                      "wikipedia": "https://en.wikipedia.org/wiki/" + name.replace(" ", "_"),
                      "wikidata": "https://www.wikidata.org/wiki/Q%d" % (1000 + i * 37 + k)},
        } for k, name in enumerate(entities)],
        "source": {
            "id": 4000 + i,
            "domain": domain,
            "home_page_url": "https://" + (domain if domain.count(".") > 1 or domain == "apnews.com" else "www." + domain),
            "type": "news",
            "bias": bias,
            "rankings": {"opr": opr},
            "location": {"country_name": country, "country_code": cc},
            "favicon": "https://www.google.com/s2/favicons?domain=" + domain,
        },
        "sentiment": {
            "overall": {"score": round(((aid % 17) - 8) / 10, 2), "polarity": ["negative", "neutral", "positive"][aid % 3]},
            "title": {"score": round(((aid % 11) - 5) / 10, 2), "polarity": ["neutral", "positive", "negative"][aid % 3]},
            "body": {"score": round(((aid % 13) - 6) / 10, 2), "polarity": ["positive", "negative", "neutral"][aid % 3]},
        },
        "summary": [{"sentence": s + ".", "sentiment": {"score": 0.1 * (k % 3), "polarity": "neutral"}}
                    for k, s in enumerate(sentences[:5])],
        "keywords": [w.strip(".,").lower() for w in fl["title"].split() if len(w) > 4] + [topic, category.lower()],
        "links": [{"url": "https://%s/related/%d" % (domain, aid - k), "type": "related"} for k in range(1, 4)],
        "media": [] if not fl["image"] else [{"url": fl["image"], "type": "image"}],
        "story": {"id": 880000 + i, "uri": "https://api.apitube.io/v1/news/story/%d" % (880000 + i)},
        "is_duplicate": False,
        "is_free": True,
        "is_breaking": i == 0,
        "read_time": max(1, len(words) // 230),
        "sentences_count": len(sentences),
        "paragraphs_count": len(paragraphs),
        "words_count": len(words),
        "characters_count": len(body),
        "shares": {"total": 40 * (10 - i), "facebook": 20 * (10 - i), "twitter": 15 * (10 - i), "reddit": 5 * (10 - i)},
    }


def main():
    with open(FL, encoding="utf-8") as f:
        fl = json.load(f)
    envelope = {k: v for k, v in fl.items() if k != "results"}
    envelope["path"] = ("https://api.apitube.io/v1/news/top-headlines?language.code=en"
                        "&sort.by=published_at&sort.order=desc&per_page=10")
    envelope["request_id"] = "5f1c2a9e-1b7d-4c1e-9a55-0d6c2b1a7e02"
    envelope["results"] = [article(i, a, META[i]) for i, a in enumerate(fl["results"])]
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(envelope, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
