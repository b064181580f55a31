import ChimeCore
import Foundation
import PostgresNIO

/// A `postgres://` or `postgresql://` store URL, read as libpq reads it where that is safe:
/// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=MODE&sslrootcert=FILE`, user
/// and password percent-decoded, the port 5432 by default, the user the login name and
/// the database the user's name when left out, and `host=/run/postgresql` in the query
/// for a Unix socket.
///
/// `sslmode` differs from libpq on purpose: every mode that encrypts also verifies,
/// unless verifying is turned off by name (as node-postgres does).
///
/// | sslmode | libpq | Chime |
/// | --- | --- | --- |
/// | (none) | `prefer`: TLS when offered, else plain text | `verify-full` |
/// | `disable` | plain text | plain text (a server on this machine or a trusted network) |
/// | `allow`, `prefer` | plain text or TLS, unverified | refused: a downgrade to plain text would go unnoticed |
/// | `require` | TLS, certificate not verified | TLS, certificate and host name verified |
/// | `verify-ca` | TLS, certificate verified | TLS, certificate verified, host name not |
/// | `verify-full` | TLS, certificate and host name verified | the same |
/// | `no-verify` | (none) | TLS, nothing verified: said explicitly |
///
/// Certificates are verified against the system's trust store, or against the PEM file
/// `sslrootcert` names. The password is never part of ``description`` nor of any error.
public struct PostgresURL: Sendable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, CaseIterable {
        case disable
        case require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
        case noVerify = "no-verify"
    }

    public var user: String
    /// Percent-decoded; never printed.
    public var password: String?
    /// A host name or address; nil with ``socketPath``.
    public var host: String?
    public var port: Int
    /// A Unix socket (`host=/folder` in the query names its folder, as libpq reads it).
    public var socketPath: String?
    public var database: String
    public var tls: TLSMode
    /// A PEM file of the certificates to trust instead of the system's.
    public var rootCertificates: String?
    /// Seconds to wait for a connection (`connect_timeout`).
    public var connectTimeout: Int?

    /// Why a URL was not taken: said without its password.
    public struct ParseError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The URL with the password left out: what messages name.
    public var description: String {
        // The socket's folder, as the URL names it, so that the URL shown can be used again.
        let place = socketPath.map { "?host=\(($0 as NSString).deletingLastPathComponent)" + (port == 5432 ? "" : "&port=\(port)") } ?? ""
        let server = socketPath == nil ? "\(host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""):\(port)" : ""
        return "postgres://\(user)@\(server)/\(database)\(place)"
    }

    /// Whether `text` names a PostgreSQL store.
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// A PostgreSQL URL with its `//` or its colon missing, or its scheme in capitals
    /// (`postgres:/user:pw@db/chime`, `postgresql//…`, `POSTGRES://…`): read as a SQLite
    /// path, it was printed whole, password and all, in the error that followed.
    public static func isMalformedPostgres(_ text: String) -> Bool {
        guard !isPostgres(text) else { return false }
        let start = text.prefix(12).lowercased()
        return ["postgres:", "postgresql:", "postgres//", "postgresql//"].contains { start.hasPrefix($0) }
    }

    /// Whether what stands before the first `?`, `/` or `#` of a URL's rest is the start
    /// of user information cut inside its password (`USER:PASS` with no `@` yet), not a
    /// host with its port (`db:5432`), an IPv6 address (`[::1]`) or a whole
    /// `USER:PASSWORD@HOST`.
    static func looksLikeCutPassword(_ start: Substring) -> Bool {
        guard !start.contains("@"), !start.hasPrefix("["), let colon = start.firstIndex(of: ":") else { return false }
        let after = start[start.index(after: colon)...]
        return after.isEmpty || !after.allSatisfy(\.isASCII) || !after.allSatisfy(\.isNumber)
    }

    /// Reads a store URL.
    /// - Throws: ``ParseError`` saying what is wrong, never echoing the password.
    public init(_ text: String) throws {
        guard let schemeEnd = text.range(of: "://"), Self.isPostgres(text) else {
            throw ParseError(description: "a PostgreSQL store URL starts with postgres:// or postgresql://")
        }
        var rest = Substring(text[schemeEnd.upperBound...])
        // A password with a raw ? or / (or #) puts the @ that ends it after the query's or
        // the path's start: read as they are, its pieces were echoed as an unknown
        // parameter ("unknown parameter \"S3cret@db/chime\""). Refused, nothing of it said.
        if let at = rest.lastIndex(of: "@"), let mark = rest.firstIndex(where: { $0 == "?" || $0 == "/" || $0 == "#" }), mark < at,
           Self.looksLikeCutPassword(rest[..<mark]) {
            throw ParseError(description: "a ?, / or # stands before the last @, as in a password not percent-encoded: write them %3F, %2F and %23 in a password, and @ as %40 in a parameter")
        }
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        // An @ in the database's name is a password's raw / before its own @, whatever
        // stood before the / (`chime:93/kQx…@db/chime` is no host `chime` and port 93 with
        // a database `kQx…@db/chime`; `chime:Sec@ret/Part2@db/chime` no host `ret`): read
        // so, its pieces were printed in the error that followed, as the host or the
        // database.
        if path.contains("@") {
            throw ParseError(description: "an @ stands in the database's name, as after a / in a password not percent-encoded: write / as %2F in a password, and @ as %40 in a database's name")
        }
        // The user information ends at the last @: a password may hold a raw one.
        var hostPart = rest
        var user: String?
        if let at = rest.lastIndex(of: "@") {
            let info = rest[..<at]
            hostPart = rest[rest.index(after: at)...]
            if let colon = info.firstIndex(of: ":") {
                user = try Self.decode(info[..<colon], "the user name")
                password = try Self.decode(info[info.index(after: colon)...], "the password")
            } else {
                user = try Self.decode(info, "the user name")
            }
        }
        port = 5432
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw ParseError(description: "an IPv6 address in brackets lacks its ]") }
            host = String(hostPart[hostPart.index(after: hostPart.startIndex)..<close])
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") { port = try Self.port(after.dropFirst()) } else if !after.isEmpty {
                throw ParseError(description: "unexpected text after the IPv6 address")
            }
        } else if let colon = hostPart.lastIndex(of: ":") {
            host = try Self.decode(hostPart[..<colon], "the host")
            port = try Self.port(hostPart[hostPart.index(after: colon)...])
        } else if !hostPart.isEmpty {
            host = try Self.decode(hostPart, "the host")
        }
        tls = .verifyFull
        // libpq's other form of a Unix socket: the folder as the host, percent-encoded
        // (postgres://user@%2Fvar%2Frun%2Fpostgresql/chime). Taken for a host name, it
        // failed as a DNS error, 75, which cron and systemd retry for good.
        var socketFolder: String?
        if let folder = host, folder.hasPrefix("/") { (socketFolder, host) = (folder, nil) }
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = try Self.decode(parts.count > 1 ? parts[1] : "", "the value of \(name)")
            switch name {
            case "sslmode":
                if value == "allow" || value == "prefer" {
                    throw ParseError(description: "sslmode=\(value) would fall back to an unencrypted connection without a word: use sslmode=require (TLS, certificate verified) or, on this machine or a trusted network, sslmode=disable")
                }
                guard let mode = TLSMode(rawValue: value) else {
                    throw ParseError(description: "sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            case "sslrootcert":
                rootCertificates = value
            case "host":
                // libpq's form of a Unix socket: the folder holding it.
                if value.hasPrefix("/") { socketFolder = value } else { host = value }
            case "port":
                port = try Self.port(Substring(value))
            case "user":
                user = value
            case "password":
                password = value
            case "dbname":
                path = Substring(value)
            case "connect_timeout":
                guard let seconds = Int(value) else { throw ParseError(description: "connect_timeout must be a whole number of seconds") }
                guard seconds > 0 else {
                    throw ParseError(description: "connect_timeout=\(value) is libpq's \"wait for ever\", which Chime does not take: a cron run would hang on a server gone; give 1 or more seconds, or leave it out (10 s)")
                }
                connectTimeout = seconds
            case "application_name":
                continue
            default:
                // Named only when it is a name, in a query without an @: anything else may be
                // a piece of a password whose raw ? started the query.
                let named = !name.isEmpty && name.allSatisfy({ ("a"..."z").contains($0) || $0 == "_" }) && !query.contains("@")
                let shown = named ? "\"\(name)\"" : "(its name not shown)"
                throw ParseError(description: "unknown parameter \(shown) (Chime reads sslmode, sslrootcert, host, port, user, password, dbname, connect_timeout, application_name)")
            }
        }
        if let socketFolder { socketPath = (socketFolder as NSString).appendingPathComponent(".s.PGSQL.\(port)") }
        // libpq's several hosts (`h1:5432,h2:5432`, `host=h1,h2`), tried in turn: taken
        // for one name, it failed as a DNS error, 75, retried for good by cron and systemd.
        if host?.contains(",") == true || socketPath?.contains(",") == true {
            throw ParseError(description: "several hosts (libpq's h1,h2) are not taken: name one server, or a proxy in front of them")
        }
        guard host != nil || socketPath != nil else {
            throw ParseError(description: "name the server, as in postgres://USER:PASSWORD@HOST:5432/DATABASE")
        }
        let login = user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.loginName()
        self.user = login
        let database = try Self.decode(path, "the database name")
        self.database = database.isEmpty ? login : database
        if let password, password.isEmpty { self.password = nil }
        if tls == .disable, rootCertificates != nil {
            throw ParseError(description: "sslrootcert is for a TLS connection; sslmode=disable makes none")
        }
    }

    /// A lock another client holds (a table, the migrations' advisory lock) is waited for
    /// this long, then the statement fails with 55P03 (75: try again later); without it,
    /// Chime waited for good, saying nothing.
    static let lockTimeout = "30s"

    /// Set on every connection as it starts.
    static let startupParameters = [("lock_timeout", lockTimeout)]

    /// The pool's configuration, and that of one connection outside it (the first, which
    /// migrates; a copy's): TLS as ``tls`` says, `sslrootcert` read once for both.
    /// - Throws: ``PostgresStoreFailure`` when `sslrootcert` cannot be read; NIOSSL's error
    ///   when its context cannot be made.
    func configurations() throws -> (client: PostgresClient.Configuration, connection: PostgresConnection.Configuration) {
        var client: PostgresClient.Configuration
        var connection: PostgresConnection.Configuration
        if let socketPath {
            client = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
            connection = .init(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            let tls = try tlsConfiguration()
            client = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database,
                           tls: tls.map { .require($0) } ?? .disable)
            connection = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database,
                               tls: try tls.map { .require(try NIOSSLContext(configuration: $0)) } ?? .disable)
        }
        if let connectTimeout {
            client.options.connectTimeout = .seconds(connectTimeout)
            connection.options.connectTimeout = .seconds(Int64(connectTimeout))
        }
        client.options.additionalStartupParameters = Self.startupParameters
        connection.options.additionalStartupParameters = Self.startupParameters
        return (client, connection)
    }

    /// NIOSSL's client configuration for ``tls``; nil for `disable`.
    private func tlsConfiguration() throws -> TLSConfiguration? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch self.tls {
        case .disable: return nil
        case .require, .verifyFull: tls.certificateVerification = .fullVerification
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .noVerify: tls.certificateVerification = .none
        }
        if let rootCertificates { tls.trustRoots = .certificates(try trustedRoots(rootCertificates)) }
        return tls
    }

    /// The certificates of `sslrootcert`, read at once: a file missing (66) or holding no
    /// PEM certificate (65) is said with its path, where NIOSSL's own error, when
    /// connecting, named neither and read as a certificate the server failed to prove.
    private func trustedRoots(_ path: String) throws -> [NIOSSLCertificate] {
        func failure(_ code: Int32, _ why: String) -> PostgresStoreFailure {
            PostgresStoreFailure(url: self, exitCode: code, explanation: "sslrootcert \"\(path)\" \(why)", detail: "not connected")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw failure(66, FileManager.default.fileExists(atPath: path) ? "cannot be read (permission denied)" : "does not exist")
        }
        guard let certificates = try? NIOSSLCertificate.fromPEMFile(path), !certificates.isEmpty else {
            throw failure(65, "holds no certificate in PEM form (-----BEGIN CERTIFICATE-----)")
        }
        return certificates
    }

    private static func decode(_ text: Substring, _ what: String) throws -> String {
        guard let decoded = text.removingPercentEncoding else {
            throw ParseError(description: "\(what) is not percent-encoded properly (write % as %25)")
        }
        return decoded
    }

    private static func port(_ text: Substring) throws -> Int {
        guard let port = Int(text), (1...65535).contains(port) else { throw ParseError(description: "the port must be a number from 1 to 65535") }
        return port
    }

    private static func loginName() -> String {
        SystemUser.name(of: geteuid()) ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
    }
}
