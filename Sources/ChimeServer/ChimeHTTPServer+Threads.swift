import Foundation
import Synchronization

extension ChimeHTTPServer {
    /// Runs blocking work (a store call) off the server's event loops and Swift's shared
    /// threads: every route that reads or writes the store goes through it.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The result of `task`, or ``NoAnswer`` once `seconds` have passed: the task goes on
    /// to its end (a store call cannot be stopped midway; one to a PostgreSQL server that
    /// is down waits up to 120 s), its result dropped.
    static func waiting<T: Sendable>(for task: Task<T, any Error>, within seconds: Double) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let first = FirstResult(continuation)
            Task { first.give(await task.result) }
            // Timed on Swift's own threads, which sleeping holds none of: the global
            // queue's may all be taken by store calls waiting for the same server.
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                first.give(.failure(NoAnswer(seconds: seconds)))
            }
        }
    }

    /// Work that ``waiting(for:within:)`` stopped waiting for.
    struct NoAnswer: Error, CustomStringConvertible {
        var seconds: Double
        var description: String { "no answer within \(seconds.formatted(.number)) s" }
    }

    /// Runs a request to another server (which may take its whole timeout) on a thread of
    /// its own, so that it holds none of the threads ``blocking(_:)`` shares out.
    static func waitingOnNetwork<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}

/// A store read that the requests arriving while it is under way share, rather than each
/// starting its own (`/health`, `/metrics`, which probes ask often): while the store does
/// not answer, the probes given up on it hold one thread between them, not one each.
final class SharedRead<T: Sendable>: Sendable {
    private let underWay = Mutex<Task<T, any Error>?>(nil)

    /// The result of the read under way, or of `work` started now on a thread of
    /// ``ChimeHTTPServer/blocking(_:)``'s; ``ChimeHTTPServer/NoAnswer`` after `seconds`.
    func value(within seconds: Double, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let task = underWay.withLock { current in
            if let current { return current }
            let started = Task { try await ChimeHTTPServer.blocking(work) }
            current = started
            // Over: the next request starts a read of its own.
            Task { [self] in
                _ = await started.result
                underWay.withLock { $0 = nil }
            }
            return started
        }
        return try await ChimeHTTPServer.waiting(for: task, within: seconds)
    }
}

/// A continuation resumed with the first result given; the later ones are dropped.
private final class FirstResult<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    func give(_ result: Result<T, any Error>) {
        continuation.withLock { waiting in defer { waiting = nil }; return waiting }?.resume(with: result)
    }
}
