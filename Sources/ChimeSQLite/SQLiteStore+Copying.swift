import ChimeCore
import Foundation
import GRDB

/// `chime store copy`: every table of the schema, read in pages in key order, written in
/// one `BEGIN IMMEDIATE` transaction.
extension SQLiteStore: StoreCopying {
    /// Every table but SQLite's own and the migrations table, alphabetically, each after
    /// the tables it references; the key is the primary key (the columns in key order).
    public func copyTables() throws -> [CopiedTable] {
        try database.read { db in
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations' ORDER BY name
                """)
            var tables: [String: CopiedTable] = [:]
            var references: [String: Set<String>] = [:]
            for name in names {
                let info = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [name])
                let columns: [String] = info.map { $0["name"] }
                let key: [String] = info.filter { ($0["pk"] as Int) > 0 }.sorted { ($0["pk"] as Int) < ($1["pk"] as Int) }.map { $0["name"] }
                tables[name] = CopiedTable(name: name, key: key.isEmpty ? columns : key, columns: columns)
                references[name] = Set(try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?)", arguments: [name]))
                    .subtracting([name])
            }
            // Depth-first: a table once all it references is placed.
            var ordered: [CopiedTable] = []
            var placed: Set<String> = []
            func place(_ name: String) {
                guard !placed.contains(name), let table = tables[name] else { return }
                placed.insert(name)
                for referenced in (references[name] ?? []).sorted() { place(referenced) }
                ordered.append(table)
            }
            for name in names { place(name) }
            return ordered
        }
    }

    public func isEmpty() throws -> Bool {
        let tables = try copyTables()
        return try database.read { db in try Self.isEmpty(db, tables) }
    }

    public func readRows(_ table: CopiedTable, after: [StoreValue]?, limit: Int) throws -> StoreRows {
        let columns = table.columns.map(Self.quoted).joined(separator: ", ")
        let key = table.key.map(Self.quoted).joined(separator: ", ")
        var sql = "SELECT \(columns) FROM \(Self.quoted(table.name))"
        var arguments: [(any DatabaseValueConvertible)?] = []
        if let after {
            sql += " WHERE (\(key)) > (\(Array(repeating: "?", count: after.count).joined(separator: ", ")))"
            arguments = after.map(Self.databaseValue)
        }
        sql += " ORDER BY \(key) LIMIT ?"
        arguments.append(limit)
        let rows = try database.read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                Array(row.databaseValues.map(Self.storeValue))
            }
        }
        return StoreRows(columns: table.columns, rows: rows)
    }

    /// In one `BEGIN IMMEDIATE` transaction, so no other process writes between the check
    /// that the store is empty and the copy. SQLite has no sequence to move: an
    /// `INTEGER PRIMARY KEY` takes the largest id plus one.
    public func writeCopy(_ body: (any StoreRowWriter) throws -> Void) throws {
        let tables = try copyTables()
        try database.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                guard try Self.isEmpty(db, tables) else { throw StoreCopyError.targetNotEmpty }
                try body(RowWriter(db: db))
                return .commit
            }
        }
    }

    private static func isEmpty(_ db: Database, _ tables: [CopiedTable]) throws -> Bool {
        try tables.allSatisfy { table in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoted(table.name)))") == false
        }
    }

    /// Inserts pages of rows through one prepared statement per table and set of columns.
    private struct RowWriter: StoreRowWriter {
        let db: Database

        func write(_ table: CopiedTable, columns: [String], rows: [[StoreValue]]) throws {
            let statement = try db.cachedStatement(sql: """
                INSERT INTO \(SQLiteStore.quoted(table.name)) (\(columns.map(SQLiteStore.quoted).joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
                """)
            for row in rows {
                try statement.execute(arguments: StatementArguments(row.map(SQLiteStore.databaseValue)))
            }
        }
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func storeValue(_ value: DatabaseValue) -> StoreValue {
        switch value.storage {
        case .null: .null
        case .int64(let integer): .integer(integer)
        case .double(let real): .real(real)
        case .string(let text): .text(text)
        case .blob(let data): .blob([UInt8](data))
        }
    }

    static func databaseValue(_ value: StoreValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        }
    }
}
