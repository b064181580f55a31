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
}
