import Logging
import PostgresNIO

/// A leased connection with the few ways the store talks to it: rows, a count of rows
/// changed, one value, a transaction.
struct Session: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    /// The rows a statement returned, by column name.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await connection.query(query, logger: logger).get().rows.map { $0.makeRandomAccess() }
    }

    /// Runs a statement; returns how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> Int {
        try await connection.query(query, logger: logger).get().metadata.rows ?? 0
    }

    /// The first column of the first row, nil when there is no row (or it is NULL).
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) async throws -> T? {
        guard let row = try await connection.query(query, logger: logger).get().rows.first else { return nil }
        let cell = row.makeRandomAccess()[0]
        return cell.bytes == nil ? nil : try cell.decode(T.self)
    }

    /// `work` between BEGIN and COMMIT; ROLLBACK when it throws, and its error thrown.
    /// READ COMMITTED (each statement sees what committed before it), or with `snapshot`
    /// REPEATABLE READ, READ ONLY: every statement sees the database as the first did.
    func transaction<T>(snapshot: Bool = false, _ work: (Session) async throws -> T) async throws -> T {
        try await execute(snapshot ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN")
        do {
            let value = try await work(self)
            try await execute("COMMIT")
            return value
        } catch {
            _ = try? await execute("ROLLBACK")
            throw error
        }
    }
}

extension PostgresRandomAccessRow {
    /// The named column's value.
    func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        try self[column].decode(T.self)
    }

    /// The named column's value, nil for NULL.
    func optional<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T? {
        let cell = self[column]
        return cell.bytes == nil ? nil : try cell.decode(T.self)
    }
}
