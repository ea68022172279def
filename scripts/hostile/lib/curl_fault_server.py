#!/usr/bin/env python3
"""A loopback server for the transport's own hostile rows: what a libcurl transport
must survive and what it must refuse. Listens on two ports (the second is "another origin");
the first path segment names the behaviour, the rest is ignored.

  endless    200, no Content-Length, zeros until the client hangs up (close-delimited)
  bomb       200, Content-Encoding: gzip, no Content-Length: 1 GiB of zeros compressed on the
             fly (about 1 MiB on the wire)
  hang       reads the request, then never answers
  feed       200, a small RSS feed whose one item names the port
  away       302 to the second port (another origin), same path
  localhost  302 to http://localhost:<same port>/... (another host name for the same server)
  loop       302 to itself
  headers    200, then header lines ("X-A: b") until the client hangs up
  chunk      200, Transfer-Encoding: chunked with a chunk size that is not hex
  coding     200, Content-Encoding: ESC[31m xz (an escape sequence and a coding libcurl lacks)
  nostatus   a JSON body with no status line at all (HTTP/0.9 style)

Every request is appended to --log as one JSON line: port, path, headers.
Prints "PORT OTHERPORT" on stdout, then serves until killed.
"""
import argparse, json, socket, threading, time, zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
args = parser.parse_args()
lock = threading.Lock()
ports = []


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def head(self, status, extra=()):
        self.send_response(status)
        self.send_header("Connection", "close")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()

    def stream(self, chunks):
        try:
            for chunk in chunks:
                self.wfile.write(chunk)
        except OSError:
            pass  # the client hung up: what a capped client does

    def do_GET(self):
        port = self.server.server_address[1]
        with lock, open(args.log, "a") as log:
            log.write(json.dumps({"t": time.time(), "port": port, "path": self.path,
                                  "headers": dict(self.headers.items())}) + "\n")
        fault = self.path.split("?")[0].strip("/").split("/")[0]
        if fault == "endless":
            self.head(200, [("Content-Type", "application/json")])
            zeros = b"0" * 65536
            self.stream(zeros for _ in iter(int, 1))
        elif fault == "bomb":
            self.head(200, [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")])
            def gz():
                z = zlib.compressobj(9, zlib.DEFLATED, 31)
                block = b"\0" * (1 << 20)
                for _ in range(1024):
                    out = z.compress(block)
                    if out:
                        yield out
                yield z.flush()
            self.stream(gz())
        elif fault == "hang":
            try:
                while self.connection.recv(4096):
                    pass
            except OSError:
                pass
        elif fault == "feed":
            body = ("<?xml version='1.0'?><rss version='2.0'><channel><title>Good feed</title>"
                    "<item><title>Good feed story %d</title><link>https://good.example/%d</link>"
                    "<pubDate>Tue, 01 Dec 2026 08:00:00 GMT</pubDate></item></channel></rss>" % (port, port)).encode()
            self.head(200, [("Content-Type", "application/rss+xml"), ("Content-Length", str(len(body)))])
            self.wfile.write(body)
        elif fault in ("headers", "chunk", "coding", "nostatus"):
            self.close_connection = True
            if fault == "headers":
                self.stream(iter([b"HTTP/1.1 200 OK\r\n"] + [b"X-A: b\r\n" * 8192 for _ in range(4096)]))
            else:
                self.stream([{
                    "chunk": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
                    "coding": b"HTTP/1.1 200 OK\r\nContent-Encoding: \x1b[31mxz\r\nContent-Length: 3\r\n\r\nabc",
                    "nostatus": b'{"status":"ok","results":[]}\n',
                }[fault]])
        elif fault in ("away", "localhost", "loop"):
            target = {"away": "http://127.0.0.1:%d%s" % (ports[1], self.path),
                      "localhost": "http://localhost:%d%s" % (port, self.path.replace("/localhost", "/feed", 1)),
                      "loop": self.path}[fault]
            self.head(302, [("Location", target), ("Content-Length", "0")])
        else:
            self.head(404, [("Content-Length", "0")])


servers = [ThreadingHTTPServer(("127.0.0.1", 0), Handler) for _ in range(2)]
for s in servers:
    s.daemon_threads = True
    ports.append(s.server_address[1])
    threading.Thread(target=s.serve_forever, daemon=True).start()
print("%d %d" % tuple(ports), flush=True)
threading.Event().wait()
