import ChimeCore
import Foundation
import PostgresNIO

/// `chime store copy`: every table of the schema, read in pages in key order, written in
/// one transaction on a connection of its own.
extension PostgresStore: StoreCopying {
    /// Every table of the schema but `chime_migrations`, alphabetically, each after the
    /// tables it references; the key is the primary key, in key order.
    public func copyTables() throws -> [CopiedTable] {
        try read { session in try await Self.copyTables(session).map(\.table) }
    }

    public func isEmpty() throws -> Bool {
        try read { session in try await Self.isEmpty(session, try await Self.copyTables(session).map(\.table)) }
    }

    public func readRows(_ table: CopiedTable, after: [StoreValue]?, limit: Int) throws -> StoreRows {
        let columns = table.columns.map(Self.quoted).joined(separator: ", ")
        let key = table.key.map(Self.quoted).joined(separator: ", ")
        var binds = PostgresBindings()
        var sql = "SELECT \(columns) FROM \(Self.quoted(table.name))"
        if let after {
            sql += " WHERE (\(key)) > (\((1...after.count).map { "$\($0)" }.joined(separator: ", ")))"
            for value in after { Self.bind(value, into: &binds) }
        }
        sql += " ORDER BY \(key) LIMIT \(limit)"
        let query = PostgresQuery(unsafeSQL: sql, binds: binds)
        let rows = try read { session in try await session.rows(query).map { row in try row.map(Self.storeValue) } }
        return StoreRows(columns: table.columns, rows: rows)
    }

