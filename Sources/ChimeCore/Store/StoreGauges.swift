/// What the store holds now, as an operator watches it (`GET /metrics` reads it at each
/// scrape): counts and ages, never a name or an address.
public struct StoreGauges: Hashable, Sendable {
    /// Requests scheduled and not yet fired.
    public var pending = 0
    /// Pending requests already due: more than a few for long means nothing is firing.
    public var overdue = 0
    /// Deliveries over the network waiting to be sent, or retried.
    public var outboxQueued = 0
    /// Deliveries that gave up (`chime failed`), the dead letters.
    public var outboxFailed = 0
    /// When the oldest queued delivery was queued; nil when none is.
    public var oldestQueued: Instant?
    /// When the most overdue pending request was due; nil when none is.
    public var oldestOverdue: Instant?

    public init() {}
}
