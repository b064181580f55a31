import ChimeCore
import Foundation
import PostgresNIO

/// Why the PostgreSQL store failed, said for the person running `chime`, as the SQLite
/// store's `StoreFailure` says it: what is wrong, what to do, the sysexits code that fits,
/// and PostgreSQL's own SQLSTATE and words beside them. Never holds the password.
///
/// The codes: 75 (try again later) when the server cannot be reached, is starting or
/// shutting down, is out of connections or disk, or a transaction lost a race; 73 (the
/// store cannot be opened) when the server refuses the user, the password or the
/// database, or its certificate; 65 when the database is not a Chime store; 70 otherwise.
/// An unreachable store is 75 and not 69 ("a server unreachable"), as a busy SQLite store
/// is: the MTA that pipes a reply into `chime ingest` keeps it and tries again on 75,
/// where Postfix bounces it on 69.
public struct PostgresStoreFailure: Error, CustomStringConvertible {
    /// The store's URL without its password.
    public var url: String
    /// The sysexits code.
    public var exitCode: Int32
    /// PostgreSQL's SQLSTATE (`28P01`…), or empty when the server said nothing.
    public var sqlState: String
    /// What is wrong and what to do.
    public var explanation: String
    /// PostgreSQL's (or the connection's) words.
    public var detail: String

    public var description: String { "\(url): error: \(explanation)" + (detail.isEmpty ? "" : " (PostgreSQL: \(detail))") }

    init(url: String, exitCode: Int32, sqlState: String = "", explanation: String, detail: String) {
        self.url = url
        self.exitCode = exitCode
        self.sqlState = sqlState
        self.explanation = explanation
        self.detail = detail
    }

    init(url: PostgresURL, exitCode: Int32, sqlState: String = "", explanation: String, detail: String) {
        // Whatever the words, the password is not among them.
        let detail = url.password.map { detail.replacingOccurrences(of: $0, with: "***") } ?? detail
        self.init(url: url.description, exitCode: exitCode, sqlState: sqlState, explanation: explanation, detail: detail)
    }

    /// The failure an error of the store stands for.
    init(_ error: any Error, url: PostgresURL) {
        if let failure = error as? PostgresStoreFailure {
            self = failure
            return
        }
        if let error = error as? PostgresTransactionError {
            self.init(error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError ?? error, url: url)
            return
        }
        if let error = error as? PSQLError {
            self.init(error, url: url)
            return
        }
        if let error = error as? NIOSSLError {
            self.init(url: url, exitCode: 73, explanation: Self.certificate, detail: "\(error)")
            return
        }
        if let error = error as? NIOSSLExtraError {
            self.init(url: url, exitCode: 73, explanation: Self.certificate, detail: "\(error)")
            return
        }
        if error is IOError || error is ChannelError || error is NIOConnectionError {
            self.init(url: url, exitCode: 75, explanation: Self.unreachable(url), detail: "\(error)")
            return
        }
        if let refused = error as? StoreOwnership.Refused {
            self.init(url: url, exitCode: 65, explanation: refused.description, detail: "")
            return
        }
        if "\(type(of: error))" == "ConnectionPoolError" {
            // The pool gave up creating connections (the server went away after the first).
            self.init(url: url, exitCode: 75, explanation: Self.unreachable(url), detail: "\(error)")
            return
        }
        self.init(url: url, exitCode: 70, explanation: "the store failed", detail: "\(error)")
    }

    private init(_ error: PSQLError, url: PostgresURL) {
        if let server = error.serverInfo {
            let state = server[.sqlState] ?? ""
            let words = server[.message] ?? "\(error.code)"
            let (code, explanation) = Self.meaning(ofState: state, url: url)
            self.init(url: url, exitCode: code, sqlState: state, explanation: explanation, detail: "\(state) \(words)")
            return
        }
        let underlying = error.underlying.map { " \($0)" } ?? ""
        switch error.code {
        case .sslUnsupported:
            self.init(url: url, exitCode: 73, explanation: "the server does not offer TLS: turn it on there, or, for a server on this machine or a trusted network, add ?sslmode=disable to the URL",
                      detail: "\(error.code)")
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            self.init(url: url, exitCode: 73, explanation: Self.certificate, detail: "\(error.code)\(underlying)")
        case .authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError:
            self.init(url: url, exitCode: 73, explanation: "the server wants a password (or a way of signing in Chime lacks): give it in the URL as postgres://USER:PASSWORD@…",
                      detail: "\(error.code)")
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .poolClosed, .clientClosedConnection:
            if let underlying = error.underlying, underlying is NIOSSLError || underlying is NIOSSLExtraError {
                self.init(url: url, exitCode: 73, explanation: Self.certificate, detail: "\(underlying)")
            } else {
                self.init(url: url, exitCode: 75, explanation: Self.unreachable(url), detail: "\(error.code)\(underlying)")
            }
        default:
            self.init(url: url, exitCode: 70, explanation: "the store failed", detail: "\(error.code)\(underlying)")
        }
    }

    static let certificate = "the TLS connection failed: the server's certificate could not be verified (name its CA with ?sslrootcert=FILE.pem, or use sslmode=verify-ca when the host name differs, or sslmode=no-verify to trust any certificate)"

    static func unreachable(_ url: PostgresURL) -> String {
        "cannot reach the PostgreSQL server at \(url.socketPath ?? "\(url.host ?? ""):\(url.port)"): check that it runs and takes connections there; try again later"
    }

    /// The exit code and advice for a SQLSTATE (PostgreSQL's appendix A).
    private static func meaning(ofState state: String, url: PostgresURL) -> (Int32, String) {
        switch state {
        case "28P01", "28000":
            return (73, "the server refused user \"\(url.user)\" or its password: check USER and PASSWORD in the URL (percent-encode @ : / in them), and pg_hba.conf")
        case "3D000":
            return (73, "database \"\(url.database)\" does not exist: create it (createdb \(url.database)) or name another in the URL")
        case "42501":
            return (73, "user \"\(url.user)\" may not create or change Chime's tables in \"\(url.database)\": grant it (GRANT CREATE ON SCHEMA public TO \(url.user)) or use the database's owner")
        case "53300", "57P03", "57P01", "57P02", "40001", "40P01", "55P03", "57014":
            return (75, "the server is busy, starting or stopping, a lock or a statement took too long, or a transaction lost a race: try again later")
        case "53100":
            return (75, "the server's disk is full: free some space, then try again (nothing already stored was lost)")
        case "53200":
            return (75, "the server is out of memory: try again later")
        case _ where state.hasPrefix("08"):
            return (75, unreachable(url))
        case "42P01", "42703":
            return (65, "this database does not hold Chime's tables as this version expects: name another database, or run a chime as new as the one that last migrated it")
        default:
            return (70, "the store failed")
        }
    }
}
