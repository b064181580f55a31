import ChimeTestSupport
import Foundation
import Testing

/// `chime store prune`: a store that sends every day does not grow for ever.
@Suite("chime store prune", .serialized)
struct StorePruneTests {
    @Test("forgets deliveries delivered before --older-than days with their attempts, keeps the recent and the failed ones; --dry-run forgets nothing; fewer than 31 days is refused (64)")
    func prune() throws {
        let server = try SMTPServer(["--refuse", "gone@example.org"])
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="Chime &lt;bot@example.org&gt;"/>"#],
            recipients: [("ann", "mail", "ann@example.org"), ("gus", "mail", "gone@example.org")]))
        try DeliveryTests.schedule(ws, [("a", "ann"), ("g", "gus")])
        #expect(try ws.chime(["run"], now: "2026-11-21T09:05:00Z").status == 69, "g failed for good")
        try ws.write("later.json", #"{"identifier": "b", "recipient": "ann", "content": {"title": "b"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "later.json"], now: "2026-12-30T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-12-30T09:05:00Z").status == 0)
        #expect(try DeliveryTests.deliveries(ws).keys.sorted() == ["a", "b", "g"])

        let tooSoon = try ws.chime(["store", "prune", "--older-than", "30"], now: "2027-01-10T00:00:00Z")
        #expect(tooSoon.status == 64)
        #expect(tooSoon.stderr.contains("--older-than must be at least 31 days"), "\(tooSoon.stderr)")
        #expect(try ws.chime(["store", "prune", "--older-than", "9223372036854775807"]).status == 64, "too many days: refused, not a crash")

        let dry = try ws.chime(["store", "prune", "--older-than", "31", "--dry-run"], now: "2027-01-10T00:00:00Z")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout == "would forget 1 delivery, 0 inbound messages, 0 responses, 0 chat threads, 0 digests from before 2026-12-10T00:00:00Z\n")
        #expect(try DeliveryTests.deliveries(ws).count == 3)

        let json = try ws.chime(["store", "prune", "--older-than", "31", "--json"], now: "2027-01-10T00:00:00Z")
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["deliveries"] as? Int == 1)
        #expect(object?["cutoff"] as? String == "2026-12-10T00:00:00Z")
        #expect(object?["dryRun"] as? Bool == false)
        let left = try DeliveryTests.deliveries(ws)
        #expect(left.keys.sorted() == ["b", "g"], "the failed one is a dead letter, kept for chime retry")
        #expect(DeliveryTests.outcomes(left["b"]) == ["delivered"])
        // The attempts of the forgotten went with them.
        #expect(try Self.count("attempt", in: ws) == "2\n")
        #expect(try ws.chime(["store", "prune"], now: "2027-01-10T00:00:00Z").stdout.hasPrefix("forgot 0 deliveries"), "90 days by default; the rest is gone")
    }

    @Test("forgets the digests sent before --older-than days with the notifications they held (a recipient's empty digest too), and a digest run at their slot again sends nothing")
    func digests() throws {
        let configuration = PolicyTests.configuration
            .replacingOccurrences(of: #"<recipient id="carol" timeZone="UTC" authorization="denied">"#, with: #"<recipient id="carol" timeZone="Europe/Paris">"#)
        let ws = try ReplyCorpusTests.workspace(configuration)
        let requests = [PolicyTests.request("one", to: "carol", at: "2026-10-24T12:00:00", level: "passive"),
                        PolicyTests.request("two", to: "carol", at: "2026-10-24T12:00:00", level: "passive")]
        try ws.write("requests.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "requests.json"], now: "2026-10-24T04:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-10-24T10:00:00Z").stdout == "fired 2, 2 kept for the digest\n")
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:00Z").stdout == "digest carol: 2 notifications\nsent 1 digest\n")
        #expect(try PolicyTests.outbox(ws).count == 1)
        #expect(try Self.count("parked", in: ws) == "2\n")
        #expect(try Self.count("batch", in: ws) == "4\n", "each of the four recipients' digest recorded when its slot came, three of them empty")

        let pruned = try ws.chime(["store", "prune", "--older-than", "31", "--json"], now: "2026-12-31T00:00:00Z")
        #expect(pruned.status == 0, "\(pruned.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(pruned.stdout.utf8)) as? [String: Any]
        #expect(object?["digests"] as? Int == 4)
        #expect(try Self.count("parked", in: ws) == "0\n")
        #expect(try Self.count("batch", in: ws) == "0\n")
        // The same slot once more: nothing it held is left to go out again.
        #expect(try ws.chime(["digest"], now: "2026-10-25T06:00:00Z").stdout == "sent 0 digests\n")
        #expect(try PolicyTests.outbox(ws).count == 1)
    }

    /// The rows of `table` in the workspace's store, as Python's sqlite3 counts them (with
    /// a line feed), or what it said on standard error.
    static func count(_ table: String, in ws: Workspace) throws -> String {
        let counted = try ChimeProcess.run(["python3", "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM \(table)').fetchone()[0])",
                                            ws.path("chime.sqlite")], in: ws.url, program: URL(fileURLWithPath: "/usr/bin/env"))
        return counted.stdout.isEmpty ? counted.stderr : counted.stdout
    }
}
