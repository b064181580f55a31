/// Where requests wait and deliveries are recorded: SQLite by default, PostgreSQL when one
/// machine is not enough. One protocol per concern (``PendingStore``, ``OutboxStore``,
/// ``ResponseStore``, ``PolicyStore``, ``BatchStore``, ``CoordinationStore``,
/// ``HistoryStore``), so that each
/// part of Chime names what it reads and writes; a store is all of them.
///
/// The stores are synchronous, and stay so on purpose. Every caller runs store calls on a
/// thread of its own, never on Swift's cooperative pool: the cron commands on their main
/// thread, `chime serve` through its blocking pool (`blocking { … }`), the courier's and
/// scheduler's loops on Dispatch threads. Each operation is one short transaction (or
/// joins the one ``together(_:)`` opened), so an async protocol would buy no concurrency
/// the callers lack, and it would make every command and test async for the sake of one
/// store. The PostgreSQL store waits for PostgresNIO's event loop on the calling thread,
/// which is never one of those loops.
public protocol NotificationStore: PendingStore, OutboxStore, ResponseStore, PolicyStore, BatchStore, CoordinationStore, HistoryStore {
    /// Closes the store now rather than when the last reference to it goes, which in a
    /// daemon may be after the process has exited; using it after throws.
    func close()
}

extension NotificationStore {
    /// Nothing to close before exiting (the PostgreSQL store: the server keeps what was
    /// committed).
    public func close() {}
}

/// An address marked undeliverable: nothing is sent to it until the mark is cleared.
public struct UndeliverableMark: Hashable, Sendable, Encodable {
    /// Lower case.
    public var address: String
    public var at: Instant
    public var reason: String

    public init(address: String, at: Instant, reason: String) {
        self.address = address
        self.at = at
        self.reason = reason
    }
}
