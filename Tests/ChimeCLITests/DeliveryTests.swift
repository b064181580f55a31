import ChimeTestSupport
import Foundation
import Testing

/// `chime run` against real servers started by each test on 127.0.0.1: aiosmtpd for SMTP,
/// Python's http.server for webhooks. Each status path must end in the right state with
/// the right number of attempts, as `chime deliveries --json` shows them.
@Suite("Delivery over SMTP and webhooks", .serialized)
struct DeliveryTests {
    /// A configuration with these channels (at most `concurrency` deliveries in flight over
    /// all of them, when given), and one recipient per (id, channel, address).
    static func configuration(channels: [String], concurrency: Int? = nil, recipients: [(String, String, String)]) -> String {
        """
        <chime version="1">
          <categories><category identifier="reminder"><action identifier="done" title="Done"/></category></categories>
          <channels\(concurrency.map { #" concurrency="\#($0)""# } ?? "")>
            \(channels.joined(separator: "\n    "))
          </channels>
          <recipients>
            \(recipients.map { #"<recipient id="\#($0.0)" timeZone="UTC"><address channel="\#($0.1)">\#($0.2)</address></recipient>"# }.joined(separator: "\n    "))
          </recipients>
        </chime>
        """
    }

    /// Schedules one request per (identifier, recipient), due a minute after 09:00.
    static func schedule(_ ws: Workspace, _ requests: [(String, String)]) throws {
        let json = requests.map {
            #"{"identifier": "\#($0.0)", "recipient": "\#($0.1)", "content": {"title": "\#($0.0)", "body": "Tea"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        }
        try ws.write("requests.json", "[" + json.joined(separator: ",") + "]")
        let result = try ws.chime(["schedule", "--json", "requests.json"], now: "2026-11-21T09:00:00Z")
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Every delivery by request identifier, from `chime deliveries --json`.
    static func deliveries(_ ws: Workspace) throws -> [String: [String: Any]] {
        let result = try ws.chime(["deliveries", "--json"])
        let list = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        return Dictionary(uniqueKeysWithValues: list.map { ($0["identifier"] as! String, $0) })
    }

    static func outcomes(_ delivery: [String: Any]?) -> [String] {
        (delivery?["history"] as? [[String: Any]] ?? []).map { $0["outcome"] as! String }
    }

    @Test("SMTP: 250 delivered; 451 retried by the next run; 550 failed, listed, retried by hand")
    func smtpStatuses() throws {
        let server = try SMTPServer(["--tempfail", "1", "--refuse", "gone@example.org"])
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="Chime &lt;bot@example.org&gt;"/>"#],
            recipients: [("ann", "mail", "ann@example.org"), ("gus", "mail", "gone@example.org")]))
        try Self.schedule(ws, [("a", "ann"), ("g", "gus")])

        let first = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(first.status == 69, "a delivery gave up: \(first.stderr)")
        #expect(first.stdout == "fired 2, delivered 0, 1 to retry, 1 failed\n")
        #expect(first.stderr.contains("will retry a to ann@example.org via mail (delivery 1): "))
        #expect(first.stderr.contains("451 4.3.0 Try again later"))
        #expect(first.stderr.contains("failed g to gone@example.org via mail (delivery 2): 550 5.1.1 No such user here"))
        var state = try Self.deliveries(ws)
        #expect(state["a"]?["state"] as? String == "queued")
        #expect(state["a"]?["attempts"] as? Int == 1)
        #expect((state["a"]?["history"] as? [[String: Any]])?.first?["code"] as? Int == 451)
        #expect(state["g"]?["state"] as? String == "failed")
        #expect((state["g"]?["history"] as? [[String: Any]])?.first?["code"] as? Int == 550)
        #expect(try server.messages().isEmpty)

        // The retry waits for its backoff (at most 30 s after the first failure).
        let second = try ws.chime(["run"], now: "2026-11-21T09:06:00Z")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "fired 0, delivered 1\n")
        state = try Self.deliveries(ws)
        #expect(state["a"]?["state"] as? String == "delivered")
        #expect(state["a"]?["attempts"] as? Int == 2)
        #expect(Self.outcomes(state["a"]) == ["temporary", "delivered"])
        let messages = try server.messages()
        #expect(messages.count == 1)
        #expect(messages.first?["to"] as? [String] == ["ann@example.org"])
        // The envelope sender carries a token for ann's address (VERP): a bounce comes back to it.
        let from = messages.first?["from"] as? String ?? ""
        #expect(from.wholeMatch(of: /bounce\+[a-z2-7]{30,56}@example\.org/) != nil, "\(from)")

