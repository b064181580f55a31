import ChimeCore

extension Scheduler {
    /// When a daemon should fire next: the earliest instant after `now` at which a pending
    /// notification falls due or its quiet-hours hold ends, a queued delivery is to be
    /// retried, or a thread's group wait is over; nil when nothing waits.
    /// - Throws: what the store throws.
    public func nextWakeUp(after now: Instant) throws -> Instant? {
        var next = try store.earliestDue(after: now)
        for group in try store.waitingGroups() {
            guard let recipient = configuration.recipient(group.recipient) else { continue }
            let over = Instant(seconds: group.first.seconds + recipient.groupWait)
            if over > now, next.map({ over < $0 }) ?? true { next = over }
        }
        return next
    }
}
