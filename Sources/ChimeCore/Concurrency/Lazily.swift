import Foundation

/// A value made when it is first asked for, once: the first thread to ask makes it, the
/// others wait for it, and every later reading shares it. For what only some runs need
/// and costs a noticeable part of a short process (a one-message `chime ingest`) to make.
public final class Lazily<Value>: @unchecked Sendable { // `make` and `made` under `lock`
    private let lock = NSLock()
    private var make: (() -> Value)?
    private var made: Value?

    public init(_ make: @escaping () -> Value) {
        self.make = make
    }

    public var value: Value {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let value = make!()
        made = value
        make = nil
        return value
    }
}
