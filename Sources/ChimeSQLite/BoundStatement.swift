import GRDB
import GRDBSQLite

/// A value bound to one parameter of a statement run by ``GRDB/Statement/run(_:in:)``.
enum BoundValue {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null

    static func integer(_ value: Int) -> BoundValue { .integer(Int64(value)) }
    static func integer(_ value: Int64?) -> BoundValue { value.map { .integer($0) } ?? .null }
    static func text(_ value: String?) -> BoundValue { value.map { .text($0) } ?? .null }
    static func boolean(_ value: Bool) -> BoundValue { .integer(value ? 1 : 0) }
}

extension Statement {
    /// Runs a statement that returns no rows, once, its parameters bound from `values`
    /// in order with SQLite's own `sqlite3_bind_*`.
    ///
    /// Written by hand for the statements run once per message sent (marking, queueing,
    /// recording its attempt): GRDB's `execute(arguments:)` boxes each value twice on
    /// the way (its `StatementArguments`, then a `DatabaseValue`), which with its
    /// bookkeeping and its copies of rows was about a tenth of a delivered email's CPU
    /// (perf, `chime-bench --smtp`). The statement is left reset
    /// with its bindings cleared, as GRDB expects a cached statement to be found; errors
    /// are GRDB's `DatabaseError`, as its own execution throws them.
    func run(_ values: [BoundValue], in db: Database) throws {
        try run(values, in: db) { _ in }
    }

    /// Runs the statement once, its parameters bound from `values` as ``run(_:in:)``
    /// binds them, handing each row it returns to `row` to read its columns from
    /// (``SQLiteRow``): GRDB's `Row.fetchAll` copies every row with its column names
    /// first, which was most of a claim of the outbox.
    func run(_ values: [BoundValue], in db: Database, row: (SQLiteRow) throws -> Void) throws {
        let handle = sqliteStatement
        sqlite3_reset(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .text(var text):
                // An empty buffer has no address, which SQLite would take for NULL.
                code = text.isEmpty ? sqlite3_bind_text(handle, index, "", 0, Self.transient)
                    : text.withUTF8 { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            case .blob(let bytes):
                code = bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
            case .null:
                code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw failure(code, in: db) }
        }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_DONE: return
            case SQLITE_ROW: try row(SQLiteRow(handle: handle))
            case let code: throw failure(code, in: db)
            }
        }
    }

    private func failure(_ code: Int32, in db: Database) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
    }

    /// `SQLITE_TRANSIENT`: SQLite copies the value before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// The row a statement stands on, read by column position.
struct SQLiteRow {
    let handle: SQLiteStatement

    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column's text; read before its length, as SQLite asks.
    func text(_ column: Int32) -> String {
        guard let start = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let start = sqlite3_column_blob(handle, column) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: start, count: Int(sqlite3_column_bytes(handle, column))))
    }
}