    /// In one transaction on a connection outside the pool, held for the whole copy: the
    /// check that the store is empty, every page, and the identity sequences moved past
    /// the largest id copied, committed together or not at all.
    public func writeCopy(_ body: (any StoreRowWriter) throws -> Void) throws {
        let configuration = try url.configurations().connection
        let logger = logger
        let session = try Self.wait(url: url) {
            Session(connection: try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger), logger: logger)
        }
        defer { _ = try? Self.wait(url: url) { try await session.connection.close() } }
        let tables = try Self.wait(url: url) { () -> [TableShape] in
            try await session.execute("BEGIN")
            let tables = try await Self.copyTables(session)
            guard try await Self.isEmpty(session, tables.map(\.table)) else { throw StoreCopyError.targetNotEmpty }
            return tables
        }
        do {
            try body(CopyWriter(store: self, session: session, types: Dictionary(tables.map { ($0.table.name, $0.types) }, uniquingKeysWith: { a, _ in a })))
            try Self.wait(url: url) {
                for table in tables where table.types["id"] == "int8" && table.table.key == ["id"] {
                    let name = table.table.name
                    try await session.execute(PostgresQuery(unsafeSQL: """
                        SELECT setval(pg_get_serial_sequence('\(name)', 'id'), COALESCE((SELECT MAX(id) FROM \(Self.quoted(name))), 1),
                                      (SELECT MAX(id) FROM \(Self.quoted(name))) IS NOT NULL)
                        """))
                }
                try await session.execute("COMMIT")
            }
        } catch {
            _ = try? Self.wait(url: url) { try await session.execute("ROLLBACK") }
            throw error
        }
        // Statistics of the tables just loaded, for the planner: without them it guesses,
        // and read every pending row for each run's list of claimers until autovacuum
        // came by. The copy is committed: a failure here (a timeout, a dropped
        // connection) leaves it to autovacuum rather than calling the copy failed.
        let names = tables.map { Self.quoted($0.table.name) }.joined(separator: ", ")
        _ = try? Self.wait(url: url) { try await session.execute(PostgresQuery(unsafeSQL: "ANALYZE \(names)")) }
    }

    /// A table with each column's PostgreSQL type name (`int8`, `text`, `bytea`).
    struct TableShape: Sendable {
        var table: CopiedTable
        var types: [String: String]
    }

    private static func copyTables(_ session: Session) async throws -> [TableShape] {
        var columns: [String: [String]] = [:]
        var types: [String: [String: String]] = [:]
        for row in try await session.rows("""
            SELECT c.relname AS table_name, a.attname AS column_name, t.typname AS type_name
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            JOIN pg_type t ON t.oid = a.atttypid
            WHERE c.relkind = 'r' AND n.nspname = current_schema() AND c.relname <> 'chime_migrations'
            ORDER BY c.relname, a.attnum
            """) {
            let table: String = try row.get("table_name"), column: String = try row.get("column_name")
            columns[table, default: []].append(column)
            types[table, default: [:]][column] = try row.get("type_name")
        }
        var keys: [String: [String]] = [:]
        for row in try await session.rows("""
            SELECT c.relname AS table_name, a.attname AS column_name
            FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position)
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
            WHERE i.indisprimary AND n.nspname = current_schema()
            ORDER BY c.relname, k.position
            """) {
            keys[try row.get("table_name"), default: []].append(try row.get("column_name"))
        }
        var references: [String: Set<String>] = [:]
        for row in try await session.rows("""
            SELECT c.relname AS table_name, r.relname AS referenced FROM pg_constraint f
            JOIN pg_class c ON c.oid = f.conrelid JOIN pg_class r ON r.oid = f.confrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE f.contype = 'f' AND n.nspname = current_schema()
            """) {
            references[try row.get("table_name"), default: []].insert(try row.get("referenced"))
        }
        // Depth-first: a table once all it references is placed.
        var ordered: [TableShape] = []
        var placed: Set<String> = []
        func place(_ name: String) {
            guard !placed.contains(name), let names = columns[name] else { return }
            placed.insert(name)
            for referenced in (references[name] ?? []).subtracting([name]).sorted() { place(referenced) }
            ordered.append(TableShape(table: CopiedTable(name: name, key: keys[name] ?? names, columns: names), types: types[name] ?? [:]))
        }
        for name in columns.keys.sorted() { place(name) }
        return ordered
    }

    private static func isEmpty(_ session: Session, _ tables: [CopiedTable]) async throws -> Bool {
        for table in tables where try await session.value(PostgresQuery(unsafeSQL: "SELECT 1 FROM \(quoted(table.name)) LIMIT 1"), as: Int32.self) != nil {
            return false
        }
        return true
    }

    /// Inserts pages of rows, many rows to a statement, in the copy's transaction.
    private struct CopyWriter: StoreRowWriter {
        let store: PostgresStore
        let session: Session
        let types: [String: [String: String]]

        func write(_ table: CopiedTable, columns: [String], rows: [[StoreValue]]) throws {
            guard let kinds = types[table.name] else { throw StoreCopyError.missingTable(table.name) }
            // PostgreSQL takes at most 65,535 parameters a statement.
            let perStatement = max(1, 60_000 / max(columns.count, 1))
            for start in stride(from: 0, to: rows.count, by: perStatement) {
                let slice = rows[start..<min(start + perStatement, rows.count)]
                var binds = PostgresBindings()
                var tuples: [String] = []
                for row in slice {
                    var marks: [String] = []
                    for (column, value) in zip(columns, row) {
                        PostgresStore.bind(PostgresStore.converted(value, to: kinds[column] ?? "text"), into: &binds)
                        marks.append("$\(binds.count)")
                    }
                    tuples.append("(" + marks.joined(separator: ", ") + ")")
                }
                let query = PostgresQuery(unsafeSQL: """
                    INSERT INTO \(PostgresStore.quoted(table.name)) (\(columns.map(PostgresStore.quoted).joined(separator: ", ")))
                    VALUES \(tuples.joined(separator: ", "))
                    """, binds: binds)
                _ = try PostgresStore.wait(url: store.url) { [session] in try await session.execute(query) }
            }
        }
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A value in the SQLite schema's form made fit for a column of PostgreSQL type `type`
    /// (SQLite lets a column hold a value of another kind).
    static func converted(_ value: StoreValue, to type: String) -> StoreValue {
        switch (value, type) {
        case (.text(let text), "bytea"): .blob([UInt8](text.utf8))
        case (.integer(let integer), "text"): .text(String(integer))
        case (.blob(let bytes), "text"): .text(String(decoding: bytes, as: UTF8.self))
        case (.text(let text), "int8"): Int64(text).map(StoreValue.integer) ?? value
        case (.real(let real), "int8"): .integer(Int64(real))
        default: value
        }
    }

    static func bind(_ value: StoreValue, into binds: inout PostgresBindings) {
        switch value {
        case .null: binds.appendNull()
        case .integer(let integer): binds.append(integer)
        case .real(let real): binds.append(real)
        case .text(let text): binds.append(text)
        case .blob(let bytes): binds.append(ByteBuffer(bytes: bytes))
        }
    }

    static func storeValue(_ cell: PostgresCell) throws -> StoreValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2: return .integer(try cell.decode(Int64.self))
        case .float8, .float4, .numeric: return .real(try cell.decode(Double.self))
        case .bytea: return .blob([UInt8](try cell.decode(Data.self)))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        default: return .text(try cell.decode(String.self))
        }
    }
}
