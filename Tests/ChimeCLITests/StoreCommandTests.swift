import ChimeTestSupport
import Foundation
import Testing

/// `chime store migrate` and `chime store copy`, through the real executable: a deployment
/// moved to another store goes on as before, and answers the replies to what it sent
/// before the move (the signing key moved with it).
@Suite("chime store: migrate and copy", .serialized)
struct StoreCommandTests {
    /// The reply corpus's configuration, plus bob on a webhook that refuses connections:
    /// his deliveries stay in the outbox with their attempts.
    static let configuration = ReplyCorpusTests.configuration
        .replacingOccurrences(of: "</channels>", with: #"<channel id="hook" url="json://127.0.0.1:9/hook" timeout="1s"/></channels>"#)
        .replacingOccurrences(of: "</recipients>", with: #"<recipient id="bob" timeZone="UTC"><address channel="hook"/></recipient></recipients>"#)

    @Test("store migrate runs a new store's migrations and names each; on a store up to date it says so")
    func migrate() throws {
        let ws = try Workspace()
        let first = try ws.chime(["store", "migrate", "--store", "sqlite:new.sqlite"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("migrated: v1 pending and delivered notifications\n"), "\(first.stdout)")
        #expect(first.stdout.contains("migrated: v13 idempotency keys\n"))
        let again = try ws.chime(["store", "migrate", "--store", "sqlite:new.sqlite"])
        #expect(again.status == 0)
        #expect(again.stdout == "sqlite:new.sqlite: up to date\n")
    }

    /// The listings a deployment's state shows, from the store at `url`.
    private func listings(_ ws: Workspace, _ url: String) throws -> [String] {
        try ["pending", "delivered", "responses", "deliveries", "replies", "recipients"].map { command in
            let result = try ws.chime([command, "--json", "--store", url])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            return result.stdout
        }
    }

    /// Stores to copy through, after the original SQLite one: SQLite, and when the tests
    /// have PostgreSQL, PostgreSQL and back to SQLite.
    static let routes: [[String]] = [["sqlite:copy.sqlite"], ["postgres", "sqlite:back.sqlite"]]

    @Test("store copy: pending, delivered, outbox, responses and replies equal; a reply to a reminder sent before the copy is answered by the copy",
          arguments: routes)
    func roundTrip(route: [String]) throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        let sent = try ReplyCorpusTests.send(ws, ["a", "b"])
        _ = try ReplyCorpusTests.send(ws, ["hook-1"], recipient: "bob", runMustSucceed: false)
        try ws.write("later.json", #"{"identifier": "later", "recipient": "alice", "content": {"title": "Later"}, "trigger": {"type": "timeInterval", "seconds": 86400, "repeats": true}}"#)
        #expect(try ws.chime(["schedule", "--json", "later.json"], now: "2026-11-21T09:05:00Z").status == 0)
        let answered = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent["b"]!, body: "1"))
        #expect(answered.status == 0 && answered.stdout.contains("responded"), "\(answered.stdout) \(answered.stderr)")
        let before = try listings(ws, "sqlite:chime.sqlite")
        #expect(before[3].contains("\"attempts\""), "bob's delivery is in the outbox: \(before[3])")

        var from = "sqlite:chime.sqlite"
        for hop in route {
            let to = hop == "postgres" ? try PostgresServer.shared().makeDatabase() : hop
            let copy = try ws.chime(["store", "copy", "--from", from, "--to", to, "--batch-size", "3"])
            #expect(copy.status == 0, "\(copy.stderr)")
            #expect(copy.stdout.contains("copied "), "\(copy.stdout)")
            #expect(try listings(ws, to) == before, "after copying to \(hop)")
            from = to
        }
        // The reply to a, sent before any copy, verified and recorded by the last copy.
        try ws.write("reply.eml", ReplyCorpusTests.reply(sent["a"]!, body: "1"))
        let reply = try ws.chime(["ingest", "--store", from], now: "2026-11-21T10:00:00Z", input: "reply.eml")
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect(reply.stdout.contains("responded"), "\(reply.stdout)")
        let responses = try ws.chime(["responses", "--json", "--store", from]).stdout
        #expect(responses.contains(sent["a"]!.deliveryID))
        // The original is untouched by what the copy did.
        #expect(try ws.chime(["responses", "--json"]).stdout == before[2])
    }

    @Test("store copy refuses a target that is not empty (exit 73), naming it without its password, and leaves it as it was")
    func refusesNonEmpty() throws {
        let ws = try Workspace()
        try ws.write("a.json", #"{"identifier": "a", "recipient": "alice", "content": {"title": "A"}, "trigger": {"type": "timeInterval", "seconds": 600, "repeats": false}}"#)
        #expect(try ws.chime(["schedule", "--json", "a.json", "--store", "sqlite:source.sqlite"]).status == 0)
        try ws.write("b.json", #"{"identifier": "b", "recipient": "alice", "content": {"title": "B"}, "trigger": {"type": "timeInterval", "seconds": 600, "repeats": false}}"#)
        #expect(try ws.chime(["schedule", "--json", "b.json", "--store", "sqlite:target.sqlite"]).status == 0)
        let before = try ws.chime(["pending", "--json", "--store", "sqlite:target.sqlite"]).stdout
        let refused = try ws.chime(["store", "copy", "--from", "sqlite:source.sqlite", "--to", "sqlite:target.sqlite"])
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("the target store sqlite:target.sqlite is not empty"), "\(refused.stderr)")
        #expect(try ws.chime(["pending", "--json", "--store", "sqlite:target.sqlite"]).stdout == before)

        // A PostgreSQL target named with a password (trust authentication ignores it).
        let database = try PostgresServer.shared().makeDatabase()
        let withPassword = database.replacingOccurrences(of: "://chime@", with: "://chime:hunter2secret@")
        #expect(try ws.chime(["schedule", "--json", "b.json", "--store", withPassword]).status == 0)
        let refusedPostgres = try ws.chime(["store", "copy", "--from", "sqlite:source.sqlite", "--to", withPassword])
        #expect(refusedPostgres.status == 73, "\(refusedPostgres.stderr)")
        // Named as user@server/database, without the password or the query.
        let named = "chime@" + (database.split(separator: "@").last?.split(separator: "?").first ?? "")
        #expect(refusedPostgres.stderr.contains("the target store postgres://\(named) is not empty"), "\(refusedPostgres.stderr)")
        #expect(!refusedPostgres.stderr.contains("hunter2secret"))
        #expect(try ws.chime(["pending", "--json", "--store", database]).stdout.contains("\"b\""))

        // The password in the query instead: named without it too, by migrate and copy.
        let inQuery = database + (database.contains("?") ? "&" : "?") + "password=hunter3secret"
        let migrated = try ws.chime(["store", "migrate", "--store", inQuery])
        #expect(migrated.status == 0 && migrated.stdout.contains("up to date") && !migrated.stdout.contains("hunter3secret"), "\(migrated.stdout)")
        let refusedQuery = try ws.chime(["store", "copy", "--from", "sqlite:source.sqlite", "--to", inQuery])
        #expect(refusedQuery.status == 73 && !refusedQuery.stderr.contains("hunter3secret"), "\(refusedQuery.stderr)")

        // A mistyped SQLite source is refused, not created empty and "copied".
        let typo = try ws.chime(["store", "copy", "--from", "sqlite:sourse.sqlite", "--to", "sqlite:fresh.sqlite"])
        #expect(typo.status == 66 && typo.stderr.contains("no such store"), "\(typo.stderr)")
        #expect(!FileManager.default.fileExists(atPath: ws.path("sourse.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: ws.path("fresh.sqlite")), "nothing made")
    }
}
