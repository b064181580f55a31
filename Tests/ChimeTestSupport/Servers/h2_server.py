"""An HTTPS server that speaks HTTP/2 (Debian's python3-hypercorn), for Chime's tests.

Listens on 127.0.0.1 with an ephemeral port, prints "port N" once listening, answers
every POST with 200 and writes one JSON line per request to --log: path, the HTTP
version the request came over, and the client's port (one port, one connection).
Options: --cert FILE --key FILE (required: browsers and libcurl speak HTTP/2 over TLS).
"""
import argparse, asyncio, json, socket, sys

from hypercorn.asyncio import serve
from hypercorn.config import Config

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
parser.add_argument("--cert", required=True)
parser.add_argument("--key", required=True)
options = parser.parse_args()


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)
    with open(options.log, "a") as log:
        log.write(json.dumps({"path": scope["path"], "version": scope["http_version"], "peer": scope["client"][1]}) + "\n")
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


# The socket is made and listening before the port is printed: no race with the test.
listener = socket.socket()
listener.bind(("127.0.0.1", 0))
listener.listen(128)
config = Config()
config.bind = [f"fd://{listener.fileno()}"]
config.certfile, config.keyfile = options.cert, options.key
config.accesslog = config.errorlog = None
print(f"port {listener.getsockname()[1]}", flush=True)


async def stdin_closed():
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


asyncio.run(serve(app, config, shutdown_trigger=stdin_closed))
