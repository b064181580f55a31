"""A scriptable HTTP(S) server for Chime's webhook tests (Python's http.server).

Listens on 127.0.0.1 with an ephemeral port, prints "port N" once ready, and writes one
JSON line per request to --log: path, headers (lower-cased names), body, status sent,
start and end times, and the client's port (one port, one connection). The path says how to answer, so each test channel scripts its own:
  /ok                          200
  /status/CODE                 CODE, with a 2,000-character body naming it
  /flaky/N                     500 to the first N requests on this path, then 200
  /ratelimit/N/SECONDS         429 with Retry-After: SECONDS to the first N, then 200
  /ratelimit-date/N/SECONDS    the same with Retry-After as an HTTP date
  /discord/N/SECONDS           429 with X-RateLimit-Reset-After (Discord's header) only
  /drained/SECONDS             200 with X-RateLimit-Remaining: 0 and X-RateLimit-Reset-After:
                               SECONDS (a Discord bucket emptied by this request)
  /slow/SECONDS                wait, then 200
  /reset/N                     close the connection without an answer, N times, then 200
GET answers from --files DIR: the file at the request's path (without its query) under
DIR, as JSON, or 404; a chat platform's REST API (Mattermost's /api/v4/posts/ID) is
scripted by writing its answers there.
Options: --cert FILE --key FILE serve HTTPS with this certificate.
"""
import argparse, email.utils, json, os, socket, ssl, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
parser.add_argument("--cert")
parser.add_argument("--key")
parser.add_argument("--files")
options = parser.parse_args()

lock = threading.Lock()
counts = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go in separate writes: without this, Nagle and delayed ACKs
    # hold every answer 40 ms.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        started = time.time()
        path = os.path.normpath(self.path.split("?")[0]).lstrip("/")
        full = os.path.join(options.files or "/nonexistent", path)
        status, data = (200, open(full, "rb").read()) if options.files and os.path.isfile(full) else (404, b'{"status_code":404}')
        # Logged before the answer goes (as in do_POST): a test reads the log as soon as
        # the client is done, which may be before this thread would have written it.
        self.record(b"", status, started)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        started = time.time()
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = self.path.split("?")[0].strip("/").split("/")
        with lock:
            counts[self.path] = counts.get(self.path, 0) + 1
            count = counts[self.path]
        status, headers, text = 200, {}, "ok"
        kind = parts[0]
        if kind == "status":
            status = int(parts[1])
            text = f"status {status}: " + "x" * 2000
        elif kind == "flaky" and count <= int(parts[1]):
            status, text = 500, "internal error"
        elif kind in ("ratelimit", "ratelimit-date", "discord") and count <= int(parts[1]):
            status, text = 429, '{"message": "You are being rate limited."}'
            wait = float(parts[2])
            if kind == "ratelimit":
                headers["Retry-After"] = parts[2]
            elif kind == "ratelimit-date":
                headers["Retry-After"] = email.utils.formatdate(time.time() + wait + 1, usegmt=True)
            else:
                headers["X-RateLimit-Reset-After"] = parts[2]
        elif kind == "drained":
            headers["X-RateLimit-Remaining"], headers["X-RateLimit-Reset-After"] = "0", parts[1]
        elif kind == "slow":
            time.sleep(float(parts[1]))
        elif kind == "reset" and count <= int(parts[1]):
            self.record(body, 0, started)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            self.close_connection = True
            self.connection.close()
            return
        data = text.encode()
        # The end is before the answer goes: once it is written, the client may start its
        # next request before this thread is scheduled again, and an end taken then
        # would count the two as in flight at once. The request is logged then too: a
        # test reads the log as soon as chime exits, which may be before this thread
        # would have written a line after the answer.
        ended = time.time()
        self.record(body, status, started, ended)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def record(self, body, status, started, ended=None):
        line = json.dumps({
            "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": body.decode("utf-8", "replace"), "status": status, "start": started, "end": ended or time.time(),
            "peer": self.client_address[1],
        })
        with lock:
            with open(options.log, "a") as log:
                log.write(line + "\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


server = Server(("127.0.0.1", 0), Handler)
if options.cert:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(options.cert, options.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(f"port {server.server_address[1]}", flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
