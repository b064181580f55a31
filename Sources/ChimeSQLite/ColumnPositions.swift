import GRDB

/// The positions of a statement's columns, found once from its first row, so that every
/// row's values are read by position: GRDB's reading by name lowercases the name and
/// compares it with every column's, about 1,700 instructions a value read from a
/// `SELECT *` (callgrind).
struct ColumnPositions {
    private let names: [String]

    /// Nil when there is no row.
    init?(_ rows: [Row]) {
        guard let first = rows.first else { return nil }
        names = Array(first.columnNames)
    }

    /// The position of the column `name`; it must be there, as reading by name requires.
    subscript(_ name: String) -> Int {
        // SQLite names a table's columns as its schema wrote them.
        names.firstIndex(of: name) ?? names.firstIndex { $0.lowercased() == name.lowercased() }!
    }
}
