#!/usr/bin/env python3
"""A loopback APITube/NewsAPI stand-in for the integration suites.

Serves the JSON file given with --articles at /v1/news/top-headlines (APITube envelope) on
127.0.0.1. The suite edits that file to make headlines "arrive". Every request is appended to
--log as one line (path and query). Prints the port on stdout, then serves until killed.
"""
import argparse, json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--articles", required=True, help="JSON file: a list of APITube articles")
parser.add_argument("--log", required=True)
args = parser.parse_args()

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        with open(args.log, "a") as log:
            log.write(self.path + "\n")
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
