/// The JSON of one delivery over SMTP or a webhook.
public struct DeliveryJSON: Encodable, Sendable {
    public struct Attempt: Encodable, Sendable {
        public var at: Instant
        /// delivered, temporary, permanent or rate-limited.
        public var outcome: String
        /// The SMTP reply code or HTTP status; 0 when the server never answered.
        public var code: Int
        public var message: String
    }

    /// What `chime retry` takes.
    public var id: Int64
    public var identifier: String
    public var recipient: String
    public var channel: String
    public var address: String
    public var deliveryID: String
    /// queued, delivered or failed.
    public var state: String
    /// Attempts counted against the channel's maxAttempts.
    public var attempts: Int
    public var queuedAt: Instant
    /// For a queued delivery: when it is next tried.
    public var nextAttempt: Instant?
    public var history: [Attempt]

    public init(_ delivery: OutboxDelivery) {
        id = delivery.id
        identifier = delivery.identifier
        recipient = delivery.recipient
        channel = delivery.channel
        address = delivery.address
        deliveryID = delivery.deliveryID
        state = delivery.state.rawValue
        attempts = delivery.attempts
        queuedAt = delivery.queuedAt
        nextAttempt = delivery.state == .queued ? delivery.nextAttempt : nil
        history = delivery.history.map { Attempt(at: $0.at, outcome: $0.outcome.rawValue, code: $0.code, message: $0.message) }
    }
}

