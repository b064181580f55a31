/// A store that tells a waiting daemon at once when any process made something due
/// sooner (PostgreSQL's LISTEN/NOTIFY). A store that cannot (SQLite) does not conform:
/// the daemon then finds sooner work by asking ``PendingStore/earliestDue(after:)`` every
/// second, as it does anyway.
public protocol SoonerDueSignalling: Sendable {
    /// Calls `handler` each time something may have become due sooner. It runs on the
    /// store's own threads: it should only wake the waiting work, never call the store.
    func onSoonerDue(_ handler: @escaping @Sendable () -> Void)
}
