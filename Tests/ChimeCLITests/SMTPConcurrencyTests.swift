import ChimeTestSupport
import Foundation
import Glibc
import Testing

/// Many SMTP connections per channel (`concurrency`), each reused, and one recipient's
/// messages in the order they were queued.
@Suite("SMTP concurrency", .serialized)
struct SMTPConcurrencyTests {
    @Test("concurrency 4: up to four connections, each taking several messages; each recipient's messages in the order queued; with a relay offering PIPELINING or not", arguments: [false, true])
    func connectionsAndOrder(pipelining: Bool) throws {
        // Each DATA answered after 50 ms, so messages overlap when they can.
        let server = try SMTPServer(["--delay", "0.05"] + (pipelining ? ["--pipelining"] : []))
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
        // Pipelined, a connection's later messages had their envelope written with the
        // data of the one before.
        #expect(messages.filter { $0["pipelined"] as? Bool == true }.count == (pipelining ? count : 0))

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

    @Test("emails go out while their batch is still firing: with the firing held up after 100 of them (its next notification goes to a file: channel that is a FIFO nobody reads yet), the relay has already taken the first 64")
    func sendingBesideFiring() throws {
        let server = try SMTPServer()
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="bot@example.org" concurrency="1"/>"#],
            recipients: [("ann", "mail", "ann@example.org")]))
        // The configuration above with a second channel and recipient: the FIFO's writer
        // blocks in open(2) until a reader comes, holding up the firing thread there.
        let fifo = ws.path("held.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        try ws.write("chime.xml", try ws.read("chime.xml")
            .replacingOccurrences(of: "</channels>", with: #"<channel id="pipe" url="file:\#(fifo)"/></channels>"#)
            .replacingOccurrences(of: "</recipients>", with: #"<recipient id="zed" timeZone="UTC"><address channel="pipe">zed</address></recipient></recipients>"#))
        try DeliveryTests.schedule(ws, (1...100).map { ("m\($0)", "ann") })
        // Due a minute after the 100 emails, so fired after them, in the same batch of 500.
        try ws.write("last.json", #"[{"identifier": "last", "recipient": "zed", "content": {"title": "last", "body": "Tea"}, "trigger": {"type": "timeInterval", "seconds": 120}}]"#)
        #expect(try ws.chime(["schedule", "--json", "last.json"], now: "2026-11-21T09:00:00Z").status == 0)

        let run = try ChimeProcess.start(["run", "--now", "2026-11-21T09:05:00Z"], in: ws.url)
        let deadline = Date().addingTimeInterval(30)
        while server.logCount() < 64 && run.isRunning && Date() < deadline { usleep(10_000) }
        let whileHeld = server.logCount()
        // Let the firing go on: read the FIFO's one line (opened without blocking, so a
        // run that died does not hang the test), then the run ends.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        var line = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !line.contains(UInt8(ascii: "\n")) && run.isRunning && Date() < deadline + 30 {
            let count = read(reader, &buffer, buffer.count)
            if count > 0 { line += buffer[0..<count] } else { usleep(10_000) }
        }
        close(reader)
        run.waitUntilExit()

        #expect(whileHeld >= 64, "emails the relay took while the firing was held: \(whileHeld)")
        #expect(run.terminationStatus == 0)
        #expect(String(decoding: line, as: UTF8.self).contains(#""identifier":"last""#))
        let copies = try server.messageIDsBySubject()
        #expect(copies.count == 100 && copies.values.allSatisfy { $0.count == 1 }, "each of the 100 once: \(copies.count)")
    }

    @Test("a relay that cannot be reached: a message tried on each connection at most, the others left untried for the next run, which sends each once")
    func unreachableRelay() throws {
        let people = (1...12).map { "p\($0)" }
        // One message tried on each connection at most (the second connection's may come
        // after the first was refused, and then is not tried either); the others, whether
        // they waited in line for a connection or had not been handed out, are not tried.
        try unreachableThenBack(people: people, tried: 1...2) { port in DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(port)" from="bot@example.org" concurrency="2"/>"#],
            recipients: people.map { ($0, "mail", "\($0)@example.org") }) }
    }

    @Test("two channels on one unreachable relay: the run ends, their messages left for the next run, which sends each once")
    func twoChannelsOneUnreachableRelay() throws {
        let people = (1...8).map { "p\($0)" }
        // Two channels that differ only by their From share the relay's connections; one
        // email in flight over all channels, so b's first is handed out only once a's was
        // refused, and none of b's is tried.
        try unreachableThenBack(people: people, tried: 1...1) { port in DeliveryTests.configuration(
            channels: [#"<channel id="a" url="smtp://127.0.0.1:\#(port)" from="a@example.org" concurrency="1"/>"#,
                       #"<channel id="b" url="smtp://127.0.0.1:\#(port)" from="b@example.org" concurrency="1"/>"#],
            concurrency: 1, recipients: people.enumerated().map { ($1, $0 % 2 == 0 ? "a" : "b", "\($1)@example.org") }) }
    }

    @Test("a relay that takes connections and never greets (a listener nobody accepts from): unreachable as a refused port is, the run waiting out one connect timeout, not one per message")
    func silentRelay() throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let people = (1...12).map { "p\($0)" }
        try unreachableThenBack(people: people, tried: 1...2, unreachablePort: listener.port) { port in DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(port)" from="bot@example.org" concurrency="2" connectTimeout="1s"/>"#],
            recipients: people.map { ($0, "mail", "\($0)@example.org") }) }
    }

