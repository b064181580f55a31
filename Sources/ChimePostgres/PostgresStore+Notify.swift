import ChimeCore
import Foundation
import PostgresNIO

/// LISTEN/NOTIFY: a process that makes something due sooner (adds or replaces a request,
/// moves a recipient's zone, queues a delivery again, releases a dead worker's claims)
/// says so on the channel `chime_due`, and every `chime serve` listening on it looks at
/// the store at once instead of at its next check.
extension PostgresStore: SoonerDueSignalling {
    /// The channel's name.
    static let dueChannel = "chime_due"

    /// Sends the notification within `session`'s transaction: PostgreSQL delivers it when
    /// the transaction commits, once however many times it was sent in it, and never if
    /// it rolls back.
    static func notifyDue(_ session: Session) async throws {
        try await session.execute("SELECT pg_notify(\(dueChannel), '')")
    }

    /// Calls `handler` each time another process (or this one) makes something due sooner,
    /// from a connection of the pool kept listening for the store's lifetime (connected
    /// again a second after it is lost). The handler runs on PostgresNIO's threads: it
    /// must only signal, never call the store.
    public func onSoonerDue(_ handler: @escaping @Sendable () -> Void) {
        let task = Task(executorPreference: StoreExecutor.shared) { [client, logger] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.dueChannel) { notifications in
                            // Whatever happened while nobody listened: look once.
                            handler()
                            for try await _ in notifications { handler() }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.debug("listening for sooner work failed; listening again in a second",
                                 metadata: ["error.type": "\(type(of: error))"])
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listeners.add(task)
    }
}

/// The listening tasks of a store, cancelled with it.
final class Listeners: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var tasks: [Task<Void, Never>] = []

    func add(_ task: Task<Void, Never>) {
        lock.withLock { tasks.append(task) }
    }

    func stop() {
        lock.withLock { tasks }.forEach { $0.cancel() }
    }
}
