import Foundation

/// Lets a courier send beside the loop that fires and queues: the courier takes up what
/// is queued as it comes, and stops once the firing is over and the outbox is drained.
public final class FiringProgress: @unchecked Sendable { // every field under `condition`
    private let condition = NSCondition()
    private var finished = false

    public init() {}

    /// The firing loop has queued everything it will.
    public func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Waits a moment for more to be queued, or for the end.
    func pause() {
        condition.lock()
        if !finished { _ = condition.wait(until: Date().addingTimeInterval(0.005)) }
        condition.unlock()
    }
}
