import ChimeCore
import PostgresNIO

extension PostgresStore {
    public func forgetHistory(before cutoff: Instant, dryRun: Bool) throws -> ForgottenHistory {
        var forgotten = ForgottenHistory()
        for kind in ForgottenHistory.kinds {
            let condition = kind.condition.replacingOccurrences(of: "?", with: "$1")
                + (kind.hasIDs ? " AND id < (SELECT MAX(id) FROM \(kind.table))" : "")
            if dryRun {
                forgotten[keyPath: kind.count] = try read { session in
                    Int(try await session.value(Self.query("SELECT COUNT(*) FROM \(kind.table) WHERE \(condition)", cutoff.seconds), as: Int64.self) ?? 0)
                }
                continue
            }
            // A window of the table's pages at a time (a TID range scan, in no order, of
            // those pages alone), from its first page to the last it had when this began:
            // one read of the table in all, whatever it holds; rows added since are new,
            // not forgotten. Each window's rows locked as they are read, so that nothing
            // changes one between its read and its delete.
            let pages = try read { session in
                try await session.value(PostgresQuery(unsafeSQL: "SELECT pg_relation_size('\(kind.table)') / current_setting('block_size')::bigint"),
                                        as: Int64.self) ?? 0
            }
            let pagesAtATime = max(1, Self.pagesAtATime * Int64(kind.rowsAtATime) / Int64(ForgottenHistory.batch))
            var first: Int64 = 0
            while first < pages {
                let window = (from: "(\(first),0)", to: "(\(first + pagesAtATime),0)")
                forgotten[keyPath: kind.count] += try write { session in
                    let rows = try await session.rows(Self.query("""
                        SELECT ctid::text AS place FROM \(kind.table)
                        WHERE ctid >= $2::text::tid AND ctid < $3::text::tid AND \(condition) FOR UPDATE
                        """, cutoff.seconds, window.from, window.to))
                    guard !rows.isEmpty else { return 0 }
                    let places = try rows.map { try $0.get("place", as: String.self) }
                    let selected = "ctid = ANY($1::text[]::tid[])"
                    for dependent in kind.dependents {
                        try await session.execute(Self.query(dependent.forgetting(of: kind, rows: selected), places))
                    }
                    if kind.flagsAnswered {
                        try await session.execute(Self.query(ForgottenHistory.flaggingAnswered(rows: selected), places))
                    }
                    try await session.execute(Self.query("DELETE FROM \(kind.table) WHERE \(selected)", places))
                    return rows.count
                }
                first += pagesAtATime
            }
        }
        return forgotten
    }

    /// Pages of a table read and forgotten in one transaction: 8 KiB each, some tens of
    /// rows, about ``ForgottenHistory/batch`` rows in all (for a kind that forgets fewer
    /// at a time, as many fewer pages, one at least).
    private static let pagesAtATime: Int64 = 32

    /// `sql` with `values` bound as $1, $2….
    private static func query(_ sql: String, _ values: any PostgresNonThrowingEncodable & Sendable...) -> PostgresQuery {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}