    /// A TCP listener on 127.0.0.1 that never accepts: the kernel completes each
    /// connection into its backlog, and nothing is ever said on it.
    final class SilentListener {
        let socket: Int32
        let port: Int

        init() throws {
            (socket, port) = try ReservedPort.bound(sharing: false)
            guard listen(socket, 64) == 0 else {
                _ = Glibc.close(socket)
                throw CocoaError(.fileReadUnknown)
            }
        }

        func close() { _ = Glibc.close(socket) }
    }

    /// One message for each of `people`, run with `configuration` for a relay that cannot
    /// be reached: the run ends (exit 75), `tried` of them tried and the others deferred,
    /// untried. Then the relay is back: the next run (after the tried ones' backoff, 30 s
    /// at most) sends every message once.
    /// - Parameter unreachablePort: the relay's port the first run is given; by default 9
    ///   (discard), where nothing listens here: every connection is refused at once.
    private func unreachableThenBack(people: [String], tried expected: ClosedRange<Int>, unreachablePort: Int = 9,
                                     configuration: (Int) -> String) throws {
        let ws = try Workspace(configuration: configuration(unreachablePort))
        try DeliveryTests.schedule(ws, people.map { ("m-\($0)", $0) })
        let run = try ws.chime(["run", "--json"], now: "2026-11-21T09:05:00Z", timeout: 30)
        #expect(run.status == 75, "\(run.stdout) \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        let tried = (summary["retrying"] as? [String])?.count ?? -1
        #expect(expected.contains(tried), "\(summary)")
        #expect(summary["deferred"] as? Int == people.count - tried && summary["delivered"] as? Int == 0, "\(summary)")
        let attempts = try DeliveryTests.deliveries(ws).values.map { $0["attempts"] as? Int ?? -1 }
        #expect(attempts.sorted() == Array(repeating: 0, count: people.count - tried) + Array(repeating: 1, count: tried),
                "attempts per delivery: \(attempts.sorted())")

        let server = try SMTPServer([])
        try ws.write("chime.xml", configuration(server.port))
        let again = try ws.chime(["run"], now: "2026-11-21T09:06:00Z")
        #expect(again.status == 0, "\(again.stdout) \(again.stderr)")
        let messages = try server.messages()
        #expect(messages.count == people.count && Set(messages.compactMap { $0["to"] as? [String] }.map { $0.joined() }).count == people.count,
                "each message accepted once: \(messages.count)")
    }

    @Test("two channels on one relay: each keeps to its own concurrency, whatever the other's")
    func twoChannelsOneRelay() throws {
        // Each DATA answered after 50 ms, so messages overlap when they may.
        let server = try SMTPServer(["--delay", "0.05"])
        let people = (1...12).map { "p\($0)" }
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="one" url="smtp://127.0.0.1:\#(server.port)" from="one@example.org" concurrency="1"/>"#,
                       #"<channel id="four" url="smtp://127.0.0.1:\#(server.port)" from="four@example.org" concurrency="4"/>"#],
            recipients: people.enumerated().map { ($1, $0 % 2 == 0 ? "one" : "four", "\($1)@example.org") }))
        try DeliveryTests.schedule(ws, (1...4).flatMap { n in people.map { ("m\(n)-\($0)", $0) } })
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 0, "\(run.stderr)")
        let messages = try server.messages()
        #expect(messages.count == 4 * people.count, "each message accepted once: \(messages.count)")
        /// The most of one sender's messages whose DATA was being answered at one moment.
        func mostAtOnce(_ from: String) -> Int {
            // The envelope sender is a bounce address; the header's From tells the channels apart.
            let spans = messages.filter { ($0["data"] as? String ?? "").split(separator: "\r\n").contains("From: \(from)") }
                .map { ($0["start"] as? Double ?? 0, $0["end"] as? Double ?? 0) }
            return spans.map { span in spans.filter { $0.0 <= span.0 && span.0 < $0.1 }.count }.max() ?? 0
        }
        #expect(mostAtOnce("one@example.org") == 1, "the channel of concurrency 1 on one connection at a time")
        #expect((2...4).contains(mostAtOnce("four@example.org")), "the channel of concurrency 4 on several, at most four")
    }
}
