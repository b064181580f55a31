"""A reverse proxy serving an upstream under a path, as an operator puts `chime serve`
behind nginx's `location /PREFIX/ { proxy_pass http://127.0.0.1:PORT/; }` (Python's
http.server and http.client).

Listens on 127.0.0.1 with an ephemeral port and prints "port N" once ready. A request
whose path starts with --prefix goes to the upstream with the prefix taken off, its
method, headers and body as they came; the answer comes back as the upstream gave it
(status, headers, Set-Cookie and Location untouched, as nginx leaves a relative
Location). Any other path is 404, never forwarded. One JSON line per request to --log:
method, path, upstream path (null when not forwarded), status.
"""
import argparse, http.client, json, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
parser.add_argument("--prefix", required=True)
parser.add_argument("--upstream", type=int, required=True)
options = parser.parse_args()
prefix = options.prefix.rstrip("/")
lock = threading.Lock()
# Hop-by-hop headers (RFC 9110, 7.6.1) are the proxy's own, never passed on.
hop = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def record(self, upstream, status):
        with lock, open(options.log, "a") as log:
            log.write(json.dumps({"method": self.command, "path": self.path, "upstream": upstream, "status": status}) + "\n")

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        if not self.path.startswith(prefix + "/"):
            self.record(None, 404)
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        upstream = self.path[len(prefix):]
        connection = http.client.HTTPConnection("127.0.0.1", options.upstream, timeout=30)
        headers = {name: value for name, value in self.headers.items() if name.lower() not in hop and name.lower() != "host"}
        headers["Host"] = self.headers.get("Host", "")
        headers["X-Forwarded-Prefix"] = prefix
        connection.request(self.command, upstream, body=body, headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        connection.close()
        self.record(upstream, answer.status)
        self.send_response(answer.status)
        for name, value in answer.getheaders():
            if name.lower() not in hop and name.lower() != "content-length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = forward


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
print(f"port {server.server_address[1]}", flush=True)
# Stops when the test closes stdin.
sys.stdin.read()
server.shutdown()
