/// Deliveries queued for the network (SMTP, webhooks), their attempts and retries.
public protocol OutboxStore: Sendable {
    /// Claims up to `limit` queued deliveries whose next attempt is due at `now`, that
    /// nobody holds (or whose lease ended before `leaseNow`), oldest first.
    func claimOutbox(now: Instant, limit: Int, claimer: Claimer, leaseNow: Instant, leaseUntil: Instant) throws -> [OutboxDelivery]

    /// Records attempts at claimed deliveries and where each stands now, all in one
    /// transaction. A delivery whose claim is no longer this claimer's is left as it is.
    func record(_ records: [AttemptRecord], claimer: Claimer) throws

    /// Deliveries in a state (all when nil), oldest first, each with its attempts: those
    /// whose id is above `after`, at most `count` of them (nil: all).
    func deliveries(state: DeliveryState?, after: Int64?, count: Int?) throws -> [OutboxDelivery]

    /// Queues failed deliveries again, due at `now` with a fresh retry budget (the
    /// attempts so far stay in their history): those with the given ids, or all when
    /// `ids` is nil. All or none: when some id is not a failed delivery, nothing is
    /// queued and those ids come back in `notFailed`.
    func retry(_ ids: [Int64]?, now: Instant) throws -> (queued: [Int64], notFailed: [Int64])

    /// Queues messages that answer a response (an answer in the thread, a hook's POST)
    /// under their own delivery id, sent by the next run like any delivery.
    func enqueue(_ queued: [QueuedDelivery], deliveryID: String, identifier: String, recipient: String, at: Instant) throws
}

extension OutboxStore {
    /// Every delivery in a state (all when nil), oldest first, each with its attempts.
    public func deliveries(state: DeliveryState?) throws -> [OutboxDelivery] {
        try deliveries(state: state, after: nil, count: nil)
    }
}
