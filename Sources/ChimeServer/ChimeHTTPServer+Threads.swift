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

    /// ``blocking(_:)`` that gives up waiting after `seconds`, throwing ``NoAnswer``: the
    /// work goes on to its end on its thread (a store call cannot be stopped midway; one
    /// to a PostgreSQL server that is down waits up to 120 s), its result dropped.
    static func blocking<T: Sendable>(within seconds: Double, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let first = FirstResult(continuation)
            DispatchQueue.global().async { first.give(Result { try work() }) }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { first.give(.failure(NoAnswer(seconds: seconds))) }
        }
    }

    /// Work that ``blocking(within:_:)`` stopped waiting for.
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

/// A continuation resumed with the first result given; the later ones are dropped.
private final class FirstResult<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    func give(_ result: Result<T, any Error>) {
        continuation.withLock { waiting in defer { waiting = nil }; return waiting }?.resume(with: result)
    }
}
