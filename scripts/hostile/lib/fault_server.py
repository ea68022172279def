#!/usr/bin/env python3
"""A loopback APITube stand-in that misbehaves on purpose, for the hostile-world suites.

The first path segment names the fault; the rest (the provider appends /v1/news/top-headlines) is
ignored. `/dyn/...` reads the fault from the --control file at every request, so a suite can switch
a running host's server between good and bad without restarting anything.

  ok             200, an APITube envelope with the articles of --articles (articles.py format)
  never          reads the request, then never answers (until the client hangs up)
  trickle        200 with an honest Content-Length, then the body one byte a second
  reset          200, half the body, then a TCP reset (SO_LINGER 0)
  truncated      200 with a Content-Length 1000 bytes larger than the body sent, then a clean close
  huge           200 with Content-Length 5 MiB (over the 4 MiB cap), body streamed
  huge-unframed  200 with no Content-Length, 5 MiB streamed, then close
  html           200 text/html: a captive-portal style error page
  badjson        200 application/json that stops mid-object
  notok200       200 with an APITube not_ok error body (APITube does this)
  401 403 429 500 503   APITube not_ok error bodies with that status (429: Retry-After: 120;
                        401's message echoes the key it was sent, to prove it is redacted)
  502            an nginx-style HTML "Bad Gateway" page

Every request is appended to --log as one JSON line: time, fault, method, target, headers.
Prints the port on stdout, then serves until killed.
"""
import argparse, json, os, select, socket, struct, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
parser.add_argument("--articles", help="JSON file: a list of APITube articles (articles.py)")
parser.add_argument("--control", help="file naming the fault for /dyn/ paths (default ok)")
args = parser.parse_args()
log_lock = threading.Lock()

MIB = 1024 * 1024


def articles():
    if args.articles:
        try:
            with open(args.articles) as f:
                return json.load(f)
        except Exception:
            pass
    return [{"id": 9000 + k, "title": f"Fault server story {k}", "href": f"https://news.example.com/fault/{k}",
             "published_at": "2026-01-01T00:00:%02d.000Z" % k, "source": {"domain": "fault.example.com"}, "image": ""}
            for k in range(3, 0, -1)]


def not_ok(status, code, message):
    return json.dumps({"status": "not_ok", "request_id": "req-fault-%d" % status,
                       "errors": [{"status": status, "code": code, "message": message}]}).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def head(self, status, ctype="application/json", length=None, extra=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        if length is not None:
            self.send_header("Content-Length", str(length))
        self.send_header("Connection", "close")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.flush()

    def whole(self, status, body, ctype="application/json", extra=()):
        self.head(status, ctype, len(body), extra)
        self.wfile.write(body)

    def client_gone(self, wait):
        """Waits up to `wait` seconds; True when the client closed its end."""
        r, _, _ = select.select([self.connection], [], [], wait)
        if not r:
            return False
        try:
            return self.connection.recv(1, socket.MSG_PEEK) == b""
        except OSError:
            return True

    def do_GET(self):
        fault = self.path.split("?")[0].strip("/").split("/")[0]
        if fault == "dyn":
            fault = "ok"
            if args.control:
                try:
                    with open(args.control) as f:
                        fault = f.read().strip() or "ok"
                except OSError:
                    pass
        with log_lock, open(args.log, "a") as log:
            log.write(json.dumps({"t": time.time(), "fault": fault, "method": self.command, "target": self.path,
                                  "headers": dict(self.headers.items())}) + "\n")
        key = self.headers.get("X-API-Key", "")
        good = json.dumps({"status": "ok", "page": 1, "has_next_pages": False, "results": articles()}).encode()
        try:
            self.serve(fault, key, good)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        self.close_connection = True

    def serve(self, fault, key, good):
        if fault == "ok":
            return self.whole(200, good)
        if fault == "never":
            deadline = time.time() + 300
            while time.time() < deadline and not self.client_gone(1):
                pass
            return
        if fault == "trickle":
            self.head(200, length=len(good))
            for i in range(len(good)):
                self.wfile.write(good[i:i + 1])
                self.wfile.flush()
                if self.client_gone(1):
                    return
            return
        if fault == "reset":
            self.head(200, length=len(good))
            self.wfile.write(good[: len(good) // 2])
            self.wfile.flush()
            time.sleep(0.05)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            return
        if fault == "truncated":
            self.head(200, length=len(good) + 1000)
            self.wfile.write(good)
            return
        if fault in ("huge", "huge-unframed"):
            total = 5 * MIB
            self.head(200, length=total if fault == "huge" else None)
            chunk = b" " * 65536
            for _ in range(total // len(chunk)):
                self.wfile.write(chunk)
            return
        if fault == "html":
            return self.whole(200, b"<!DOCTYPE html><html><head><title>Sign in to the network</title></head>"
                                   b"<body><h1>Please log in</h1><p>Hotel Wi-Fi</p></body></html>", "text/html")
        if fault == "badjson":
            return self.whole(200, b'{"status":"ok","page":1,"results":[{"id":1,"title":"Half a')
        if fault == "notok200":
            return self.whole(200, not_ok(200, "ER0183", "Internal error, reported with HTTP 200"))
        if fault == "401":
            return self.whole(401, not_ok(401, "ER0175", "Invalid API key: " + key))
        if fault == "403":
            return self.whole(403, not_ok(403, "ER0601", "Your plan does not allow this endpoint"))
        if fault == "429":
            return self.whole(429, not_ok(429, "ER0203", "Too many requests"),
                              extra=(("Retry-After", "120"), ("X-RateLimit-Remaining", "0")))
        if fault == "500":
            return self.whole(500, not_ok(500, "ER0183", "Internal server error"))
        if fault == "502":
            return self.whole(502, b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
                                   b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
                                   b"</body>\r\n</html>\r\n", "text/html")
        if fault == "503":
            return self.whole(503, not_ok(503, "ER0183", "Service temporarily unavailable"))
        return self.whole(404, not_ok(404, "TEST", "unknown fault " + fault))


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
