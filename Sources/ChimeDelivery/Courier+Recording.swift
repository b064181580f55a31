import ChimeCore

extension Courier {
    /// Records an attempt and what follows from it at once; returns true when the delivery
    /// should be tried again within this run (a short wait asked by a 429).
    func settle(_ entry: OutboxDelivery, _ verdict: Verdict, policy: DeliveryPolicy) throws -> Bool {
        guard let claimer else { return false }
        let (record, again) = settlement(entry, verdict, policy: policy)
        try store.record([record], claimer: claimer)
        return again
    }

    /// What an attempt's verdict means for its delivery: the record to write (delivered,
    /// queued for a retry with backoff, or failed) and whether to try again within this
    /// run. Counts it in the report and the metrics, and logs it.
    func settlement(_ entry: OutboxDelivery, _ verdict: Verdict, policy: DeliveryPolicy) -> (record: AttemptRecord, again: Bool) {
        let settled = decision(entry, verdict, policy: policy)
        observe(entry, verdict, settled.record)
        return settled
    }

    /// What an attempt's verdict means for its delivery, counted in the report.
    private func decision(_ entry: OutboxDelivery, _ verdict: Verdict, policy: DeliveryPolicy) -> (record: AttemptRecord, again: Bool) {
        let at = now + Int64(Self.seconds(.now - started))
        let message = configuration.redact(verdict.message)
        let attempt = DeliveryAttempt(at: at, outcome: verdict.outcome, code: verdict.code, message: message)
        // How a delivery is named where it did not go through.
        var label: String {
            "\(entry.identifier) to \(entry.address.isEmpty ? entry.channel : "\(entry.address) via \(entry.channel)") (delivery \(entry.id))"
        }
        let age = at.seconds - entry.queuedAt.seconds
        func record(_ state: DeliveryState, next: Instant? = nil, counts: Bool = true, keepClaim: Bool = false) -> AttemptRecord {
            AttemptRecord(id: entry.id, attempt: attempt, state: state, nextAttempt: next, countsAsAttempt: counts, keepClaim: keepClaim)
        }
        func retry(after seconds: Int64, counts: Bool) -> AttemptRecord {
            let next = at + max(1, seconds)
            report.retrying.append("\(label): \(message); next try after \(next.rfc3339(offset: 0))")
            return record(.queued, next: next, counts: counts)
        }
        func fail(_ why: String) -> AttemptRecord {
            report.failed.append("\(label): \(message)\(why)")
            return record(.failed, counts: verdict.outcome != .rateLimited)
        }
        switch verdict.outcome {
        case .delivered:
            report.delivered += 1
            return (record(.delivered), false)
        case .rateLimited:
            let wait = verdict.wait ?? Double(policy.backoff(afterAttempt: max(1, entry.attempts), using: &random))
            if age + Int64(wait.rounded(.up)) >= policy.maxAge {
                return (fail("; gave up: still rate-limited \(Self.duration(age)) after it was queued"), false)
            } else if wait <= policy.maxWait {
                return (record(.queued, counts: false, keepClaim: true), true)
            } else {
                return (retry(after: Int64(wait.rounded(.up)), counts: false), false)
            }
        case .temporary:
            let attempts = entry.attempts + 1
            if attempts >= policy.maxAttempts {
                return (fail("; gave up after \(attempts) attempt\(attempts == 1 ? "" : "s")"), false)
            } else if age >= policy.maxAge {
                return (fail("; gave up \(Self.duration(age)) after it was queued"), false)
            } else {
                return (retry(after: policy.backoff(afterAttempt: attempts, using: &random), counts: true), false)
            }
        case .permanent:
            return (fail(""), false)
        }
    }

    /// `90 s`, `12 min`, `5 h`.
    private static func duration(_ seconds: Int64) -> String {
        seconds < 120 ? "\(seconds) s" : seconds < 7_200 ? "\(seconds / 60) min" : "\(seconds / 3_600) h"
    }
}
