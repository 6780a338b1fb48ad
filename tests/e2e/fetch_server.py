#!/usr/bin/env python3
"""A scripted HTTP server on 127.0.0.1 for the fetch tests.

    fetch_server.py --dir DIR --port-file FILE --log FILE [--lifetime SECONDS]

Binds a free port, writes it to FILE (atomically), and serves the scenarios
below until it is killed or its lifetime (default 120 s) ends. Every request
is logged to the log file as one JSON line: path, status, request headers of
interest, bytes of body sent.

  /data/NAME               DIR/NAME with ETag and Last-Modified; 304 when
                           If-None-Match or If-Modified-Since match; gzip
                           Content-Encoding when the client accepts it
  /plain/NAME              DIR/NAME, no validators, no compression
  /stream/NAME             DIR/NAME without Content-Length (ends at close)
  /status/CODE             that status, with a small HTML body
  /flaky/CODE/N/NAME       CODE for the first N requests, then as /data/NAME
  /retry-after/S/NAME      429 with Retry-After: S once, then as /data/NAME
  /truncate/NAME           Content-Length of DIR/NAME, half of it sent
  /stall/NAME              Content-Length of DIR/NAME, half sent, then a
                           30 s pause (logged as "stalled" when it starts)
  /slow                    nothing for 10 s
  /html                    a 200 HTML login page
  /empty                   200 with an empty body
  /loop                    302 to itself
  /redirect/N/NAME         N redirects, then /data/NAME
  /bomb                    Content-Encoding: gzip, 10 GB of zeros once
                           inflated (10 MB sent at most)
  /bombfile                a gzip file of 64 MB of zeros (66 kB sent)
  /encoded/NAME            DIR/NAME.gz's bytes as they are (a gzip file, of
                           one member or several) sent with Content-Encoding:
                           gzip: the body is NAME's content
"""
import argparse
import email.utils
import gzip
import hashlib
import json
import os
import socketserver
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, HTTPServer

LOCK = threading.Lock()
COUNTS = {}
ARGS = None


def bomb_stream():
    """The gzip bomb: a header and first block, then a block that repeats."""
    chunk = b"\0" * (1 << 20)
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    first = comp.compress(chunk) + comp.flush(zlib.Z_SYNC_FLUSH)
    again = comp.compress(chunk) + comp.flush(zlib.Z_SYNC_FLUSH)
    return first, again


BOMB_FIRST, BOMB_AGAIN = bomb_stream()
BOMB_REPEATS = 10 * 1024


def log(entry):
    with LOCK:
        with open(ARGS.log, "a") as f:
            f.write(json.dumps(entry) + "\n")


