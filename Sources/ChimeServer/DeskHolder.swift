import Foundation

/// The ``ClickDesk`` in force, which `chime serve` replaces when it reloads its
/// configuration on SIGHUP; what starts after the replacement uses the new one.
public final class DeskHolder: @unchecked Sendable { // `desk` is read and replaced under `lock`
    private let lock = NSLock()
    private var desk: ClickDesk

    public init(_ desk: ClickDesk) {
        self.desk = desk
    }

    /// The desk in force now.
    public var current: ClickDesk {
        lock.withLock { desk }
    }

    /// Puts `desk` in force for the requests that start from now on.
    public func replace(with desk: ClickDesk) {
        lock.withLock { self.desk = desk }
    }
}
