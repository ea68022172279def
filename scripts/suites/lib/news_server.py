#!/usr/bin/env python3
"""A loopback APITube/NewsAPI stand-in for the integration suites.

Serves the JSON file given with --articles at /v1/news/top-headlines (APITube envelope), and the
same articles as an RSS 2.0 feed at /feed.rss (with an ETag; a matching If-None-Match gets a 304),
on 127.0.0.1; /broken.rss always answers 500; /images/NAME serves the file NAME of --images
(an image request that carries X-API-Key is logged with " KEY"). The suite edits that file to make headlines "arrive". Every request is appended to
--log as one line (path and query). Prints the port on stdout, then serves until killed.
"""
import argparse, json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--articles", required=True, help="JSON file: a list of APITube articles")
parser.add_argument("--log", required=True)
parser.add_argument("--images", help="folder served at /images/")
args = parser.parse_args()

from email.utils import format_datetime
from datetime import datetime
import hashlib
from xml.sax.saxutils import escape

def rss(results):
    items = "".join(
        f"<item><title>{escape(a['title'])}</title><link>{escape(a['href'])}</link>"
        f"<guid isPermaLink=\"false\">{a['id']}</guid>"
        f"<pubDate>{format_datetime(datetime.fromisoformat(a['published_at'].replace('Z', '+00:00')))}</pubDate></item>"
        for a in results)
    return ('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Suite News</title>'
            f'<link>https://news.example.com/</link><description>suite</description>{items}</channel></rss>').encode()

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        with open(args.log, "a") as log:
            log.write(self.path + (" KEY" if self.path.startswith("/images/") and self.headers.get("X-API-Key") else "") + "\n")
        if self.path.startswith("/images/") and args.images:
            import os
            name = os.path.basename(self.path)
            try:
                body = open(os.path.join(args.images, name), "rb").read()
                self.send_response(200)
            except OSError:
                body = b"no such image"
                self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if self.path.startswith("/broken.rss"):
            self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers(); return
        if self.path.startswith("/feed.rss"):
            with open(args.articles) as f:
                body = rss(json.load(f))
            etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                self.send_response(304); self.send_header("ETag", etag); self.end_headers(); return
            self.send_response(200)
            self.send_header("Content-Type", "application/rss+xml")
            self.send_header("ETag", etag)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        try:
            with open(args.articles) as f:
                results = json.load(f)
            body = json.dumps({"status": "ok", "page": 1, "results": results}).encode()
            self.send_response(200)
        except Exception as e:  # a half-written file during an edit: answer 503, the host retries
            body = json.dumps({"status": "not_ok", "errors": [{"status": 503, "code": "TEST", "message": str(e)}]}).encode()
            self.send_response(503)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
