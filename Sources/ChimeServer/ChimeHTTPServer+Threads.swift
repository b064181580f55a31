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
    /// Those waiting for the read under way (none: no read under way).
    private let waiting = Mutex<[FirstResult<T>]>([])

    /// The result of the read under way, or of `work` started now on a thread of
    /// ``ChimeHTTPServer/blocking(_:)``'s; ``NoAnswer`` once `seconds` have passed, the
    /// read going on to its end (a store call cannot be stopped midway; one to a
    /// PostgreSQL server that is down waits up to 120 s). The result is handed over by the
    /// thread that read it, and the time out counted on Swift's own threads, which
    /// sleeping holds none of: neither waits for the other's threads, which other work may
    /// hold (calls to a store that does not answer, a busy process).
    func result(within seconds: Double, _ work: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        let value: T
        do {
            value = try await withCheckedThrowingContinuation { continuation in
                let first = FirstResult(continuation)
                let starts = waiting.withLock { waiting in
                    waiting.append(first)
                    return waiting.count == 1
                }
                if starts {
                    DispatchQueue.global().async { [self] in
                        let result = Result { try work() }
                        for waiter in waiting.withLock({ waiting in defer { waiting = [] }; return waiting }) { waiter.give(result) }
                    }
                }
                Task {
                    try? await Task.sleep(for: .seconds(seconds))
                    first.give(.failure(NoAnswer(seconds: seconds)))
                }
            }
        } catch {
            return .failure(error)
        }
        return .success(value)
    }

    /// A read that ``result(within:_:)`` stopped waiting for.
    struct NoAnswer: Error, CustomStringConvertible {
        var seconds: Double
        var description: String { "no answer within \(seconds.formatted(.number)) s" }
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
