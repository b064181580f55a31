import Foundation

/// Work started on a thread of its own (not Dispatch's shared pool, which blocking store
/// calls would starve), and the result the thread that started it waits for: the
/// courier sending beside the firing loop, the next claim taken while a batch is fired.
public final class OnItsOwnThread<Value>: @unchecked Sendable { // `result` under `condition`
    private let condition = NSCondition()
    private var result: Result<Value, any Error>?

    /// Starts `work` at once on a new thread with an 8 MiB stack.
    public init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let outcome = Result { try work() }
            condition.lock()
            result = outcome
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the work to end; returns what it returned, or throws what it threw.
    public func wait() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}
