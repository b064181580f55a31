import ChimeCore

extension Courier {
    /// Records an attempt and what follows from it; returns true when the delivery should
    /// be tried again within this run (a short wait asked by a 429).
    func settle(_ entry: OutboxDelivery, _ verdict: Verdict, policy: DeliveryPolicy) throws -> Bool {
        guard let claimer else { return false }
        let at = now + Int64(Self.seconds(.now - started))
        let message = configuration.redact(verdict.message)
        let attempt = DeliveryAttempt(at: at, outcome: verdict.outcome, code: verdict.code, message: message)
        // How a delivery is named where it did not go through.
        var label: String {
            "\(entry.identifier) to \(entry.address.isEmpty ? entry.channel : "\(entry.address) via \(entry.channel)") (delivery \(entry.id))"
        }
        let age = at.seconds - entry.queuedAt.seconds
        func retry(after seconds: Int64, counts: Bool) throws {
            let next = at + max(1, seconds)
            try store.record(attempt, for: entry.id, claimer: claimer, state: .queued, nextAttempt: next, countsAsAttempt: counts, keepClaim: false)
            report.retrying.append("\(label): \(message); next try after \(next.rfc3339(offset: 0))")
        }
        func fail(_ why: String) throws {
            try store.record(attempt, for: entry.id, claimer: claimer, state: .failed, nextAttempt: nil, countsAsAttempt: verdict.outcome != .rateLimited, keepClaim: false)
            report.failed.append("\(label): \(message)\(why)")
        }
        switch verdict.outcome {
        case .delivered:
            try store.record(attempt, for: entry.id, claimer: claimer, state: .delivered, nextAttempt: nil, countsAsAttempt: true, keepClaim: false)
            report.delivered += 1
        case .rateLimited:
            let wait = verdict.wait ?? Double(policy.backoff(afterAttempt: max(1, entry.attempts), using: &random))
            if age + Int64(wait.rounded(.up)) >= policy.maxAge {
                try fail("; gave up: still rate-limited \(Self.duration(age)) after it was queued")
            } else if wait <= policy.maxWait {
                try store.record(attempt, for: entry.id, claimer: claimer, state: .queued, nextAttempt: nil, countsAsAttempt: false, keepClaim: true)
                return true
            } else {
                try retry(after: Int64(wait.rounded(.up)), counts: false)
            }
        case .temporary:
            let attempts = entry.attempts + 1
            if attempts >= policy.maxAttempts {
                try fail("; gave up after \(attempts) attempt\(attempts == 1 ? "" : "s")")
            } else if age >= policy.maxAge {
                try fail("; gave up \(Self.duration(age)) after it was queued")
            } else {
                try retry(after: policy.backoff(afterAttempt: attempts, using: &random), counts: true)
            }
        case .permanent:
            try fail("")
        }
        return false
    }

    /// `90 s`, `12 min`, `5 h`.
    private static func duration(_ seconds: Int64) -> String {
        seconds < 120 ? "\(seconds) s" : seconds < 7_200 ? "\(seconds / 60) min" : "\(seconds / 3_600) h"
    }
}
