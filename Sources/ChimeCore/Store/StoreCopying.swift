/// A store whose whole content can be copied into another store, table by table, by
/// `chime store copy --from URL --to URL` (SQLite → PostgreSQL and back).
///
/// The copy is generic: it knows no table. Every store keeps the same tables with the
/// same column names (those of the SQLite schema, `SQLiteStore+Migrations.swift`), and
/// reads and writes their values in one common form, ``StoreValue``, as the SQLite
/// schema holds them. ``StoreCopy/copy(from:to:batchSize:progress:)`` drives it: for each
/// table of the source's ``copyTables()``, in that order, it reads pages of at most
/// `batchSize` rows with ``readRows(_:after:limit:)`` and hands each page to the target's
/// writer inside ``writeCopy(_:)``. A million rows never sit in memory at once.
///
/// What is copied is everything a deployment holds (pending requests with their next
/// instants and claims, sent marks, delivered, outbox with bodies and attempts,
/// responses, inbound messages, chat threads, settings (the signing key among them),
/// preferences, recipient settings, undeliverable marks, opt-ins, parked notifications
/// and batches, idempotent answers), and nothing of the store's own bookkeeping (its
/// migrations table, sequences, indexes).
///
/// The source is read page by page, not in one snapshot: copy a deployment whose
/// workers are stopped.
public protocol StoreCopying: Sendable {
    /// The tables that hold a deployment, each with its key and its columns as this
    /// store has them, in the order they must be written: a table after every table it
    /// references (`outbox` before `outbox_body` and `attempt`).
    ///
    /// Names are the SQLite schema's, in every store. The migrations table and anything
    /// else that only the store itself uses are not listed.
    func copyTables() throws -> [CopiedTable]

    /// True when no table of ``copyTables()`` holds a row (a store just created and
    /// migrated, which is a valid copy target). A store that ever handed out its signing
    /// key is not empty: the key is a row of `setting`.
    func isEmpty() throws -> Bool

    /// Up to `limit` rows of `table`, in ascending order of its key, whose key is greater
    /// than `after` (from the first row when `after` is nil), compared as a row value
    /// (`(a, b) > (?, ?)`) in the store's own ordering.
    ///
    /// - Parameters:
    ///   - table: One of this store's ``copyTables()``.
    ///   - after: The key values (in the order of `table.key`) of the last row of the
    ///     previous page, or nil for the first page.
    ///   - limit: At most this many rows come back; fewer means the table is done.
    /// - Returns: The columns (`table.columns`, in that order) and the rows, each with
    ///   one value per column, as ``StoreValue`` describes them.
    func readRows(_ table: CopiedTable, after: [StoreValue]?, limit: Int) throws -> StoreRows

    /// Writes a copy into this store, in one transaction when the store allows it:
    /// opens it, checks in it that the store is empty (as ``isEmpty()``; else throws
    /// ``StoreCopyError/targetNotEmpty`` and writes nothing), then calls `body` with a
    /// writer. When `body` returns, the store moves any id generator (PostgreSQL's
    /// sequences behind `outbox.id`, `attempt.id`, `response.id`, `inbound.id`,
    /// `sent.id`) past the largest id written, and commits; when `body` throws, it rolls
    /// everything back and rethrows, leaving the store as it was.
    ///
    /// The writer is valid only during `body`, on the calling thread.
    func writeCopy(_ body: (any StoreRowWriter) throws -> Void) throws
}

/// Where ``StoreCopying/writeCopy(_:)`` writes rows, one page at a time.
public protocol StoreRowWriter {
    /// Inserts rows into `table` (one of the target's ``StoreCopying/copyTables()``, by
    /// name) as they are, ids included, in the transaction of the copy.
    ///
    /// - Parameters:
    ///   - table: The target's table of that name.
    ///   - columns: The names of the values of each row, a subset of `table.columns` (the
    ///     source's columns); a target column not named takes its default.
    ///   - rows: One ``StoreValue`` per column, in the SQLite schema's form: the store
    ///     converts each to its column's type (integer 0/1 to a boolean, text to JSON,
    ///     blob to bytea…).
    /// - Throws: The store's error when a row cannot be inserted (a duplicate key, a
    ///   value its column refuses); the copy then rolls back.
    func write(_ table: CopiedTable, columns: [String], rows: [[StoreValue]]) throws
}

/// One table as ``StoreCopying`` copies it.
public struct CopiedTable: Hashable, Sendable {
    /// The SQLite schema's name, as `pending`.
    public var name: String
    /// The columns that identify a row and order the pages (the primary key), as `["id"]`
    /// or `["recipient", "category"]`.
    public var key: [String]
    /// Every column, in the store's order.
    public var columns: [String]

    public init(name: String, key: [String], columns: [String]) {
        self.name = name
        self.key = key
        self.columns = columns
    }
}

/// One page of rows read by ``StoreCopying/readRows(_:after:limit:)``.
public struct StoreRows: Sendable {
    public var columns: [String]
    public var rows: [[StoreValue]]

    public init(columns: [String], rows: [[StoreValue]]) {
        self.columns = columns
        self.rows = rows
    }
}

/// A value of a copied row, in the SQLite schema's form whatever the store: instants as
/// integer seconds, booleans as integer 0 or 1, JSON and enumerations as text, keys and
/// message bodies as blobs, SQL NULL as ``null``.
public enum StoreValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// Why a copy did not happen.
public struct StoreCopyError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case targetNotEmpty
        case missingTable
        case missingColumn
    }

    private let code: Code
    /// The table at fault, when one is.
    public var table: String?
    /// The column at fault, when one is.
    public var column: String?

    private init(_ code: Code, table: String? = nil, column: String? = nil) {
        self.code = code
        self.table = table
        self.column = column
    }

    /// The target already holds rows: a copy would mix two deployments.
    public static let targetNotEmpty = StoreCopyError(.targetNotEmpty)

    /// The target has no table of this name (it is a version behind the source).
    public static func missingTable(_ table: String) -> StoreCopyError { StoreCopyError(.missingTable, table: table) }

    /// The target's table lacks a column the source's has.
    public static func missingColumn(_ column: String, in table: String) -> StoreCopyError {
        StoreCopyError(.missingColumn, table: table, column: column)
    }

    public var description: String {
        switch code {
        case .targetNotEmpty: "the target store is not empty"
        case .missingTable: "the target store has no table \(table ?? "")"
        case .missingColumn: "the target store's table \(table ?? "") has no column \(column ?? "")"
        }
    }
}
