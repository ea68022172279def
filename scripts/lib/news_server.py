#!/usr/bin/env python3
"""The shell suites' one loopback HTTP server (start it with common.sh's start_news_server).

  --log FILE       every request's path (and query) is appended as one line; a request for a
                   --root file that carries X-API-Key gets " KEY" after it
  --articles FILE  a JSON list of APITube articles, read at each request (the suites edit it to
                   make headlines "arrive"): /feed.rss serves them as RSS 2.0 with an ETag (a
                   matching If-None-Match gets a 304), /broken.rss always answers 500, and any
                   other path the APITube envelope (503 while the file is half written)
  --root DIR       static files: a path naming a file under DIR is served from there first

Listens on 127.0.0.1, prints the port on stdout, then serves until killed.
"""
import argparse, hashlib, json, mimetypes, os
from datetime import datetime
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
parser.add_argument("--articles", help="JSON file: a list of APITube articles")
parser.add_argument("--root", help="folder of static files")
args = parser.parse_args()
mimetypes.add_type("application/rss+xml", ".rss")


def rss(results):
    items = "".join(
        f"<item><title>{escape(a['title'])}</title><link>{escape(a['href'])}</link>"
        f"<guid isPermaLink=\"false\">{a['id']}</guid>"
        f"<pubDate>{format_datetime(datetime.fromisoformat(a['published_at'].replace('Z', '+00:00')))}</pubDate></item>"
        for a in results)
    return ('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Suite News</title>'
            f'<link>https://news.example.com/</link><description>suite</description>{items}</channel></rss>').encode()


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, body=b"", kind=None, headers=()):
        self.send_response(status)
        for name, value in ((("Content-Type", kind),) if kind else ()) + tuple(headers):
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        static = os.path.join(args.root, path.lstrip("/")) if args.root else ""
        static = static if static and os.path.isfile(static) else ""
        with open(args.log, "a") as log:
            log.write(self.path + (" KEY" if static and self.headers.get("X-API-Key") else "") + "\n")
        if static:
            with open(static, "rb") as f:
                return self.answer(200, f.read(), mimetypes.guess_type(static)[0] or "application/octet-stream")
        if not args.articles:
            return self.answer(404)
        if path == "/broken.rss":
            return self.answer(500)
        if path == "/feed.rss":
            with open(args.articles) as f:
                body = rss(json.load(f))
            etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                return self.answer(304, headers=[("ETag", etag)])
            return self.answer(200, body, "application/rss+xml", [("ETag", etag)])
        try:
            with open(args.articles) as f:
                results = json.load(f)
            body, status = json.dumps({"status": "ok", "page": 1, "results": results}).encode(), 200
        except Exception as e:  # a half-written file during an edit: answer 503, the host retries
            body = json.dumps({"status": "not_ok", "errors": [{"status": 503, "code": "TEST", "message": str(e)}]}).encode()
            status = 503
        self.answer(status, body, "application/json")

    def log_message(self, *a):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
