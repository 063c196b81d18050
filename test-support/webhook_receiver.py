#!/usr/bin/env python3
"""An independent webhook receiver for tests, written from the signature rules alone (not from our code).

Listens on 127.0.0.1 (port 0 = any free one), prints the port as its first line, and answers every POST:
200 {"ok": true} when the delivery verifies, 401 {"reason": step} at the first rule it fails, in the rules' order:
missing_header, timestamp_invalid, signature_mismatch, timestamp_stale / timestamp_future. Usage:
  python3 webhook_receiver.py SECRET [PORT]
"""
import hashlib
import hmac
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = sys.argv[1].encode()
TOLERANCE = 300
REQUIRED = ["X-Service-Event", "X-Service-Delivery", "X-Service-Timestamp", "X-Service-Signature"]


def verdict(headers, body):
    for name in REQUIRED:
        if not headers.get(name, "").strip():
            return "missing_header"
    ts = headers["X-Service-Timestamp"].strip()
    if not ts.isdigit():
        return "timestamp_invalid"
    expected = hmac.new(SECRET, ts.encode() + b"." + body, hashlib.sha256).hexdigest()
    parts = [p.strip() for p in headers["X-Service-Signature"].split(",")]
    matched = any(
        p.startswith("v1=") and hmac.compare_digest(p[3:], expected) for p in parts
    )
    if not matched:
        return "signature_mismatch"
    skew = int(time.time()) - int(ts)
    if skew > TOLERANCE:
        return "timestamp_stale"
    if skew < -TOLERANCE:
        return "timestamp_future"
    return None


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        reason = verdict(self.headers, body)
        answer = json.dumps({"ok": True} if reason is None else {"reason": reason}).encode()
        self.send_response(200 if reason is None else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
