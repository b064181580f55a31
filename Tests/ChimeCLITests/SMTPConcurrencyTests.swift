import ChimeTestSupport
import Foundation
import Testing

/// Many SMTP connections per channel (`concurrency`), each reused, and one recipient's
/// messages in the order they were queued.
@Suite("SMTP concurrency", .serialized)
struct SMTPConcurrencyTests {
    @Test("concurrency 4: up to four connections, each taking several messages; each recipient's messages in the order queued")
    func connectionsAndOrder() throws {
        // Each DATA answered after 50 ms, so messages overlap when they can.
        let server = try SMTPServer(["--delay", "0.05"])
        let people = ["ann", "bob", "cat", "dan", "eve"]
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="bot@example.org" concurrency="4"/>"#],
            recipients: people.map { ($0, "mail", "\($0)@example.org") }))
        let count = 30
        try DeliveryTests.schedule(ws, (1...count).map { ("m\($0)", people[$0 % people.count]) })
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("delivered \(count)"), "\(run.stdout)")

        let messages = try server.messages()
        #expect(messages.count == count, "each message accepted once")
        let connections = Set(messages.map { $0["peer"] as! Int })
        #expect((2...4).contains(connections.count), "several connections, never more than the concurrency: \(connections.count)")
        #expect(messages.count > connections.count, "connections reused")

        // Per address, the server's order is the outbox's (the order they were queued).
        let deliveries = try DeliveryTests.deliveries(ws)
        func subject(_ message: [String: Any]) -> String {
            let data = message["data"] as! String
            return data.split(separator: "\r\n").first { $0.hasPrefix("Subject: ") }.map { String($0.dropFirst(9)) } ?? ""
        }
        for person in people {
            let arrived = messages.filter { ($0["to"] as? [String]) == ["\(person)@example.org"] }.map(subject)
            let queued = deliveries.values.filter { $0["recipient"] as? String == person }
                .sorted { ($0["id"] as! Int) < ($1["id"] as! Int) }.map { $0["identifier"] as! String }
            #expect(arrived == queued, "\(person): arrived \(arrived), queued \(queued)")
        }
    }

    @Test("a relay that cannot be reached: a message tried on each connection at most, the others left untried for the next run, which sends each once")
    func unreachableRelay() throws {
        let people = (1...12).map { "p\($0)" }
        // Nothing listens on port 9 (discard) here: every connection is refused at once.
        let configuration = { (port: Int) in DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(port)" from="bot@example.org" concurrency="2"/>"#],
            recipients: people.map { ($0, "mail", "\($0)@example.org") }) }
        let ws = try Workspace(configuration: configuration(9))
        try DeliveryTests.schedule(ws, people.map { ("m-\($0)", $0) })
        let run = try ws.chime(["run", "--json"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        // One message tried on each connection at most (the second connection's may come
        // after the first was refused, and then is not tried either); the others, whether
        // they waited in line for a connection or had not been handed out, are not tried.
        let tried = (summary["retrying"] as? [String])?.count ?? -1
        #expect((1...2).contains(tried), "\(summary)")
        #expect(summary["deferred"] as? Int == people.count - tried && summary["delivered"] as? Int == 0, "\(summary)")
        let attempts = try DeliveryTests.deliveries(ws).values.map { $0["attempts"] as? Int ?? -1 }
        #expect(attempts.sorted() == Array(repeating: 0, count: people.count - tried) + Array(repeating: 1, count: tried),
                "attempts per delivery: \(attempts.sorted())")

        // The relay is back: the next run (after the two's backoff, 30 s at most) sends
        // every message once.
        let server = try SMTPServer([])
        try ws.write("chime.xml", configuration(server.port))
        let again = try ws.chime(["run"], now: "2026-11-21T09:06:00Z")
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        let messages = try server.messages()
        #expect(messages.count == people.count && Set(messages.compactMap { $0["to"] as? [String] }.map { $0.joined() }).count == people.count,
                "each message accepted once: \(messages.count)")
    }
}
