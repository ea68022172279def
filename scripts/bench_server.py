#!/usr/bin/env python3
"""A tiny stand-in for the news APIs, for the benchmark only. Loopback only, stdlib only.

  GET /v1/news/top-headlines   Fixtures/apitube/top-headlines-fl.json when the query has fl=,
                               else Fixtures/apitube/top-headlines-full.json (all fields)
  GET /v2/top-headlines        Fixtures/newsapi/top-headlines.json
  GET /feed.rss                Fixtures/feeds/sample-rss2.xml, or the --feed file read afresh at
                               each request (the latency bench rewrites it to make news arrive)

The body is gzip-compressed when Accept-Encoding names gzip. Every response is built whole,
its exact size (status line + headers + body) is appended to the wire log as one JSON line,
and only then is it written to the socket, so a client that has its answer can read its line.
Each line also has t_request (the request parsed) and t_answer (the answer built), Unix seconds,
so a bench can tell the server's share of a reload from the client's.

Prints "PORT <n>" on stdout once listening on 127.0.0.1 (port 0: the kernel picks a free one).
"""
import argparse
import hashlib
import email.utils
import gzip
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

ROUTES = {
    "/v1/news/top-headlines": ("apitube", "X-API-Key"),
    "/v2/top-headlines": ("newsapi", "X-Api-Key"),
}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "bench"

    def do_GET(self):
        self.t_request = time.time()
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        wants_gzip = any(part.split(";")[0].strip().lower() == "gzip"
                         for part in self.headers.get("Accept-Encoding", "").split(","))
        if url.path == "/feed.rss":
            return self.feed(url, wants_gzip)
        route = ROUTES.get(url.path)
        if route is None:
            return self.answer(404, b'{"status":"error","message":"not found"}', False, url, None)
        api, key_header = route
        if not self.headers.get(key_header):
            return self.answer(401, b'{"status":"not_ok","errors":[{"status":401,"code":"ER0175"}]}',
                               False, url, None)
        if api == "apitube":
            name = "top-headlines-fl.json" if "fl" in query else "top-headlines-full.json"
        else:
            name = "top-headlines.json"
        path = os.path.join(self.server.fixtures, api, name)
        try:
            with open(path, "rb") as f:
                body = f.read()
        except OSError as e:
            return self.answer(500, json.dumps({"status": "error", "message": str(e)}).encode(),
                               False, url, None)
        return self.answer(200, body, wants_gzip, url, os.path.relpath(path, self.server.fixtures))

    def feed(self, url, wants_gzip):
        """Fixtures/feeds/sample-rss2.xml with an ETag: a matching If-None-Match gets a 304."""
        path = self.server.feed or os.path.join(self.server.fixtures, "feeds", "sample-rss2.xml")
        with open(path, "rb") as f:
            body = f.read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        if self.headers.get("If-None-Match") == etag:
            return self.answer(304, b"", False, url, "feeds/sample-rss2.xml", [("ETag", etag)])
        return self.answer(200, body, wants_gzip, url, "feeds/sample-rss2.xml",
                           [("ETag", etag), ("Content-Type", "application/rss+xml")])

    def answer(self, status, body, compress, url, fixture, extra=None):
        raw_bytes = len(body)
        headers = [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Content-Type", "application/json; charset=utf-8"),
            ("Vary", "Accept-Encoding"),
        ]
        if extra:
            names = {name for name, _ in extra}
            headers = [h for h in headers if h[0] not in names] + list(extra)
        if compress:
            body = gzip.compress(body, compresslevel=6, mtime=0)
            headers.append(("Content-Encoding", "gzip"))
        if status != 304:
            headers.append(("Content-Length", str(len(body))))
        head = "HTTP/1.1 %d %s\r\n" % (status, self.responses.get(status, ("",))[0])
        head += "".join("%s: %s\r\n" % h for h in headers) + "\r\n"
        wire = head.encode("latin-1") + body
        record = {
            "variant": self.headers.get("X-Bench-Variant", ""),
            "path": url.path,
            "fl": "fl" in parse_qs(url.query),
            "gzip": compress,
            "status": status,
            "fixture": fixture,
            "raw_body_bytes": raw_bytes,
            "header_bytes": len(head.encode("latin-1")),
            "body_bytes": len(body),
            "wire_bytes": len(wire),
            "t_request": self.t_request,
            "t_answer": time.time(),
        }
        with self.server.log_lock:
            self.server.log.write(json.dumps(record) + "\n")
            self.server.log.flush()
        self.wfile.write(wire)
        self.wfile.flush()

    def log_message(self, fmt, *args):
        pass  # the wire log is the record; keep stderr quiet


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixtures", default=os.path.join(here, "..", "Fixtures"))
    parser.add_argument("--log", required=True, help="wire log, one JSON line per response")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--feed", help="serve this file at /feed.rss instead of the fixture")
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.fixtures = os.path.abspath(args.fixtures)
    server.feed = os.path.abspath(args.feed) if args.feed else None
    server.log = open(args.log, "a", encoding="utf-8")
    server.log_lock = threading.Lock()
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        server.log.close()


if __name__ == "__main__":
    sys.exit(main())
