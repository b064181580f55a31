import ChimeCore
import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// `chime store prune` on PostgreSQL reads a table a window of pages at a time: a table of
/// many windows, its old rows spread through them among recent ones.
@Suite("The PostgreSQL store forgetting old history")
struct PostgresPruneTests {
    @Test("rows old and new interleaved over many windows of pages: every old one forgotten, every new one kept, the newest kept however old; the dry run counts the same")
    func manyWindows() throws {
        let server = try PostgresServer.shared()
        let url = try server.makeDatabase()
        let name = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let store = try PostgresStore(url)
        // 30,000 inbound messages (a few hundred pages): two in three old, the rest recent,
        // the last one old too.
        try server.psql("""
            INSERT INTO inbound (at, message_id, sender, outcome, detail, delivery_id)
                SELECT CASE WHEN g % 3 = 0 AND g < 30000 THEN 5000 ELSE 100 END, '<m' || g || '@x>', 'a@x', 'auto-reply', 'detail ' || repeat('x', 60), NULL
                FROM generate_series(1, 30000) AS g
            """, database: name)
        let pages = try server.psql("SELECT pg_relation_size('inbound') / 8192", database: name).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect((Int(pages) ?? 0) > 4 * 32, "more than four windows: \(pages) pages")
        let old = 30_000 - 9_999 - 1
        #expect(try store.forgetHistory(before: Instant(seconds: 1_000), dryRun: true) == ForgottenHistory(inbound: old))
        #expect(try store.forgetHistory(before: Instant(seconds: 1_000), dryRun: false) == ForgottenHistory(inbound: old))
        let left = try server.psql("SELECT COUNT(*), COUNT(*) FILTER (WHERE at = 5000), bool_or(message_id = '<m30000@x>')::int FROM inbound", database: name)
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "10000|9999|1", "\(left)")
    }
}
