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

extension DeliveryState {
    /// What selects the outbox rows of a listing in `state` (every row when nil), as both
    /// stores read it by id. Queued and failed rows, a backlog and dead letters, by
    /// `outbox_due`, whose state comes first, then sorted by id (a parameter for the
    /// state, or one that may be NULL, let no index serve: a page of failed deliveries read
    /// the outbox from its cursor on, 0.15 s past a million delivered); delivered ones,
    /// most of the outbox, by the primary key, the state written so that no index of it is
    /// chosen (which would sort every delivery for a page).
    public static func listingCondition(_ state: DeliveryState?) -> String {
        switch state {
        case nil: "TRUE"
        case .failed?: "state = 'failed'"
        case .queued?: "state = 'queued'"
        case .delivered?: "state || '' = 'delivered'"
        }
    }
}
