import Foundation
import Testing

/// Point 15 of the first week: something to watch it by.
extension OperatorTests {
    static let withDenied = configuration.replacingOccurrences(of: "</recipients>", with: """
        <recipient id="bob" timeZone="UTC" authorization="denied"><address channel="mail">bob@example.org</address></recipient></recipients>
        """)

    @Test("--log-level info names each notification's recipient and request with its route (sent, turned off) and each reply taken, as text or JSON lines on standard error; by default (warning) chime run logs none of it; the signing key, tokens and a password never appear, even at trace")
    func logs() throws {
        let password = "pw-\(UUID().uuidString)"
        let ws = try Workspace(configuration: Self.withDenied.replacingOccurrences(
            of: "</channels>", with: #"<channel id="relay" url="smtp://chime:\#(password)@127.0.0.1:9" from="bot@example.org"/></channels>"#))
        let key = String(repeating: "K", count: 40)
        let secret = ["CHIME_SECRET_KEY": key]
        try ws.write("r.json", """
            [{"identifier": "a1", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}},
             {"identifier": "b1", "recipient": "bob", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}]
            """)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z", environment: secret).status == 0)
        let quiet = try ws.chime(["run", "--dry-run"], now: "2026-11-21T09:02:00Z", environment: secret)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "warning is the default: \(quiet.stderr)")

        let run = try ws.chime(["--log-level", "info", "run"], now: "2026-11-21T09:02:00Z", environment: secret)
        #expect(run.status == 0 && run.stdout.hasPrefix("fired 2, 1 turned off"), "\(run.stdout) \(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(" info chime.scheduler: turned off ") && $0.contains("recipient.id=bob") && $0.contains("notification.id=b1") }, "\(run.stderr)")
        #expect(lines.contains { $0.contains(" info chime.scheduler: fired and delivered ") && $0.contains("recipient.id=alice") && $0.contains("notification.id=a1") && $0.contains("channels=mail") }, "\(run.stderr)")
        #expect(lines.allSatisfy { $0.firstMatch(of: #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z (trace|debug|info|notice|warning|error|critical) chime\.[a-z]+: /#) != nil }, "\(run.stderr)")

        // A reply, taken at trace as JSON lines: one object a line, naming the request and recipient.
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new")).first)
        let message = try ws.read("outbox/new/\(name)").replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n\t", with: " ")
        let replyTo = try #require(message.firstMatch(of: /Reply-To:\s+(bot\+([a-z2-7]+)@reply\.example\.org)/))
        try ws.write("reply.eml", "From: alice@example.org\r\nTo: \(replyTo.output.1)\r\nSubject: Re: Shopping\r\nMessage-ID: <r1@example.org>\r\n\r\nOK\r\n")
        let ingest = try ws.chime(["--log-level", "trace", "--log-format", "json", "ingest"], now: "2026-11-21T09:03:00Z", input: "reply.eml", environment: secret)
        #expect(ingest.status == 0 && ingest.stdout.contains("responded"), "\(ingest.stdout) \(ingest.stderr)")
        let records = try ingest.stderr.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String], "\($0)") }
        #expect(records.contains { $0["message"] == "reply taken" && $0["reply.status"] == "responded" && $0["notification.id"] == "a1" && $0["recipient.id"] == "alice" && $0["action"] == "ok" && $0["level"] == "info"
            && $0["reply.message"] == "stdin" }, "the message the reply came in is named too: \(records)")

        for output in [run.stderr, ingest.stderr] {
            #expect(!output.contains(key) && !output.contains(password) && !output.contains(String(replyTo.output.2)), "a secret or a token in the log: \(output)")
        }
        let bad = try ws.chime(["--log-level", "loud", "pending"])
        #expect(bad.status == 64 && bad.stderr.contains("trace") && bad.stderr.contains("critical"), "\(bad.stderr)")
        #expect(try ws.chime(["pending", "--log-level", "debug", "--log-format", "json"]).status == 0)
    }
}
