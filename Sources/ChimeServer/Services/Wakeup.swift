import Foundation

/// Wakes a ``RecurringWork`` that waits: once signalled, its wait ends at once and it asks
/// its `sooner` whether something is due before the instant it waited for. A store that
/// hears of sooner work from other processes (PostgreSQL's LISTEN/NOTIFY) signals it; a
/// signal while nothing waits ends the next wait.
public final class Wakeup: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var signalled = false
    private var waiter: CheckedContinuation<Void, Never>?

    public init() {}

    /// Ends the wait in progress, or else the next one.
    public func signal() {
        let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
            if let waiter {
                self.waiter = nil
                return waiter
            }
            signalled = true
            return nil
        }
        waiting?.resume()
    }

    /// Returns after `seconds`, when signalled, or when the task is cancelled, whichever
    /// comes first.
    func wait(upTo seconds: TimeInterval) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
            group.addTask { await self.signalOrCancel() }
            await group.next()
            group.cancelAll()
        }
    }

    private func signalOrCancel() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = lock.withLock {
                    if signalled || Task.isCancelled {
                        signalled = false
                        return true
                    }
                    waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume()
        }
    }
}
