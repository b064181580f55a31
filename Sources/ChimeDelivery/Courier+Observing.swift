import ChimeCore
import Logging
import Metrics

extension Courier {
    /// Counts an attempt (`chime_deliveries_total{kind, outcome}`) and tells its end in the
    /// log at info: delivered, to be retried, or given up. The labels are the channel's
    /// kind and the outcome, never an address or an identifier; the log line names the
    /// delivery by its request, recipient, channel and ids, never by its address.
    /// - Parameter record: what the attempt left the delivery in, with the server's answer
    ///   redacted.
    func observe(_ entry: OutboxDelivery, _ verdict: Verdict, _ record: AttemptRecord) {
        let (state, next, message) = (record.state, record.nextAttempt, record.attempt.message)
        let kind = configuration.channel(entry.channel)?.url.kind.rawValue ?? "unknown"
        Counter(label: Self.deliveriesMetric, dimensions: [("kind", kind), ("outcome", Self.label(verdict.outcome))]).increment()
        if state == .delivered, entry.queuedAt.seconds > 0 {
            // From queuing (the firing) to the server's taking it.
            Timer(label: Self.sendDelayMetric, dimensions: [("kind", kind)], preferredDisplayUnit: .seconds)
                .recordSeconds(max(0, Double(now.seconds - entry.queuedAt.seconds) + Self.seconds(.now - started)))
        }
        // The line's fields are worth making only when it is written.
        // Given up is said at ``gaveUpLevel`` (error in the daemon), the others at info.
        guard logger.logLevel <= (state == .failed ? gaveUpLevel : .info) else { return }
        var metadata: Logger.Metadata = [
            "notification.id": .string(entry.identifier), "recipient.id": .string(entry.recipient), "channel.id": .string(entry.channel),
            "delivery.id": .string(entry.deliveryID), "outbox.id": .stringConvertible(entry.id),
            "outcome": .string(Self.label(verdict.outcome)), "code": .stringConvertible(verdict.code),
        ]
        switch state {
        case .delivered:
            logger.info("delivered", metadata: metadata)
        case .failed:
            metadata["reason"] = .string(message)
            logger.log(level: gaveUpLevel, "delivery failed, gave up", metadata: metadata)
        case .queued:
            metadata["reason"] = .string(message)
            if let next { metadata["next.attempt"] = .string(next.rfc3339(offset: 0)) }
            logger.info("delivery to retry", metadata: metadata)
        }
    }

    /// `chime_deliveries_total`: attempts by channel kind and outcome.
    public static let deliveriesMetric = "chime_deliveries_total"
    /// `chime_send_delay_seconds`: from a delivery's queuing to the server's taking it.
    public static let sendDelayMetric = "chime_send_delay_seconds"

    /// An outcome as a Prometheus label value (`rate_limited`).
    public static func label(_ outcome: DeliveryAttempt.Outcome) -> String {
        switch outcome {
        case .delivered: "delivered"
        case .temporary: "temporary"
        case .permanent: "permanent"
        case .rateLimited: "rate_limited"
        }
    }
}
