#!/usr/bin/env python3
"""make bench's one HTTP server, on 127.0.0.1 only, stdlib only. Every path starts with the name
of the client it is for (/headlines/..., /newsboat/...), so that the wire log tells whose bytes
each answer was.

  GET /CLIENT/feeds/PATH                 Fixtures/real-world/PATH
  GET /CLIENT/latency.rss                the --latency-feed file, read afresh at each request
  GET /CLIENT/v1/news/top-headlines      Fixtures/apitube/top-headlines-fl.json (with fl=) or
                                         top-headlines-full.json; needs an X-API-Key header
  GET /control?mode=M&delay_ms=N&max_age=S   sets how the server answers from now on (logged apart)

Every answer waits delay_ms (default 200) before it is built: a server that answers in 200 ms.
Mode `changing`: every answer is a 200 with the whole body and a new ETag and Last-Modified, as
a feed that changed since the client's last fetch. Mode `unchanged`: one ETag and Last-Modified
per file; a request whose If-None-Match names it (or, without one, whose If-Modified-Since is not
older) gets a 304. The latency feed keeps its ETag while its bytes are the same, in either mode.
Bodies are gzip-compressed when Accept-Encoding names gzip (each file compressed once). With
max_age set (S > 0), every feed answer, 200 or 304, says `Cache-Control: max-age=S`.

Each answer is appended to the wire log as one JSON line (client, path, status, wire_bytes:
status line + headers + body exactly as written, t_request when the request was parsed, t_answer
when the answer was built) before it is written, so a client that has its answer can read its
line. Prints "PORT <n>" once listening."""
import argparse, email.utils, gzip, hashlib, json, os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "bench"

    def do_GET(self):
        self.t_request = time.time()
        url = urlsplit(self.path)
        if url.path == "/control":
            return self.control(parse_qs(url.query))
        client, _, rest = url.path.lstrip("/").partition("/")
        time.sleep(self.server.delay)
        wants_gzip = any(p.split(";")[0].strip().lower() == "gzip"
                         for p in self.headers.get("Accept-Encoding", "").split(","))
        if rest.startswith("feeds/"):
            path = os.path.realpath(os.path.join(self.server.corpus, rest[len("feeds/"):]))
            if not path.startswith(self.server.corpus + os.sep):
                return self.answer(client, url, 404, b"not found", False)
            return self.file(client, url, path, "application/rss+xml", wants_gzip, fixed=False)
        if rest == "latency.rss" and self.server.latency_feed:
            return self.file(client, url, self.server.latency_feed, "application/rss+xml", wants_gzip, fixed=True)
        if rest == "v1/news/top-headlines":
            if not self.headers.get("X-API-Key"):
                return self.answer(client, url, 401, b'{"status":"not_ok","errors":[{"status":401,"code":"ER0175"}]}', False)
            name = "top-headlines-fl.json" if "fl" in parse_qs(url.query) else "top-headlines-full.json"
            return self.file(client, url, os.path.join(self.server.apitube, name), "application/json", wants_gzip, fixed=False)
        return self.answer(client, url, 404, b"not found", False)

    def control(self, query):
        if "mode" in query:
            if query["mode"][0] not in ("changing", "unchanged"):
                return self.answer("control", urlsplit(self.path), 400, b"mode is changing or unchanged", False)
            self.server.mode = query["mode"][0]
        if "delay_ms" in query:
            self.server.delay = float(query["delay_ms"][0]) / 1000
        if "max_age" in query:
            self.server.max_age = int(query["max_age"][0])
        return self.answer("control", urlsplit(self.path), 204, b"", False)

    def file(self, client, url, path, content_type, wants_gzip, fixed):
        try:
            body, packed, digest, mtime = self.server.load(path)
        except OSError:
            return self.answer(client, url, 404, b"not found", False)
        if self.server.mode == "changing" and not fixed:
            with self.server.lock:
                self.server.serial += 1
                n = self.server.serial
            etag, modified = '"%s-%d"' % (digest, n), email.utils.formatdate(usegmt=True)
        else:
            etag, modified = '"%s"' % digest, email.utils.formatdate(mtime, usegmt=True)
        caching = [("Cache-Control", "max-age=%d" % self.server.max_age)] if self.server.max_age > 0 and not fixed else []
        if (self.server.mode != "changing" or fixed) and self.unchanged_for_client(etag, mtime):
            return self.answer(client, url, 304, b"", False, [("ETag", etag), ("Last-Modified", modified)] + caching)
        return self.answer(client, url, 200, packed if wants_gzip else body, wants_gzip,
                           [("ETag", etag), ("Last-Modified", modified), ("Content-Type", content_type)] + caching)

    def unchanged_for_client(self, etag, mtime):
        match = self.headers.get("If-None-Match")
        if match is not None:
            return etag in [m.strip() for m in match.split(",")] or match.strip() == "*"
        since = self.headers.get("If-Modified-Since")
        if since:
            try:
                return email.utils.parsedate_to_datetime(since).timestamp() >= int(mtime)
            except (TypeError, ValueError):
                return False
        return False

    def answer(self, client, url, status, body, gzipped, extra=()):
        headers = [("Date", email.utils.formatdate(usegmt=True))] + list(extra)
        if gzipped:
            headers += [("Content-Encoding", "gzip"), ("Vary", "Accept-Encoding")]
        if status not in (204, 304):
            headers.append(("Content-Length", str(len(body))))
        head = "HTTP/1.1 %d %s\r\n" % (status, self.responses.get(status, ("",))[0])
        head += "".join("%s: %s\r\n" % h for h in headers) + "\r\n"
        wire = head.encode("latin-1") + body
        record = {"client": client, "path": url.path, "status": status, "mode": self.server.mode,
                  "wire_bytes": len(wire), "t_request": self.t_request, "t_answer": time.time()}
        with self.server.lock:
            self.server.log.write(json.dumps(record) + "\n")
            self.server.log.flush()
        self.wfile.write(wire)
        self.wfile.flush()

    def log_message(self, fmt, *args):
        pass  # the wire log is the record


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that closes a kept-alive connection is no error of the bench.
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)

    def load(self, path):
        """(body, gzip of body, sha1 prefix, mtime), kept while the file's mtime and size stay."""
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size)
        with self.lock:
            hit = self.files.get(key)
        if hit:
            return hit
        with open(path, "rb") as f:
            body = f.read()
        hit = (body, gzip.compress(body, compresslevel=6, mtime=0), hashlib.sha1(body).hexdigest()[:16], st.st_mtime)
        with self.lock:
            self.files[key] = hit
        return hit


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    fixtures = os.path.realpath(os.path.join(here, "..", "Fixtures"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", required=True)
    parser.add_argument("--latency-feed")
    parser.add_argument("--delay-ms", type=float, default=200)
    args = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    server.corpus = os.path.join(fixtures, "real-world")
    server.apitube = os.path.join(fixtures, "apitube")
    server.latency_feed = os.path.abspath(args.latency_feed) if args.latency_feed else None
    server.delay = args.delay_ms / 1000
    server.mode = "changing"
    server.max_age = 0
    server.serial = 0
    server.files = {}
    server.lock = threading.Lock()
    server.log = open(args.log, "a", encoding="utf-8")
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
