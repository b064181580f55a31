import ChimeCore
import Foundation

/// Writes attempt records on a thread of its own, behind a sender that goes on to its
/// next message meanwhile. Whatever has piled up while a write was under way goes in the
/// next write, as one transaction: a message costs the sender a few round trips, its
/// record a fraction of one transaction, and neither waits for the other.
///
/// At most `backlog` accepted messages are ever waiting to be recorded: a sender that
/// gets that far ahead waits. A crash resends those (each once, with its Message-ID);
/// the README's "Delivery over SMTP and webhooks" states the bound.
final class Recorder: @unchecked Sendable { // every field under `condition`
    static let backlog = 64

    private let condition = NSCondition()
    private var pending: [AttemptRecord] = []
    private var writing = 0
    private var closed = false
    private var exited = false
    private var failure: (any Error)?

    init(store: any OutboxStore, claimer: Claimer) {
        let thread = Thread { [self] in
            while let batch = next() {
                do {
                    try store.record(batch, claimer: claimer)
                    written(nil)
                } catch {
                    written(error)
                }
            }
        }
        thread.start()
    }

    /// Hands a record over; waits while the backlog is full.
    /// - Throws: the error of an earlier write (nothing more is written then).
    func add(_ record: AttemptRecord) throws {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil && pending.count + writing >= Self.backlog { condition.wait() }
        if let failure { throw failure }
        pending.append(record)
        condition.broadcast()
    }

    /// Writes what is left and stops the thread.
    /// - Throws: the error of a write, if one failed.
    func finish() throws {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
        while !exited { condition.wait() }
        if let failure { throw failure }
    }

    /// The next records to write; nil once finished and drained, or after a failure.
    private func next() -> [AttemptRecord]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !closed && failure == nil { condition.wait() }
        guard failure == nil, !pending.isEmpty else {
            exited = true
            condition.broadcast()
            return nil
        }
        let batch = pending
        pending = []
        writing = batch.count
        return batch
    }

    private func written(_ error: (any Error)?) {
        condition.lock()
        writing = 0
        failure = failure ?? error
        condition.broadcast()
        condition.unlock()
    }
}