def count(path):
    with LOCK:
        COUNTS[path] = COUNTS.get(path, 0) + 1
        return COUNTS[path]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server_version = "fetch-test-server"

    def log_message(self, fmt, *args):
        pass

    def record(self, status, sent, note=""):
        log({
            "path": self.path,
            "status": status,
            "sent": sent,
            "note": note,
            "if_none_match": self.headers.get("If-None-Match"),
            "if_modified_since": self.headers.get("If-Modified-Since"),
            "user_agent": self.headers.get("User-Agent"),
            "accept_encoding": self.headers.get("Accept-Encoding"),
        })

    def reply(self, status, body=b"", headers=(), note=""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if not any(name.lower() == "content-length" for name, _ in headers):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.record(status, len(body), note)

    def read_data(self, name):
        path = os.path.join(ARGS.dir, os.path.basename(name))
        with open(path, "rb") as f:
            return f.read()

    def serve_data(self, name):
        body = self.read_data(name)
        etag = '"%s"' % hashlib.sha256(body).hexdigest()[:16]
        modified = email.utils.formatdate(1700000000, usegmt=True)
        if self.headers.get("If-None-Match") == etag or (
                self.headers.get("If-None-Match") is None
                and self.headers.get("If-Modified-Since") == modified):
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            self.record(304, 0)
            return
        headers = [("ETag", etag), ("Last-Modified", modified),
                   ("Content-Type", "text/csv")]
        note = ""
        if "gzip" in (self.headers.get("Accept-Encoding") or ""):
            body = gzip.compress(body)
            headers.append(("Content-Encoding", "gzip"))
            note = "gzip"
        self.reply(200, body, headers, note)

    def send_partial(self, body, stall):
        self.send_response(200)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        half = body[:len(body) // 2]
        self.wfile.write(half)
        self.wfile.flush()
        if stall:
            self.record(200, len(half), "stalled")
            time.sleep(30)
        else:
            self.record(200, len(half), "truncated")

    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        kind = parts[0]
        try:
            if kind == "data":
                self.serve_data(parts[1])
            elif kind == "encoded":
                self.reply(200, self.read_data(parts[1] + ".gz"),
                           [("Content-Type", "text/csv"), ("Content-Encoding", "gzip")],
                           "encoded")
            elif kind == "plain":
                self.reply(200, self.read_data(parts[1]), [("Content-Type", "text/csv")])
            elif kind == "stream":
                body = self.read_data(parts[1])
                self.send_response(200)
                self.send_header("Content-Type", "text/csv")
                self.end_headers()
                for i in range(0, len(body), 65536):
                    self.wfile.write(body[i:i + 65536])
                self.record(200, len(body), "streamed")
            elif kind == "status":
                code = int(parts[1])
                self.reply(code, b"<html><body>error %d</body></html>" % code,
                           [("Content-Type", "text/html")])
            elif kind == "flaky":
                code, times, name = int(parts[1]), int(parts[2]), parts[3]
                if count(self.path) <= times:
                    self.reply(code, b"try again later", [("Content-Type", "text/plain")])
                else:
                    self.serve_data(name)
            elif kind == "retry-after":
                secs, name = parts[1], parts[2]
                if count(self.path) == 1:
                    self.reply(429, b"slow down", [("Retry-After", secs)])
                else:
                    self.serve_data(name)
            elif kind == "truncate":
                self.send_partial(self.read_data(parts[1]), stall=False)
            elif kind == "stall":
                self.send_partial(self.read_data(parts[1]), stall=True)
            elif kind == "slow":
                self.record(0, 0, "slow")
                time.sleep(10)
            elif kind == "html":
                self.reply(200, b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head>"
                           b"<body><form>Password: <input type=password></form></body></html>\n",
                           [("Content-Type", "text/html; charset=utf-8")])
            elif kind == "empty":
                self.reply(200, b"", [("Content-Type", "text/csv")])
            elif kind == "loop":
                self.reply(302, b"", [("Location", "/loop")])
            elif kind == "redirect":
                left, name = int(parts[1]), parts[2]
                target = "/data/%s" % name if left <= 1 else "/redirect/%d/%s" % (left - 1, name)
                self.reply(302, b"", [("Location", target)])
            elif kind == "bomb":
                self.send_response(200)
                self.send_header("Content-Type", "text/csv")
                self.send_header("Content-Encoding", "gzip")
                self.end_headers()
                sent = 0
                try:
                    self.wfile.write(BOMB_FIRST)
                    sent += len(BOMB_FIRST)
                    for _ in range(BOMB_REPEATS):
                        self.wfile.write(BOMB_AGAIN)
                        sent += len(BOMB_AGAIN)
                    note = "complete"
                except (BrokenPipeError, ConnectionResetError):
                    note = "client closed"
                self.record(200, sent, note)
            elif kind == "bombfile":
                body = BOMB_FIRST + BOMB_AGAIN * 63
                self.reply(200, body, [("Content-Type", "application/gzip")])
            else:
                self.reply(404, b"not found")
        except (BrokenPipeError, ConnectionResetError):
            self.record(0, 0, "client closed")


class Server(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=120.0)
    ARGS = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    tmp = ARGS.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % server.server_address[1])
    os.rename(tmp, ARGS.port_file)
    timer = threading.Timer(ARGS.lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    server.serve_forever(poll_interval=0.1)
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
