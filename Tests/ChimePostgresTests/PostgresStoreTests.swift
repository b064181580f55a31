import ChimeCore
@testable import ChimePostgres
import ChimeTestSupport
import Foundation
import Testing

/// The PostgreSQL store against a real server (``PostgresServer``), each test in a
/// database of its own.
@Suite("The PostgreSQL store")
struct PostgresStoreTests {
    static func pending(_ id: String, fires seconds: Int64, recipient: String = "alice") -> PendingNotification {
        PendingNotification(
            request: NotificationRequest(identifier: id, recipient: recipient, content: NotificationContent(title: id),
                                         trigger: .timeInterval(seconds: 60, repeats: false)),
            added: Instant(seconds: seconds - 60), nextFire: Instant(seconds: seconds), anchor: Instant(seconds: seconds - 60),
            zone: "UTC", generation: "g-\(id)")
    }

    private let me = Claimer(host: "test", processID: 1, processStart: "1")

    @Test("a request goes through: added, listed, claimed, marked, settled, delivered")
    func roundTrip() throws {
        let store = try PostgresStore(try PostgresServer.shared().makeDatabase())
        #expect(try store.upsert([Self.pending("a", fires: 100), Self.pending("b", fires: 200)]) == [])
        #expect(try store.upsert([Self.pending("a", fires: 100)]) == ["a"])
        #expect(try store.pending(recipient: nil, limits: [:]).map(\.request.identifier) == ["a", "b"])
        let claimed = try store.claimDue(now: Instant(seconds: 150), limit: 10, claimer: me, leaseNow: Instant(seconds: 150),
                                         leaseUntil: Instant(seconds: 450), limits: [:])
        #expect(claimed.map(\.request.identifier) == ["a"])
        let a = claimed[0]
        try store.markSent([SentMark(notification: a, delivered: DeliveredNotification(request: a.request, fireDate: a.nextFire,
                                                                                       deliveredAt: Instant(seconds: 151), deliveryID: a.deliveryID,
                                                                                       coalesced: 0),
                                     next: nil, anchor: a.nextFire, queued: [])], claimer: me)
        #expect(try store.settle(claimer: me) == 1)
        #expect(try store.pending(recipient: nil, limits: [:]).map(\.request.identifier) == ["b"])
        #expect(try store.delivered(recipient: "alice").map(\.deliveryID) == [a.deliveryID])
        #expect(try store.request(ofDelivery: a.deliveryID)?.identifier == "a")
        #expect(try store.earliestDue(after: Instant(seconds: 150)) == Instant(seconds: 200))
        #expect(try store.cancel(["b", "zz"]) == ["b"])
    }

    @Test("another program's database, or one a newer chime migrated, is refused (65) with nothing added; a statement the server cancels is a try-again (75)")
    func notAChimeStore() throws {
        let server = try PostgresServer.shared()
        let other = try server.makeDatabase()
        let otherName = String(other.split(separator: "/").last!.split(separator: "?").first!)
        try server.psql("CREATE TABLE users (id int); INSERT INTO users VALUES (1)", database: otherName)
        let foreign = try #require(throws: PostgresStoreFailure.self) { try PostgresStore(other) }
        #expect(foreign.exitCode == 65)
        #expect(foreign.description.contains("it holds tables (users) but no record of Chime's migrations"), "\(foreign)")
        let tables = try server.psql("SELECT string_agg(table_name, ',') FROM information_schema.tables WHERE table_schema = 'public'", database: otherName)
        #expect(tables.trimmingCharacters(in: .whitespacesAndNewlines) == "users", "\(tables)")

        let newer = try server.makeDatabase()
        let newerName = String(newer.split(separator: "/").last!.split(separator: "?").first!)
        _ = try PostgresStore(newer)
        try server.psql("INSERT INTO chime_migrations (name) VALUES ('v99 from the future')", database: newerName)
        let refused = try #require(throws: PostgresStoreFailure.self) { try PostgresStore(newer) }
        #expect(refused.exitCode == 65)
        #expect(refused.description.contains("error: a newer chime migrated this store (v99 from the future): run that version") && !refused.description.contains("PostgreSQL:"), "\(refused)")

        // A statement the server's statement_timeout cancels is a try-again (75), as a
        // lock given up is: cron and an MTA pipe try again on 75, and Postfix bounced a
        // reply on the 70 it was.
        try server.psql("ALTER DATABASE \(newerName) SET statement_timeout = '100ms'; DELETE FROM chime_migrations WHERE name LIKE 'v99%'", database: newerName)
        let store = try PostgresStore(newer)
        let canceled = try #require(throws: PostgresStoreFailure.self) { try store.read { session in try await session.execute("SELECT pg_sleep(1)") } }
        #expect(canceled.exitCode == 75 && canceled.sqlState == "57014", "\(canceled)")
    }

