import Foundation
import ServiceLifecycle

/// Actions answered at once and carried out after (a chat button's hooks may take their
/// whole timeout), each on a thread of its own and counted here; as a service of
/// `chime serve`, it waits on graceful shutdown until every one started has finished,
/// so stopping never drops one half done. Put it first in the service group: the group
/// stops its services last to first, so the HTTP server has stopped taking presses by
/// the time it waits.
public struct ActionsInFlight: Service {
    private static let running = DispatchGroup()

    public init() {}

    /// Carries `work` out on a thread of its own, counted until it returns. A thread it
    /// starts, not Dispatch's global queue: that queue runs as many blocks at once as
    /// there are cores, and every store call of the HTTP routes
    /// (``ChimeHTTPServer/blocking(_:)``) goes through it, so a few hooks sleeping
    /// through their timeouts on it held every other press and `/health` behind them.
    static func start(_ work: @escaping @Sendable () -> Void) {
        running.enter()
        let thread = Thread {
            work()
            running.leave()
        }
        thread.name = "chime-action"
        thread.start()
    }

    /// Carries `work` out as ``start(_:)`` does, and waits for what it gives, off Swift's
    /// shared threads: a link's page says how carrying out went.
    static func carryOut<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: work()) }
        }
    }

    /// Waits, off Swift's shared threads and Dispatch's, until every action started has
    /// been carried out.
    public static func finish() async {
        await withCheckedContinuation { continuation in
            Thread {
                running.wait()
                continuation.resume()
            }.start()
        }
    }

    public func run() async throws {
        // Cancelled rather than shut down gracefully (a failing group): nothing to wait for.
        try? await gracefulShutdown()
        await Self.finish()
    }
}