        // The dead letter: listed, then queued again by hand and refused again.
        let failed = try ws.chime(["failed"])
        #expect(failed.stdout.hasPrefix("2  failed  g  gus  gone@example.org via mail  1 attempt  550 5.1.1 No such user here"))
        #expect(try ws.chime(["retry", "1"]).status == 65, "a delivered delivery is not retried")
        let retry = try ws.chime(["retry", "2"], now: "2026-11-21T10:00:00Z")
        #expect(retry.stdout == "queued 1 delivery again\n")
        #expect(try ws.chime(["failed"]).stdout.isEmpty)
        let third = try ws.chime(["run"], now: "2026-11-21T10:00:00Z")
        #expect(third.status == 69)
        state = try Self.deliveries(ws)
        #expect(state["g"]?["state"] as? String == "failed")
        #expect(Self.outcomes(state["g"]) == ["permanent", "permanent"])
    }

    @Test("SMTP: an address written with its name goes to the address alone, a return path too; an internationalized domain in its ASCII form; a local part beyond ASCII, to a relay without SMTPUTF8, fails for good and is listed")
    func smtpAddressForms() throws {
        let server = try SMTPServer()
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="Chime &lt;bot@example.org&gt;" replyTo="Chime Replies &lt;bot+{token}@reply.example.org&gt;" returnPath="Bounces &lt;bounce+{token}@reply.example.org&gt;"/>"#],
            recipients: [("ann", "mail", "Ann Example &lt;ann@example.org&gt;"), ("ida", "mail", "Ida &lt;ida@bücher.example&gt;"),
                         ("jo", "mail", "Jörg &lt;jörg@bücher.example&gt;")]))
        try Self.schedule(ws, [("a", "ann"), ("i", "ida"), ("j", "jo")])

        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 69, "a delivery gave up: \(run.stderr)")
        #expect(run.stdout == "fired 3, delivered 2, 1 failed\n")
        let messages = try server.messages()
        #expect(Set(messages.compactMap { $0["to"] as? [String] }) == [["ann@example.org"], ["ida@xn--bcher-kva.example"]])
        #expect(messages.allSatisfy { ($0["from"] as? String)?.wholeMatch(of: /bounce\+[a-z2-7]{30,56}@reply\.example\.org/) != nil }, "\(messages.map { $0["from"] })")
        // The header keeps the name, its domain in ASCII too: the message is ASCII throughout.
        let ida = messages.first { $0["to"] as? [String] == ["ida@xn--bcher-kva.example"] }?["data"] as? String ?? ""
        #expect(ida.contains("\r\nTo: Ida <ida@xn--bcher-kva.example>\r\n"), "\(ida.prefix(400))")
        #expect(ida.contains(/\r\nReply-To: Chime Replies\r\n\t<bot\+[a-z2-7]+@reply\.example\.org>\r\n/), "\(ida.prefix(400))")
        #expect(ida.utf8.allSatisfy { $0 < 0x80 })
        let state = try Self.deliveries(ws)
        #expect(state["a"]?["state"] as? String == "delivered")
        #expect(state["i"]?["state"] as? String == "delivered")
        #expect(state["j"]?["state"] as? String == "failed")
        #expect((state["j"]?["history"] as? [[String: Any]])?.first?["code"] as? Int == 553)
        let failed = try ws.chime(["failed"]).stdout
        #expect(failed.contains("553 5.6.7 not sent: the server does not offer SMTPUTF8 (RFC 6531)"), "\(failed)")
    }

    @Test("SMTP: a connection dropped mid-DATA is temporary; maxAttempts gives up; retry --all starts a fresh budget")
    func smtpDropAndExhaust() throws {
        let server = try SMTPServer(["--drop-data", "1", "--tempfail", "2"])
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="bot@example.org" maxAttempts="2" backoff="1m"/>"#],
            recipients: [("ann", "mail", "ann@example.org")]))
        try Self.schedule(ws, [("a", "ann")])
        let first = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(first.status == 75, "only a retry is waiting: \(first.stderr)")
        var state = try Self.deliveries(ws)
        #expect(state["a"]?["state"] as? String == "queued")
        #expect((state["a"]?["history"] as? [[String: Any]])?.first?["code"] as? Int == 0, "no reply to DATA")
        // Not due yet: the next attempt is after the backoff.
        let early = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(early.stdout == "fired 0\n")
        let second = try ws.chime(["run"], now: "2026-11-21T09:10:00Z")
        #expect(second.status == 69)
        #expect(second.stderr.contains("gave up after 2 attempts"))
        state = try Self.deliveries(ws)
        #expect(state["a"]?["state"] as? String == "failed")
        #expect(state["a"]?["attempts"] as? Int == 2)
        #expect(try ws.chime(["retry", "--all"], now: "2026-11-21T09:20:00Z").stdout == "queued 1 delivery again\n")
        // The server tempfails once more, then takes it.
        #expect(try ws.chime(["run"], now: "2026-11-21T09:20:00Z").status == 75)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:30:00Z").status == 0)
        state = try Self.deliveries(ws)
        #expect(Self.outcomes(state["a"]) == ["temporary", "temporary", "temporary", "delivered"])
        #expect(state["a"]?["attempts"] as? Int == 2, "counted since the retry by hand")
        #expect(try server.messages().count == 1)
    }

    @Test("webhooks: 200, 429 with Retry-After (seconds, date, Discord's header), 500, 4xx, timeout, reset")
    func webhookStatuses() throws {
        let server = try WebhookServer()
        let base = "json://127.0.0.1:\(server.port)"
        let paths = [
            ("ok", "/ok"), ("limited", "/ratelimit/1/1"), ("dated", "/ratelimit-date/1/1"), ("discordish", "/discord/1/0.5"),
            ("flaky", "/flaky/1"), ("bad", "/status/400"), ("slow", "/slow/3"), ("reset", "/reset/1"),
        ]
        let ws = try Workspace(configuration: Self.configuration(
            // The reset channel under another host name: libcurl keeps connections per host,
            // and silently sends a request again once when a reused connection is reset,
            // which would hide the reset this case is about (seen once in CI).
            channels: paths.map { (name, path) in
                let host = name == "reset" ? "json://localhost:\(server.port)" : base
                return #"<channel id="\#(name)" url="\#(host)\#(path)" timeout="1s" backoff="1m"/>"#
            },
            recipients: paths.map { ($0.0, $0.0, "") }))
        try Self.schedule(ws, paths.map { ($0.0, $0.0) })

        let first = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(first.status == 69, "bad gave up: \(first.stderr)")
        #expect(first.stdout == "fired 8, delivered 4, 3 to retry, 1 failed\n")
        var state = try Self.deliveries(ws)
        for name in ["ok", "limited", "dated", "discordish"] {
            #expect(state[name]?["state"] as? String == "delivered", "\(name)")
            #expect(state[name]?["attempts"] as? Int == 1, "\(name): a 429 is not counted")
        }
        #expect(Self.outcomes(state["ok"]) == ["delivered"])
        for name in ["limited", "dated", "discordish"] { #expect(Self.outcomes(state[name]) == ["rate-limited", "delivered"], "\(name)") }
        for name in ["flaky", "slow", "reset"] {
            #expect(state[name]?["state"] as? String == "queued", "\(name)")
            #expect(Self.outcomes(state[name]) == ["temporary"], "\(name)")
        }
        let bad = (state["bad"]?["history"] as? [[String: Any]])?.first
        #expect(state["bad"]?["state"] as? String == "failed")
        #expect(bad?["code"] as? Int == 400)
        let message = bad?["message"] as? String ?? ""
        #expect(message.hasPrefix("HTTP 400: status 400: xxx"))
        #expect(message.count < 320 && message.hasSuffix("…"), "the body is cut: \(message.count) characters")

        // The waits were kept: the retry came after the time each server asked for.
        let requests = try server.requests()
        func starts(_ prefix: String) -> [Double] { requests.filter { ($0["path"] as! String).hasPrefix(prefix) }.map { $0["start"] as! Double } }
        let limited = starts("/ratelimit/"), dated = starts("/ratelimit-date/"), discord = starts("/discord/")
        #expect(limited.count == 2 && limited[1] - limited[0] >= 0.95)
        #expect(dated.count == 2 && dated[1] - dated[0] >= 0.95)
        #expect(discord.count == 2 && discord[1] - discord[0] >= 0.45)

        let second = try ws.chime(["run"], now: "2026-11-21T09:10:00Z")
        #expect(second.stdout == "fired 0, delivered 2, 1 to retry\n", "\(second.stderr)")
        state = try Self.deliveries(ws)
        #expect(Self.outcomes(state["flaky"]) == ["temporary", "delivered"])
        #expect(Self.outcomes(state["reset"]) == ["temporary", "delivered"])
        #expect(Self.outcomes(state["slow"]) == ["temporary", "temporary"])
        #expect(state["slow"]?["state"] as? String == "queued")

        // Both tries of one delivery carry the same Idempotency-Key; the body is the payload.
        let flaky = try server.requests().filter { ($0["path"] as! String) == "/flaky/1" }
        let keys = flaky.map { ($0["headers"] as! [String: String])["idempotency-key"] }
        #expect(keys.count == 2 && keys[0] != nil && keys[0] == keys[1])
        let body = try JSONSerialization.jsonObject(with: Data((flaky[0]["body"] as! String).utf8)) as? [String: Any]
        #expect(body?["title"] as? String == "flaky")
    }

    @Test("a server asking to wait absurdly long or forever (Retry-After 1e30 or inf, a bucket drained for 1e30 s) neither stops nor holds the run: the 429s give up or retry later, the drained channel's next delivery waits for a later run; a rate slower than 1/h is refused")
    func absurdWaits() throws {
        let server = try WebhookServer()
        let base = "json://127.0.0.1:\(server.port)"
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="huge" url="\#(base)/ratelimit/1/1e30"/>"#, #"<channel id="forever" url="\#(base)/ratelimit/1/inf"/>"#,
                       #"<channel id="drained" url="\#(base)/drained/1e30" concurrency="1"/>"#],
            recipients: [("h", "huge", ""), ("f", "forever", ""), ("d1", "drained", ""), ("d2", "drained", "")]))
        try Self.schedule(ws, [("h", "h"), ("f", "f"), ("d1", "d1"), ("d2", "d2")])
        let started = Date()
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(Date().timeIntervalSince(started) < 30, "the run did not wait for the servers")
        #expect(run.status == 69, "\(run.stdout) \(run.stderr)")
        // The inf is no wait given: the channel's backoff, drawn at random (full jitter), is
        // waited out within the run when it falls within maxWait, else by the next run.
        let state = try Self.deliveries(ws)
        let forever = state["f"]?["state"] as? String
        #expect(Self.outcomes(state["f"]).first == "rate-limited")
        #expect(forever == "queued" || forever == "delivered")
        #expect(run.stdout == "fired 4, delivered \(forever == "delivered" ? "2" : "1, 1 to retry"), 1 not tried (the server asked to wait past this run), 1 failed\n",
                "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("failed h to huge"), "\(run.stderr)")
        #expect(run.stderr.contains("gave up: still rate-limited"), "\(run.stderr)")
        #expect([state["d1"]?["state"] as? String, state["d2"]?["state"] as? String].compactMap { $0 }.sorted() == ["delivered", "queued"])
        // The one not tried goes with the next run, unclaimed.
        let next = try ws.chime(["run"], now: "2026-11-21T09:06:00Z")
        #expect(next.stdout == "fired 0, delivered \(forever == "delivered" ? "1" : "2")\n", "\(next.stdout) \(next.stderr)")
        #expect(try Self.deliveries(ws).values.filter { $0["state"] as? String == "delivered" }.count == 3)

        try ws.write("chime.xml", Self.configuration(channels: [#"<channel id="slow" url="\#(base)/ok" rate="0.5/h"/>"#], recipients: [("s", "slow", "")]))
        let check = try ws.chime(["check"])
        #expect(check.status == 65)
        #expect(check.stderr.contains(#"rate "0.5/h" is slower than 1/h"#), "\(check.stderr)")
    }

    @Test("chime digest says what became of its digests' emails and exits as chime run: 69 when one gave up, 75 when one waits for a retry")
    func digestDeliveryOutcome() throws {
        let server = try SMTPServer(["--tempfail", "1", "--refuse", "gone@example.org"])
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="Chime &lt;bot@example.org&gt;"/>"#],
            recipients: [("ann", "mail", "ann@example.org"), ("gus", "mail", "gone@example.org")])
            .replacingOccurrences(of: #"timeZone="UTC""#, with: #"timeZone="UTC" authorization="provisional""#))
        try Self.schedule(ws, [("a", "ann"), ("g", "gus")])
        #expect(try ws.chime(["run"], now: "2026-11-21T09:05:00Z").stdout.contains("2 kept for the digest"))
        let digest = try ws.chime(["digest"], now: "2026-11-22T07:05:00Z")
        #expect(digest.status == 69, "a digest's email gave up: \(digest.stdout) \(digest.stderr)")
        #expect(digest.stdout.contains("sent 2 digests, 1 to retry, 1 failed"), "\(digest.stdout)")
        #expect(digest.stderr.contains("failed") && digest.stderr.contains("550 5.1.1 No such user here"), "\(digest.stderr)")
        #expect(digest.stderr.contains("will retry") && digest.stderr.contains("451"), "\(digest.stderr)")
        // The retry, later, delivers; nothing waits: 0.
        let again = try ws.chime(["run"], now: "2026-11-22T07:10:00Z")
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        #expect(try server.messages().count == 1)
    }

    @Test("a server answering 429 to every try, each wait within maxWait, holds the run no longer than maxWait in all: the rest waits for a later run (75)")
    func endless429() throws {
        let server = try WebhookServer()
        let base = "json://127.0.0.1:\(server.port)"
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="always" url="\#(base)/ratelimit/100000/1" maxWait="3s"/>"#, #"<channel id="zero" url="\#(base)/ratelimit/100000/0" maxWait="3s"/>"#],
            recipients: [("a", "always", ""), ("z", "zero", "")]))
        try Self.schedule(ws, [("a", "a"), ("z", "z")])
        let started = Date()
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(Date().timeIntervalSince(started) < 15, "the run ended, where it went on for maxAge (a day)")
        #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("2 not tried (the server asked to wait past this run)"), "\(run.stdout)")
        let requests = try server.requests()
        #expect(requests.filter { ($0["path"] as! String) == "/ratelimit/100000/1" }.count <= 4, "a second a try, 3 s in all")
        #expect(requests.filter { ($0["path"] as! String) == "/ratelimit/100000/0" }.count <= 4, "Retry-After: 0 counted as a second")
        // The next run tries again.
        _ = try ws.chime(["run"], now: "2026-11-21T09:06:00Z")
        #expect(try server.requests().count > requests.count)
    }

    @Test("webhooks go out many at once within the channel's concurrency, and no faster than its rate")
    func concurrencyAndRate() throws {
        let server = try WebhookServer()
        let ws = try Workspace(configuration: Self.configuration(
            channels: [
                #"<channel id="wide" url="json://127.0.0.1:\#(server.port)/slow/0.4" concurrency="6"/>"#,
                #"<channel id="paced" url="json://127.0.0.1:\#(server.port)/ok" rate="5/s"/>"#,
            ],
            recipients: [("w", "wide", ""), ("p", "paced", "")]))
        try Self.schedule(ws, (1...24).map { ("w\($0)", "w") } + (1...6).map { ("p\($0)", "p") })
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "fired 30, delivered 30\n")
        let requests = try server.requests()
        let wide = requests.filter { ($0["path"] as! String).hasPrefix("/slow") }.map { ($0["start"] as! Double, $0["end"] as! Double) }
        let most = wide.map { request in wide.filter { $0.0 <= request.0 && $0.1 > request.0 }.count }.max() ?? 0
        #expect(wide.count == 24)
        #expect(most == 6, "at most and at least 6 in flight at once, saw \(most)")
        let paced = requests.filter { ($0["path"] as! String) == "/ok" }.map { $0["start"] as! Double }.sorted()
        #expect(paced.count == 6)
        #expect(zip(paced, paced.dropFirst()).allSatisfy { $1 - $0 >= 0.15 }, "5 per second: \(paced)")
    }

    @Test("a channel's rate holds across the processes sharing the store: a run begun while another sends on the channel waits its turn, and so does the next tick")
    func rateAcrossProcesses() throws {
        let server = try WebhookServer()
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="paced" url="json://127.0.0.1:\#(server.port)/ok" rate="2/s"/>"#], recipients: [("p", "paced", "")]))
        // Four due at 09:01 for the first run, one due at 09:02 for a run beside it, one at
        // 09:03 for the tick after.
        try Self.schedule(ws, (1...4).map { ("a\($0)", "p") })
        for (name, now) in [("b", "2026-11-21T09:01:00Z"), ("c", "2026-11-21T09:02:00Z")] {
            try ws.write("\(name).json", #"{"identifier": "\#(name)", "recipient": "p", "content": {"title": "\#(name)"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
            #expect(try ws.chime(["schedule", "--json", "\(name).json"], now: now).status == 0)
        }
        let first = DispatchGroup()
        nonisolated(unsafe) var firstRun: ChimeProcess.Result?
        DispatchQueue.global().async(group: first) { firstRun = try? ws.chime(["run"], now: "2026-11-21T09:01:30Z") }
        // The second run starts once the first has sent its first request.
        let deadline = Date().addingTimeInterval(30)
        while try server.requests().isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let beside = try ws.chime(["run"], now: "2026-11-21T09:02:30Z")
        #expect(beside.stdout == "fired 1, delivered 1\n", "\(beside.stdout) \(beside.stderr)")
        first.wait()
        #expect(firstRun?.stdout == "fired 4, delivered 4\n", "\(firstRun?.stdout ?? "") \(firstRun?.stderr ?? "")")
        let next = try ws.chime(["run"], now: "2026-11-21T09:03:30Z")
        #expect(next.stdout == "fired 1, delivered 1\n", "\(next.stdout) \(next.stderr)")
        let starts = try server.requests().map { $0["start"] as! Double }.sorted()
        #expect(starts.count == 6)
        let gaps = zip(starts, starts.dropFirst()).map { $1 - $0 }
        // 0.5 s apart, less how much later than its start each request reached the server.
        #expect(gaps.allSatisfy { $0 >= 0.25 }, "2 per second across the three runs: \(gaps)")
    }

    @Test("a pause a server asked of one process on a channel with a rate holds every process sharing the store until it ends")
    func pauseAcrossProcesses() throws {
        let server = try WebhookServer()
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="paced" url="json://127.0.0.1:\#(server.port)/ratelimit/1/3" rate="10/s"/>"#], recipients: [("p", "paced", "")]))
        try Self.schedule(ws, [("a", "p")])
        try ws.write("b.json", #"{"identifier": "b", "recipient": "p", "content": {"title": "b"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "b.json"], now: "2026-11-21T09:01:00Z").status == 0)
        let first = DispatchGroup()
        nonisolated(unsafe) var firstRun: ChimeProcess.Result?
        DispatchQueue.global().async(group: first) { firstRun = try? ws.chime(["run"], now: "2026-11-21T09:01:30Z") }
        // The second run starts once the first has recorded the 429 (and shared its pause).
        let deadline = Date().addingTimeInterval(30)
        while try Self.outcomes(Self.deliveries(ws)["a"]).isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let beside = try ws.chime(["run"], now: "2026-11-21T09:02:30Z")
        #expect(beside.stdout == "fired 1, delivered 1\n", "\(beside.stdout) \(beside.stderr)")
        first.wait()
        #expect(firstRun?.stdout == "fired 1, delivered 1\n", "\(firstRun?.stdout ?? "") \(firstRun?.stderr ?? "")")
        let requests = try server.requests().sorted { ($0["start"] as! Double) < ($1["start"] as! Double) }
        #expect(requests.map { $0["status"] as? Int } == [429, 200, 200])
        let asked = requests[0]["start"] as! Double
        #expect(requests.dropFirst().allSatisfy { ($0["start"] as! Double) - asked >= 2.5 }, "Retry-After: 3 held both runs: \(requests.map { $0["start"] as! Double })")
    }

    @Test("a run whose channel's shared pace has no start within maxWait leaves the delivery queued for a later run (75), taking no start from the others; the rate raised, the next run sends it at once")
    func paceBeyondMaxWait() throws {
        let server = try WebhookServer()
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="paced" url="json://127.0.0.1:\#(server.port)/ok" rate="1/min"/>"#], recipients: [("p", "paced", "")]))
        try Self.schedule(ws, [("a", "p")])
        try ws.write("b.json", #"{"identifier": "b", "recipient": "p", "content": {"title": "b"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "b.json"], now: "2026-11-21T09:01:00Z").status == 0)
        let first = try ws.chime(["run"], now: "2026-11-21T09:01:30Z")
        #expect(first.stdout == "fired 1, delivered 1\n", "\(first.stdout) \(first.stderr)")
        // The next start is a minute after the first; maxWait is 10 s.
        for _ in 0..<3 {
            let next = try ws.chime(["run"], now: "2026-11-21T09:02:30Z")
            #expect(next.status == 75, "\(next.stdout) \(next.stderr)")
            #expect(next.stdout.hasSuffix("delivered 0, 1 not tried (the channel's rate has no start for them within maxWait)\n"), "\(next.stdout)")
        }
        #expect(try server.requests().count == 1)
        #expect(try Self.deliveries(ws)["b"]?["state"] as? String == "queued")
        // Runs that went without did not move the pace: its last start is still the first.
        let setting = try ChimeProcess.run(["python3", "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT value FROM setting WHERE name = 'pace:paced'\").fetchone()[0].decode())", ws.path("chime.sqlite")],
                                           in: ws.url, program: URL(fileURLWithPath: "/usr/bin/env"))
        let lastStart = setting.stdout.split(separator: " ").first.flatMap { Double($0) } ?? 0
        let firstStart = try server.requests()[0]["start"] as! Double
        #expect(abs(lastStart / 1_000_000 - firstStart) < 1, "the pace's last start is the first request's: \(setting.stdout) \(firstStart)")
        // The operator raises the rate: the next run counts from that last start with the
        // new rate, and sends at once rather than when the old one allowed.
        try ws.write("chime.xml", Self.configuration(
            channels: [#"<channel id="paced" url="json://127.0.0.1:\#(server.port)/ok" rate="10/s"/>"#], recipients: [("p", "paced", "")]))
        let raised = try ws.chime(["run"], now: "2026-11-21T09:02:40Z")
        #expect(raised.status == 0 && raised.stdout == "fired 0, delivered 1\n", "\(raised.stdout) \(raised.stderr)")
        #expect(try server.requests().count == 2)
    }

    @Test("volume: 2,000 due to Postfix's smtp-sink in one run, each delivered once")
    func volume() throws {
        let sink = try SMTPSink()
        let recipients = (0..<20).map { ("u\($0)", "mail", "u\($0)@example.org") }
        let ws = try Workspace(configuration: Self.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(sink.port)" from="bot@example.org"/>"#],
            recipients: recipients))
        try Self.schedule(ws, (0..<2000).map { ("v\($0)", "u\($0 % 20)") })
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 0, "\(run.stderr.prefix(500))")
        #expect(run.stdout == "fired 2000, delivered 2000\n")
        let messages = try sink.messages()
        #expect(messages.count == 2000)
        let subjects = Set(messages.compactMap { $0.split(separator: "\n").first { $0.hasPrefix("Subject: ") } })
        #expect(subjects.count == 2000, "2,000 different reminders")
        #expect(try ws.chime(["deliveries", "--state", "queued"]).stdout.isEmpty)
    }
}
