/// How far marks may lag behind deliveries: the README's bound on what a crash sends again.
public enum DeliveryMarks {
    /// Deliveries made and not marked (with, for the courier, those in flight) are never
    /// more than this.
    public static let backlog = 64
    /// No mark waits longer than this for others to be written with it (looked at each
    /// time another delivery ends).
    public static let delayMilliseconds = 20
}

/// Marks of deliveries made and not written yet, to be written together in one
/// transaction: one transaction per mark was most of the cost of a delivery into a
/// Maildir or a `file:` (a round trip each on PostgreSQL), and of an email.
public struct MarkBacklog<Mark> {
    private var marks: [Mark] = []
    private var oldest: ContinuousClock.Instant?
    private var urgent = false

    public init() {}

    public var isEmpty: Bool { marks.isEmpty }
    public var count: Int { marks.count }

    /// Whether to write them now: one was asked to go at once, the backlog is full, or the
    /// oldest has waited long enough.
    public var due: Bool {
        urgent || marks.count >= DeliveryMarks.backlog
            || oldest.map { ContinuousClock.now - $0 >= .milliseconds(DeliveryMarks.delayMilliseconds) } ?? false
    }

    /// Adds a mark; `now` asks for it to be written before anything more starts.
    public mutating func add(_ mark: Mark, now: Bool = false) {
        if marks.isEmpty { oldest = .now }
        marks.append(mark)
        urgent = urgent || now
    }

    /// Hands every mark to `write` (one transaction), followed by `others` written in the
    /// same transaction but not kept, and empties the backlog once it is written; when
    /// `write` throws, the backlog's marks stay for the next flush (a failed transaction
    /// wrote none of them), so that a caller giving up still writes them.
    public mutating func flush(alongside others: [Mark] = [], _ write: ([Mark]) throws -> Void) rethrows {
        guard !marks.isEmpty || !others.isEmpty else { return }
        // Handed over as they are when there is nothing to join (marks of emails only
        // queued): joining copies every mark, a generic copy here.
        try write(marks.isEmpty ? others : others.isEmpty ? marks : marks + others)
        marks = []
        oldest = nil
        urgent = false
    }
}