    @Test("a server nobody listens on: exit 75 (try again later), the password not said")
    func unreachable() throws {
        let port = LocalPort.free()
        let failure = try #require(throws: PostgresStoreFailure.self) {
            try PostgresStore("postgres://chime:S3cretPass@127.0.0.1:\(port)/chime?sslmode=disable&connect_timeout=2")
        }
        #expect(failure.exitCode == 75)
        #expect(failure.description.contains("127.0.0.1:\(port)"))
        #expect(!failure.description.contains("S3cretPass"))
    }

    @Test("a database that does not exist: exit 73, said with what to do, the password not said")
    func missingDatabase() throws {
        let server = try PostgresServer.shared()
        let failure = try #require(throws: PostgresStoreFailure.self) {
            try PostgresStore("postgres://chime:S3cretPass@127.0.0.1:\(server.port)/no_such_db?sslmode=disable")
        }
        #expect(failure.exitCode == 73)
        #expect(failure.sqlState == "3D000")
        #expect(failure.description.contains("createdb no_such_db"))
        #expect(!failure.description.contains("S3cretPass"))
    }

    @Test("a server without TLS and a URL that asks for it: exit 73, saying sslmode=disable is the way for a trusted network")
    func noTLS() throws {
        let server = try PostgresServer.shared()
        let failure = try #require(throws: PostgresStoreFailure.self) {
            try PostgresStore("postgres://chime:S3cretPass@127.0.0.1:\(server.port)/postgres")
        }
        #expect(failure.exitCode == 73)
        #expect(failure.description.contains("sslmode=disable"))
        #expect(!failure.description.contains("S3cretPass"))
    }

    @Test("over TLS: verify-full with sslrootcert connects encrypted; without it the self-signed certificate is refused (73); no-verify trusts it; a missing or non-PEM sslrootcert is named (66, 65)")
    func tls() throws {
        let (certificate, folder) = try ScriptServer.temporaryCertificate("postgres-tls")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try PostgresServer.withTLS(certificate)
        defer { server.stop() }
        let base = "postgres://chime:S3cretPass@127.0.0.1:\(server.port)/postgres"
        /// Whether the store's connection is encrypted, as the server sees it.
        func encrypted(_ store: PostgresStore) throws -> Bool? {
            try store.read { try await $0.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first?[0].decode(Bool.self) }
        }

        let verified = try PostgresStore("\(base)?sslmode=verify-full&sslrootcert=\(certificate.cert)")
        #expect(try encrypted(verified) == true)

        // The system's CAs do not know a self-signed certificate.
        let refused = try #require(throws: PostgresStoreFailure.self) { try PostgresStore("\(base)?sslmode=require&connect_timeout=5") }
        #expect(refused.exitCode == 73)
        #expect(refused.description.contains("sslrootcert"), "\(refused)")
        #expect(!refused.description.contains("S3cretPass"))

        let trusting = try PostgresStore("\(base)?sslmode=no-verify")
        #expect(try encrypted(trusting) == true)

        let missing = folder.appendingPathComponent("no-such-ca.pem").path
        let absent = try #require(throws: PostgresStoreFailure.self) { try PostgresStore("\(base)?sslmode=verify-full&sslrootcert=\(missing)") }
        #expect(absent.exitCode == 66)
        #expect(absent.description.contains(missing) && absent.description.contains("does not exist"), "\(absent)")

        // The key is no certificate.
        let notPEM = try #require(throws: PostgresStoreFailure.self) { try PostgresStore("\(base)?sslmode=verify-full&sslrootcert=\(certificate.key)") }
        #expect(notPEM.exitCode == 65)
        #expect(notPEM.description.contains(certificate.key) && notPEM.description.contains("PEM"), "\(notPEM)")
        #expect(!notPEM.description.contains("S3cretPass"))
    }
}
