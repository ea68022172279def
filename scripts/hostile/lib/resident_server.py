#!/usr/bin/env python3
"""Static files on 127.0.0.1 for the resident rows (70-resident.sh): GET /NAME answers the file
NAME from --root (read at each request, so a suite edits a feed to make a headline arrive);
`?delay=S` waits S seconds before answering (a slow server, for a one-shot that must not be killed
mid-request). Every request is appended to --log (path and query). Prints the port, then serves
until killed."""
import argparse, os, sys, time, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--root", required=True)
parser.add_argument("--log", required=True)
args = parser.parse_args()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        with open(args.log, "a") as log:
            log.write(self.path + "\n")
        delay = float(urllib.parse.parse_qs(url.query).get("delay", ["0"])[0])
        if delay:
            time.sleep(delay)
        name = os.path.basename(url.path)
        try:
            with open(os.path.join(args.root, name), "rb") as f:
                body = f.read()
        except OSError:
            self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers(); return
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()
