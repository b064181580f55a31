import ChimeTestSupport
import Foundation
import Testing

/// What the README promises about delivery: nothing lost, resends only of what a crash
/// left unrecorded (at most 64) and each recognisable, secrets never shown, and
/// `check --probe` telling what answers.
@Suite("Delivery guarantees", .serialized)
struct DeliveryGuaranteeTests {
    @Test("SIGKILL at random moments across 50 runs, four connections at once: every reminder accepted at least once, resent only for a crash (at most 64 per killed run, as the README says), resends with the same Message-ID; with a relay offering PIPELINING or not", arguments: [false, true])
    func killedRuns(pipelining: Bool) throws {
        // Flaky: the first DATAs dropped or deferred, each answered after a short wait
        // so kills land while messages are in flight (with pipelining, often with the
        // next message's envelope already written and its DATA answered).
        let server = try SMTPServer(["--drop-data", "3", "--tempfail", "5", "--delay", "0.01"] + (pipelining ? ["--pipelining"] : []))
        // Four recipients over four connections at once: kills land with several
        // messages in flight and marks waiting to be written together.
        let people = ["ann", "bob", "cat", "dan"]
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="bot@example.org" concurrency="4" backoff="1s" maxBackoff="1s" maxAttempts="100"/>"#],
            recipients: people.map { ($0, "mail", "\($0)@example.org") }))
        let count = 120
        try DeliveryTests.schedule(ws, (1...count).map { ("k\($0)", people[$0 % people.count]) })
        var random = SystemRandomNumberGenerator()
        var clock = Date(timeIntervalSince1970: 1_795_251_900) // 2026-11-21T09:05:00Z
        let format = ISO8601DateFormatter()
        for _ in 1...50 {
            let run = try ChimeProcess.start(["run", "--now", format.string(from: clock)], in: ws.url)
            usleep(UInt32.random(in: 0...250_000, using: &random))
            kill(run.processIdentifier, SIGKILL)
            run.waitUntilExit()
            clock += 10
        }
        // Then runs left alone until everything is through.
        var finished = false
        for _ in 1...10 where !finished {
            let run = try ws.chime(["run"], now: format.string(from: clock))
            finished = run.status == 0
            clock += 10
        }
        #expect(finished)
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        let states = try DeliveryTests.deliveries(ws)
        #expect(states.count == count)
        #expect(states.values.allSatisfy { $0["state"] as? String == "delivered" })

        let copies = try server.messageIDsBySubject()
        #expect(copies.count == count, "every reminder arrived")
        // Each crash may resend what the server took and the run had not marked yet: at
        // most 64 messages. A message in flight at two crashes is resent twice (seen:
        // about one run in seven), which the guarantee allows; more than that is a bug.
        let extra = copies.values.reduce(0) { $0 + $1.count - 1 }
        #expect(extra <= 50 * 64, "resends beyond one per crash: \(extra)")
        #expect(copies.values.allSatisfy { $0.count <= 51 }, "no message more often than once plus once per killed run")
        #expect(copies.values.allSatisfy { Set($0).count == 1 && !$0[0].isEmpty }, "a resend carries the same Message-ID")
        let resent = copies.values.filter { $0.count >= 2 }.count
        print("killed 50 runs: \(count) reminders, \(resent) accepted more than once, \(extra) resends in all")
    }

    @Test("secrets in channel URLs appear in no output: run, failed --json, deliveries, check, check --probe")
    func secretsStayHidden() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-secret-\(UUID().uuidString)")
        let certificate = try ScriptServer.certificate(in: folder)
        let smtp = try SMTPServer(["--cert", certificate.cert, "--key", certificate.key, "--user", "bot", "--password", "right-password-1"])
        let https = try WebhookServer(["--cert", certificate.cert, "--key", certificate.key])
        let password = "Hunter2-secret-pw", token = "T0KEN-b3c9f1e7a2"
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [
                #"<channel id="mail" url="smtp://bot:\#(password)@127.0.0.1:\#(smtp.port)?starttls=required" from="bot@example.org" caFile="\#(certificate.cert)"/>"#,
                #"<channel id="team" url="slack://127.0.0.1:\#(https.port)/status/403/\#(token)" caFile="\#(certificate.cert)"/>"#,
            ],
            recipients: [("ann", "mail", "ann@example.org"), ("tom", "team", "")]))
        try DeliveryTests.schedule(ws, [("a", "ann"), ("t", "tom")])
        let outputs = [
            try ws.chime(["run"], now: "2026-11-21T09:05:00Z"),
            try ws.chime(["failed", "--json"]),
            try ws.chime(["failed"]),
            try ws.chime(["deliveries", "--json"]),
            try ws.chime(["check"]),
            try ws.chime(["check", "--probe"]),
        ]
        #expect(outputs[0].status == 69, "both refused for good: \(outputs[0].stderr)")
        #expect(outputs[0].stderr.contains("535"), "the login was refused: \(outputs[0].stderr)")
        #expect(outputs[0].stderr.contains("HTTP 403"), "the webhook was refused over verified TLS: \(outputs[0].stderr)")
        for output in outputs {
            #expect(!output.stdout.contains(password) && !output.stderr.contains(password))
            #expect(!output.stdout.contains(token) && !output.stderr.contains(token))
        }
        #expect(try https.requests().count == 1)
        try? FileManager.default.removeItem(at: folder)
    }

    @Test("check --probe says which channels answer, sends nothing, and exits 69 when one does not")
    func probe() throws {
        let smtp = try SMTPServer()
        let http = try WebhookServer()
        let closed = LocalPort.free()
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [
                #"<channel id="mail" url="smtp://127.0.0.1:\#(smtp.port)" from="bot@example.org"/>"#,
                #"<channel id="hook" url="json://127.0.0.1:\#(http.port)/ok"/>"#,
                #"<channel id="gone" url="json://127.0.0.1:\#(closed)/ok" connectTimeout="2s"/>"#,
                #"<channel id="box" url="maildir:./outbox"/>"#,
            ],
            recipients: [("ann", "mail", "ann@example.org")]))
        let result = try ws.chime(["check", "--probe"])
        #expect(result.status == 69)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.stdout)")
        #expect(lines[1].hasPrefix("mail: reachable: 250"))
        #expect(!result.stdout.contains("\r") && !result.stdout.unicodeScalars.contains("\r"), "the server's reply without its CRLF: \(result.stdout.debugDescription)")
        #expect(lines[2] == "hook: reachable: HTTP 405")
        #expect(lines[3].hasPrefix("gone: unreachable: "))
        #expect(try smtp.messages().isEmpty)
        #expect(try http.requests().isEmpty, "a HEAD, not a POST")
    }
}
