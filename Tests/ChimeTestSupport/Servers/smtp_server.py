"""A scriptable SMTP server for Chime's tests (Debian's python3-aiosmtpd).

Listens on 127.0.0.1 with an ephemeral port, prints "port N" once ready, then writes
one JSON line per accepted message to --log (envelope, data, and when its DATA came
and was answered: "start" and "end", seconds since the epoch). Options:
  --cert FILE --key FILE   offer STARTTLS with this certificate (and require it)
  --implicit-tls           with --cert: TLS from the first byte instead (smtps://)
  --user U --password P    require AUTH (PLAIN/LOGIN) with these credentials
  --tempfail N             answer 451 to the DATA of the first N transactions
  --refuse ADDRESS         answer 550 to RCPT TO:<ADDRESS>
  --drop-data N            close the connection in the middle of the first N DATAs
  --delay SECONDS          wait this long before answering each DATA
  --tempfail-every N       answer 451 to every Nth DATA (after the first ones above)
  --drop-every N           close the connection in the middle of every Nth DATA
  --answer-delay SECONDS   wait this long before answering each EHLO, MAIL, RCPT, end of
                           DATA, RSET and NOOP: a relay far away (benchmarks)
  --pipelining             offer PIPELINING (RFC 2920); each message's log line then says
                           whether its RCPT had come with its MAIL ("pipelined")
  --idle-timeout SECONDS   close a connection idle this long (aiosmtpd's default: 300)
  --smtputf8               offer SMTPUTF8 (RFC 6531); without it, aiosmtpd takes commands
                           in ASCII only
  --port N                 listen on this port rather than an ephemeral one (a relay
                           coming back where it was)
  --hostile-mail WHAT      answer MAIL with a reply no client should take whole: "long"
                           (one line of 100,000 bytes) or "lines" (1,000 lines)
"""
import argparse, asyncio, json, socket, ssl, sys, time

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
parser.add_argument("--cert")
parser.add_argument("--key")
parser.add_argument("--implicit-tls", action="store_true")
parser.add_argument("--user")
parser.add_argument("--password")
parser.add_argument("--tempfail", type=int, default=0)
parser.add_argument("--refuse", action="append", default=[])
parser.add_argument("--drop-data", type=int, default=0)
parser.add_argument("--delay", type=float, default=0)
parser.add_argument("--tempfail-every", type=int, default=0)
parser.add_argument("--drop-every", type=int, default=0)
parser.add_argument("--answer-delay", type=float, default=0)
parser.add_argument("--pipelining", action="store_true")
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--idle-timeout", type=float, default=300)
parser.add_argument("--smtputf8", action="store_true")
parser.add_argument("--hostile-mail", choices=["long", "lines"])
options = parser.parse_args()


class Handler:
    def __init__(self):
        self.datas = 0

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        await asyncio.sleep(options.answer_delay)
        session.host_name = hostname
        if options.pipelining:
            responses.insert(len(responses) - 1, "250-PIPELINING")
        return responses

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        await asyncio.sleep(options.answer_delay)
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        # The commands after MAIL already read by the server's stream: sent with it.
        session.pipelined = bool(server._reader._buffer)
        if options.hostile_mail == "long":
            return "250 " + "x" * 100_000
        if options.hostile_mail == "lines":
            return "250-x\r\n" * 1_000 + "250 OK"
        return "250 OK"

    async def handle_RSET(self, server, session, envelope):
        await asyncio.sleep(options.answer_delay)
        return "250 OK"

    async def handle_NOOP(self, server, session, envelope, arg):
        await asyncio.sleep(options.answer_delay)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        await asyncio.sleep(options.answer_delay)
        if address in options.refuse:
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.datas += 1
        started = time.time()
        if options.delay or options.answer_delay:
            await asyncio.sleep(options.delay + options.answer_delay)
        first = options.drop_data + options.tempfail
        later = self.datas - first
        if self.datas <= options.drop_data or (later > 0 and options.drop_every and later % options.drop_every == 0):
            server.transport.close()
            return "421 closing"
        if self.datas <= first or (later > 0 and options.tempfail_every and later % options.tempfail_every == 0):
            return "451 4.3.0 Try again later"
        with open(options.log, "a") as log:
            log.write(json.dumps({
                "from": envelope.mail_from, "to": envelope.rcpt_tos,
                "data": envelope.content.decode("utf-8", "replace"),
                "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
                "peer": session.peer[1], "user": options.user if session.authenticated else None,
                "start": started, "end": time.time(), "pipelined": getattr(session, "pipelined", False),
                "mail_options": envelope.mail_options,
            }) + "\n")
        return "250 OK: queued"


def authenticate(server, session, envelope, mechanism, auth_data):
    if isinstance(auth_data, LoginPassword) and auth_data.login.decode() == options.user \
            and auth_data.password.decode() == options.password:
        return AuthResult(success=True)
    return AuthResult(success=False, handled=False)


port = options.port
if not port:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

settings, implicit = {"timeout": options.idle_timeout, "enable_SMTPUTF8": options.smtputf8}, None
if options.cert:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(options.cert, options.key)
    if options.implicit_tls:
        implicit = context
    else:
        settings.update(tls_context=context, require_starttls=True)
if options.user:
    # aiosmtpd counts only STARTTLS as TLS here; with implicit TLS the whole session is.
    settings.update(authenticator=authenticate, auth_required=True, auth_require_tls=bool(options.cert) and not options.implicit_tls)

controller = Controller(Handler(), hostname="127.0.0.1", port=port, ssl_context=implicit, server_kwargs=settings)
controller.start()
print(f"port {port}", flush=True)
try:
    sys.stdin.read()
finally:
    controller.stop()
