/// How a channel sends: timeouts, how many transfers at once, how fast, and how long it
/// keeps trying. Every value has a default per kind; `chime.xml` overrides them per channel.
public struct DeliveryPolicy: Hashable, Sendable {
    /// Seconds to wait for a connection (TCP and TLS).
    public var connectTimeout: Double
    /// Seconds one transfer may take in all.
    public var timeout: Double
    /// Transfers in flight at once on this channel: webhook requests, or SMTP messages
    /// (one connection each, reused from one message to the next).
    public var concurrency: Int
    /// At most this many requests per second; nil: no limit of Chime's own.
    public var rate: Double?
    /// Attempts before a delivery that keeps failing for a temporary reason gives up.
    public var maxAttempts: Int
    /// Seconds after its first attempt that a delivery gives up, whatever its attempts.
    public var maxAge: Int64
    /// The backoff before the second attempt; it doubles per attempt, up to `maxBackoff`,
    /// and the wait is drawn at random below it (full jitter).
    public var backoff: Int64
    public var maxBackoff: Int64
    /// A `Retry-After` up to this many seconds is waited out within the run; a longer one
    /// leaves the delivery for a later run.
    public var maxWait: Double

    public init(connectTimeout: Double = 10, timeout: Double = 60, concurrency: Int = 8, rate: Double? = nil,
                maxAttempts: Int = 8, maxAge: Int64 = 86_400, backoff: Int64 = 30, maxBackoff: Int64 = 3_600, maxWait: Double = 10) {
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.concurrency = concurrency
        self.rate = rate
        self.maxAttempts = maxAttempts
        self.maxAge = maxAge
        self.backoff = backoff
        self.maxBackoff = maxBackoff
        self.maxWait = maxWait
    }

    /// The defaults of a kind, keeping under each platform's published limits:
    /// Slack one message per second per webhook; Discord five requests per two seconds
    /// per webhook; Teams four requests per second; Telegram one message per second per
    /// chat. Mattermost and generic webhooks have no published limit.
    public static func defaults(for kind: ChannelKind) -> DeliveryPolicy {
        var policy = DeliveryPolicy()
        switch kind {
        case .slack: policy.rate = 1
        case .discord: policy.rate = 2.5
        case .msteams: policy.rate = 4
        case .telegram: policy.rate = 1
        case .smtp, .smtps: policy.concurrency = 4
        default: break
        }
        return policy
    }

    /// The longest wait before attempt number `attempt + 1`, after `attempt` failures:
    /// `backoff · 2^(attempt−1)`, capped at `maxBackoff`.
    public func backoffCeiling(afterAttempt attempt: Int) -> Int64 {
        guard attempt > 0 else { return 0 }
        let doublings = min(attempt - 1, 40)
        let (value, overflow) = backoff.multipliedReportingOverflow(by: Int64(1) << Int64(doublings))
        return overflow ? maxBackoff : min(value, maxBackoff)
    }

    /// The wait after `attempt` failures, drawn uniformly in `0...ceiling` (full jitter:
    /// senders that failed together do not come back together).
    public func backoff<G: RandomNumberGenerator>(afterAttempt attempt: Int, using generator: inout G) -> Int64 {
        let ceiling = backoffCeiling(afterAttempt: attempt)
        return ceiling > 0 ? Int64.random(in: 0...ceiling, using: &generator) : 0
    }
}
