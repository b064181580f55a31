/// Copies a whole deployment from one store into another, through ``StoreCopying``:
/// table by table, in pages, into one transaction on the target.
public enum StoreCopy {
    /// What a copy wrote: rows per table, in the order they were copied.
    public struct Summary: Sendable {
        public var tables: [(name: String, rows: Int)] = []
        public var rows: Int { tables.reduce(0) { $0 + $1.rows } }
    }

    /// Copies every table of `source` into `target`, which must be empty.
    ///
    /// - Parameters:
    ///   - batchSize: Rows read and written at a time: what the copy holds in memory.
    ///   - progress: Called after each page with the table and the rows copied of it so far.
    /// - Throws: ``StoreCopyError`` when the target is not empty or lacks a table or a
    ///   column of the source (checked before any row is written); a store's error while
    ///   reading or writing. The target is then left as it was.
    @discardableResult
    public static func copy(from source: some StoreCopying, to target: some StoreCopying, batchSize: Int = 1000,
                            progress: (String, Int) -> Void = { _, _ in }) throws -> Summary {
        let tables = try source.copyTables()
        let targetTables = Dictionary(try target.copyTables().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var pairs: [(from: CopiedTable, to: CopiedTable)] = []
        for table in tables {
            guard let other = targetTables[table.name] else { throw StoreCopyError.missingTable(table.name) }
            if let missing = table.columns.first(where: { !other.columns.contains($0) }) {
                throw StoreCopyError.missingColumn(missing, in: table.name)
            }
            pairs.append((table, other))
        }
        var summary = Summary()
        try target.writeCopy { writer in
            for (from, to) in pairs {
                var after: [StoreValue]?
                var copied = 0
                while true {
                    let page = try source.readRows(from, after: after, limit: batchSize)
                    if page.rows.isEmpty { break }
                    try writer.write(to, columns: page.columns, rows: page.rows)
                    copied += page.rows.count
                    progress(from.name, copied)
                    let keyIndices = try from.key.map { column in
                        guard let index = page.columns.firstIndex(of: column) else { throw StoreCopyError.missingColumn(column, in: from.name) }
                        return index
                    }
                    let last = page.rows[page.rows.count - 1]
                    after = keyIndices.map { last[$0] }
                    if page.rows.count < batchSize { break }
                }
                summary.tables.append((from.name, copied))
            }
        }
        return summary
    }
}
