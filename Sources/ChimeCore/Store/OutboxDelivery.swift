/// A rendered message for one destination over the network (SMTP or a webhook), queued
/// in the same transaction that records its notification as fired.
public struct QueuedDelivery: Hashable, Sendable {
    public var channel: String
    /// The email address, or the address element's value for a webhook (often empty).
    public var address: String
    /// The RFC 5322 message or the HTTP body, exactly as it is sent, every time.
    public var body: [UInt8]

    public init(channel: String, address: String, body: [UInt8]) {
        self.channel = channel
        self.address = address
        self.body = body
    }
}

/// Where a delivery stands.
public enum DeliveryState: String, Hashable, Sendable, CaseIterable {
    /// Waiting for its first attempt, or for a retry.
    case queued
    /// The server took it (250 after DATA, a 2xx status).
    case delivered
    /// It gave up: a permanent refusal, or retries exhausted. `chime retry` queues it again.
    case failed
}

/// One try at sending a delivery.
public struct DeliveryAttempt: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable {
        case delivered
        /// Worth trying again: 4xx SMTP replies, 5xx HTTP, timeouts, resets.
        case temporary
        /// Trying again will not help: 5xx SMTP replies, other 4xx HTTP.
        case permanent
        /// HTTP 429: the server asked to wait; not counted against the attempts.
        case rateLimited = "rate-limited"
    }

    public var at: Instant
    public var outcome: Outcome
    /// The SMTP reply code or HTTP status; 0 when the server never answered.
    public var code: Int
    public var message: String { didSet { message = message.storable } }

    public init(at: Instant, outcome: Outcome, code: Int, message: String) {
        self.at = at
        self.outcome = outcome
        self.code = code
        self.message = message.storable
    }
}

/// A delivery as the store keeps it: what is sent, where, and how it went.
public struct OutboxDelivery: Hashable, Sendable {
    /// The number `chime failed` shows and `chime retry` takes.
    public var id: Int64
    /// The notification occurrence: the same on every resend. Emails carry it in their
    /// Message-ID; generic webhooks in an `Idempotency-Key` header.
    public var deliveryID: String
    /// The request's identifier and recipient.
    public var identifier: String
    public var recipient: String
    public var channel: String
    /// The address as the configuration writes it: for email, `alice@example.org` or
    /// `Alice <alice@example.org>` (``envelopeAddress`` is the address alone).
    public var address: String
    /// What is sent, when the delivery was claimed to be sent; empty in listings (and
    /// dropped from the store once delivered: it keeps the record, not the bytes).
    public var body: [UInt8]
    public var state: DeliveryState
    /// Attempts counted against the channel's limit (rate-limited answers are not).
    public var attempts: Int
    /// The start of its retry budget: when it was queued, or last retried by hand.
    public var queuedAt: Instant
    public var nextAttempt: Instant
    /// Every attempt, oldest first, when the store was asked for them.
    public var history: [DeliveryAttempt]

    public init(id: Int64, deliveryID: String, identifier: String, recipient: String, channel: String, address: String,
                body: [UInt8], state: DeliveryState, attempts: Int, queuedAt: Instant, nextAttempt: Instant, history: [DeliveryAttempt] = []) {
        self.id = id
        self.deliveryID = deliveryID
        self.identifier = identifier
        self.recipient = recipient
        self.channel = channel
        self.address = address
        self.body = body
        self.state = state
        self.attempts = attempts
        self.queuedAt = queuedAt
        self.nextAttempt = nextAttempt
        self.history = history
    }

    /// The last attempt, when there was one.
    public var lastAttempt: DeliveryAttempt? { history.last }

    /// An email's address alone, as its envelope names it (`RCPT TO`) and its server's
    /// replies name it back: `alice@example.org` for `Alice <alice@example.org>`
    /// (``Mailbox/envelopeAddress(of:)``).
    public var envelopeAddress: String { Mailbox.envelopeAddress(of: address) }
}

/// One attempt at a claimed delivery and where the delivery stands after it, as the
/// store records it.
public struct AttemptRecord: Hashable, Sendable {
    /// The delivery (``OutboxDelivery/id``).
    public var id: Int64
    public var attempt: DeliveryAttempt
    public var state: DeliveryState
    /// When queued again: the next try (nil keeps the one it had).
    public var nextAttempt: Instant?
    /// False for an answer that only asked to wait (a 429).
    public var countsAsAttempt: Bool
    /// Kept claimed, to be tried again within this run.
    public var keepClaim: Bool

    public init(id: Int64, attempt: DeliveryAttempt, state: DeliveryState, nextAttempt: Instant?, countsAsAttempt: Bool, keepClaim: Bool) {
        self.id = id
        self.attempt = attempt
        self.state = state
        self.nextAttempt = nextAttempt
        self.countsAsAttempt = countsAsAttempt
        self.keepClaim = keepClaim
    }
}

extension Array where Element == OutboxDelivery {
    /// Adds attempts to the histories of their deliveries, in the order given (one of
    /// another delivery is passed over).
    public mutating func attach(_ attempts: [(outboxID: Int64, attempt: DeliveryAttempt)]) {
        var positions: [Int64: Int] = [:]
        for (position, delivery) in enumerated() { positions[delivery.id] = position }
        for (outboxID, attempt) in attempts {
            if let position = positions[outboxID] { self[position].history.append(attempt) }
        }
    }
}
