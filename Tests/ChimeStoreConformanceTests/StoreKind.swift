import ChimeCore
import ChimePostgres
import ChimeSQLite
import ChimeTestSupport
import Foundation
import Testing

/// Every store the suite runs against: each test takes one as its argument, so a
/// behaviour is specified once and checked on each.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A new, empty store of this kind, with a way to open it again: a second handle is
    /// another process's view (its own connection, its own locks).
    func make() throws -> StoreUnderTest {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-conformance-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("chime.sqlite").path
            return try StoreUnderTest(url: "sqlite:\(path)", folder: folder) { try SQLiteStore(path: path) }
        case .postgres:
            // A database of its own on the test run's one PostgreSQL.
            let url = try PostgresServer.shared().makeDatabase()
            return try StoreUnderTest(url: url, folder: nil) { try PostgresStore(url) }
        }
    }
}

/// A store made for one test, and removed with it.
final class StoreUnderTest: Sendable {
    typealias Store = any NotificationStore & StoreCopying

    /// The store's URL, as `--store` names it.
    let url: String
    let store: Store
    private let open: @Sendable () throws -> Store
    private let folder: URL?

    init(url: String, folder: URL?, open: @escaping @Sendable () throws -> Store) throws {
        self.url = url
        self.folder = folder
        self.open = open
        store = try open()
    }

    /// Another handle on the same store.
    func another() throws -> Store { try open() }

    /// Runs SQL on the store from outside Chime, as an operator's hand or another program
    /// would: Python's `sqlite3` module, or PostgreSQL's `psql`.
    func execute(_ sql: String) throws {
        if let folder {
            try runSQLiteScript(sql, on: folder.appendingPathComponent("chime.sqlite").path)
        } else {
            let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
            try PostgresServer.shared().psql(sql, database: database)
        }
    }

    deinit {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}
