@testable import ChimePostgres
import Foundation
import Testing

@Suite("PostgreSQL store URLs")
struct PostgresURLTests {
    @Test("user, password, host, port and database, percent-decoded; postgresql:// too")
    func parts() throws {
        let url = try PostgresURL("postgresql://ch%40me:p%40ss%3Aw%2Fd@db.example.org:6543/chime%20prod?sslmode=verify-full")
        #expect(url.user == "ch@me")
        #expect(url.password == "p@ss:w/d")
        #expect(url.host == "db.example.org")
        #expect(url.port == 6543)
        #expect(url.database == "chime prod")
        #expect(url.tls == .verifyFull)
        #expect(url.description == "postgres://ch@me@db.example.org:6543/chime prod")
    }

    @Test("defaults: port 5432, the database named after the user, TLS verified")
    func defaults() throws {
        let url = try PostgresURL("postgres://chime@db")
        #expect(url.port == 5432)
        #expect(url.database == "chime")
        #expect(url.password == nil)
        #expect(url.tls == .verifyFull)
    }

    @Test("an IPv6 address, a Unix socket folder, connect_timeout")
    func forms() throws {
        let v6 = try PostgresURL("postgres://u:p@[::1]:5433/d?sslmode=disable")
        #expect(v6.host == "::1")
        #expect(v6.port == 5433)
        let socket = try PostgresURL("postgres://u@/d?host=/run/postgresql&connect_timeout=3")
        #expect(socket.socketPath == "/run/postgresql/.s.PGSQL.5432")
        #expect(socket.connectTimeout == 3)
        // libpq's other form: the folder as the host, percent-encoded.
        let encoded = try PostgresURL("postgres://u:p@%2Ftmp%2Fpg:54329/d")
        #expect(encoded.socketPath == "/tmp/pg/.s.PGSQL.54329" && encoded.host == nil)
        // Shown as it can be given again: the socket's folder, not its file.
        #expect(socket.description == "postgres://u@/d?host=/run/postgresql")
        #expect(encoded.description == "postgres://u@/d?host=/tmp/pg&port=54329")
        #expect(try PostgresURL(encoded.description).socketPath == encoded.socketPath)
    }

    @Test("what libpq reads and Chime does not take is refused (64), saying why, not retried for good: several hosts, connect_timeout=0 (wait for ever)", arguments: [
        ("postgres://chime@127.0.0.1:5432,127.0.0.2:5432/c", "several hosts"), ("postgres://chime@/c?host=h1,h2", "several hosts"),
        ("postgres://chime@db/c?connect_timeout=0", "wait for ever"), ("postgres://chime@db/c?connect_timeout=soon", "whole number of seconds"),
    ])
    func notTaken(text: String, reason: String) throws {
        let error = try #require(throws: PostgresURL.ParseError.self) { try PostgresURL(text) }
        #expect(error.description.contains(reason), "\(error.description)")
    }

    @Test("a PostgreSQL URL without its // or its colon is malformed, never a SQLite path (which printed it, password and all)", arguments: [
        ("postgres:/chime:Sup3rSecret@db/chime", true), ("postgresql//chime:Sup3rSecret@db/chime", true), ("postgresql:chime:pw@db/c", true),
        ("POSTGRES://chime:pw@db/c", true), ("postgres://chime:pw@db/c", false), ("sqlite:./chime.sqlite", false), ("./postgres.sqlite", false),
    ])
    func malformed(url: String, malformed: Bool) {
        #expect(PostgresURL.isMalformedPostgres(url) == malformed)
    }

    @Test("sslmode: every mode that encrypts verifies, unless no-verify says otherwise", arguments: [
        ("disable", PostgresURL.TLSMode.disable), ("require", .require), ("verify-ca", .verifyCA), ("verify-full", .verifyFull),
        ("no-verify", .noVerify),
    ])
    func sslModes(mode: String, expected: PostgresURL.TLSMode) throws {
        #expect(try PostgresURL("postgres://u:p@h/d?sslmode=\(mode)").tls == expected)
    }

    @Test("refused, with a reason that never holds the password", arguments: [
        "postgres://u:S3cretPass@h/d?sslmode=prefer",
        "postgres://u:S3cretPass@h/d?sslmode=allow",
        "postgres://u:S3cretPass@h/d?sslmode=maybe",
        "postgres://u:S3cretPass@h:99999/d",
        "postgres://u:S3cretPass@h:port/d",
        "postgres://u:S3cretPass@h/d?sslpassword=S3cretPass",
        "postgres://u:S3cretPass%zz@h/d",
        "postgres://u:S3cretPass@/d",
        "mysql://u:S3cretPass@h/d",
        // A password with a raw ?, & or / in it.
        "postgres://u:1234?S3cretPass@h/d",
        "postgres://u:a?b&S3cretPass@h/d",
        "postgres://u:a?S3cretPass&b@h/d",
        "postgres://u:pa/S3cretPass@h/d",
        "postgres://u:pa#S3cretPass@h/d",
        "postgres://u:p@ss?S3cretPass=y@h/d",
        "postgres://u:1234?s3cretpass=1@h/d",
        // A raw / after digits (read as a port) or after a raw @ (read as the host's end).
        "postgres://chime:93/S3cretPass@db.example.org/chime",
        "postgres://chime:S3c@ret/S3cretPass@db.example.org/chime",
    ])
    func refused(text: String) throws {
        let error = try #require(throws: PostgresURL.ParseError.self) { try PostgresURL(text) }
        #expect(!error.description.lowercased().contains("s3cretpass"), "\(error.description)")
        #expect(!error.description.isEmpty)
    }

    @Test("an @ in a parameter's value, after a host, its port, an IPv6 address or a whole user and password, is a value")
    func atInParameter() throws {
        for (text, host) in [("postgres://db.example.org/chime?user=me@corp&sslmode=require", "db.example.org"),
                             ("postgres://db.example.org:5432/chime?user=me@corp", "db.example.org"),
                             ("postgres://chime:pw@db/chime?application_name=chime@web1", "db"),
                             ("postgres://[::1]/chime?user=a@b", "::1")] {
            #expect(try PostgresURL(text).host == host, "\(text)")
        }
    }

    @Test("a URL the store cannot read fails with exit code 64, without the password")
    func unreadable() throws {
        let failure = try #require(throws: PostgresStoreFailure.self) { try PostgresStore("postgres://u:S3cretPass@h/d?sslmode=prefer") }
        #expect(failure.exitCode == 64)
        #expect(!failure.description.contains("S3cretPass"))
    }
}
