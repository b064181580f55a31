import ChimeCore
import ChimeCurl
import Foundation

/// Sends what the outbox holds: claims due deliveries, sends them (SMTP one at a time over
/// one connection per channel; webhooks many at once through libcurl's multi interface,
/// within each channel's concurrency and rate), and records every attempt the moment it
/// ends: delivered only once the server took it, else queued for a retry with backoff, or
/// failed.
public final class Courier {
    /// What one pass over the outbox did.
    public struct Report: Sendable {
        public var delivered = 0
        /// Deliveries that failed for now, each with why and when it is tried again.
        public var retrying: [String] = []
        /// Deliveries that gave up, each with why.
        public var failed: [String] = []
        /// Deliveries left untried because their channel could not be reached this run.
        public var deferred = 0

        public init() {}
    }

    public let configuration: Configuration
    public let store: any NotificationStore
    /// How long a claim holds before another process may take a delivery up.
    public var lease: Int64 = 600
    /// How many deliveries one claim takes.
    public var batchSize = 500

    private var random = SystemRandomNumberGenerator()
    private let started = ContinuousClock.now
    private var now = Instant(seconds: 0)
    private var claimer: Claimer?
    private var report = Report()
    /// Channels that could not be connected to: their other deliveries wait for a later run.
    private var unreachable: Set<String> = []

    public init(configuration: Configuration, store: any NotificationStore) {
        self.configuration = configuration
        self.store = store
    }

    /// Starts ``deliver(now:claimer:clock:alongside:)`` on a thread of its own, so that
    /// sending (mostly waiting for servers) overlaps the firing loop's rendering and
    /// queuing; returns the function that waits for its report.
    public func deliverInBackground(now: Instant, claimer: Claimer, clock: @escaping @Sendable () -> Instant,
                                    alongside progress: FiringProgress) -> () throws -> Report {
        let outcome = Outcome<Report>()
        nonisolated(unsafe) let courier = self
        let thread = Thread {
            outcome.set(Result { try courier.deliver(now: now, claimer: claimer, clock: clock, alongside: progress) })
        }
        thread.stackSize = 8 << 20
        thread.start()
        return { try outcome.wait() }
    }

    /// Sends every delivery due at `now`.
    /// - Parameters:
    ///   - now: the run's instant (`--now`, else the clock): retries due by then are sent.
    ///   - clock: the real time, for claims' leases.
    ///   - progress: the firing loop queuing beside it: keep taking up what it queues
    ///     until it is finished; nil when nothing is being fired.
    public func deliver(now: Instant, claimer: Claimer, clock: () -> Instant, alongside progress: FiringProgress? = nil) throws -> Report {
        self.now = now
        self.claimer = claimer
        report = Report()
        unreachable = []
        // What is left claimed (channels not reached) goes back for the next run.
        defer { _ = try? store.releaseClaims(of: claimer) }
        var pool: HTTPPool?
        var mail: [String: SMTPClient] = [:]
        while true {
            // Read before claiming: what was queued before the end is then claimed.
            let firing = !(progress?.isFinished ?? true)
            let leaseStart = clock()
            let claimed = try store.claimOutbox(now: now, limit: batchSize, claimer: claimer, leaseNow: leaseStart, leaseUntil: leaseStart + lease)
            if claimed.isEmpty {
                guard firing else { break }
                progress?.pause()
                continue
            }
            var webhooks: [OutboxDelivery] = []
            var emails: [(Channel, [OutboxDelivery])] = []
            for entry in claimed {
                guard let channel = configuration.channel(entry.channel), !channel.url.kind.isLocal else {
                    let verdict = Verdict(outcome: .temporary, code: 0, message: "channel \"\(entry.channel)\" is not in the configuration")
                    _ = try settle(entry, verdict, policy: DeliveryPolicy())
                    continue
                }
                if channel.url.kind.isWebhook {
                    webhooks.append(entry)
                } else if let index = emails.firstIndex(where: { $0.0.id == channel.id }) {
                    emails[index].1.append(entry)
                } else {
                    emails.append((channel, [entry]))
                }
            }
            if !webhooks.isEmpty {
                let webhookPool = try pool ?? HTTPPool()
                pool = webhookPool
                try sendWebhooks(webhooks, pool: webhookPool)
            }
            for (channel, entries) in emails {
                try sendMail(entries, channel: channel, client: &mail[channel.id])
            }
            if claimed.count < batchSize && !firing { break }
        }
        return report
    }

    // MARK: Sending

    /// Sends a channel's emails in order over its one connection.
    private func sendMail(_ entries: [OutboxDelivery], channel: Channel, client: inout SMTPClient?) throws {
        var gate: ContinuousClock.Instant?
        for (index, entry) in entries.enumerated() {
            guard !unreachable.contains(channel.id) else {
                report.deferred += entries.count - index
                return
            }
            if let gate, gate > .now { Thread.sleep(forTimeInterval: Self.seconds(gate - .now)) }
            if let rate = channel.policy.rate { gate = .now + .seconds(1 / rate) }
            let verdict: Verdict
            do {
                let smtp = try client ?? SMTPClient(channel.smtpSettings)
                client = smtp
                let sent = try smtp.send(from: channel.envelopeFrom, to: [entry.address], message: entry.body)
                if let refusal = sent.refused.first(where: { $0.recipient == entry.address }) {
                    verdict = Self.verdict(refusal)
                } else {
                    verdict = Verdict(outcome: .delivered, code: Int(sent.reply.prefix(3)) ?? 250, message: sent.reply)
                }
            } catch let failure as SMTPClient.Failure {
                if let refusal = failure.refused.first(where: { $0.recipient == entry.address }) {
                    verdict = Self.verdict(refusal)
                } else {
                    verdict = Verdict(outcome: failure.temporary ? .temporary : .permanent, code: failure.code,
                                      message: failure.message, unreachable: failure.unreachable)
                }
            } catch {
                verdict = Verdict(outcome: .temporary, code: 0, message: "\(error)")
            }
            if verdict.unreachable { unreachable.insert(channel.id) }
            _ = try settle(entry, verdict, policy: channel.policy)
        }
    }

    /// A refused RCPT: 5xx is final for that address, 4xx worth another try.
    private static func verdict(_ refusal: SMTPClient.Refusal) -> Verdict {
        Verdict(outcome: refusal.code >= 500 ? .permanent : .temporary, code: refusal.code, message: refusal.reply)
    }

    /// Sends webhooks many at once: per channel at most its concurrency in flight and no
    /// faster than its rate; over all channels at most the configured concurrency. A 429
    /// pauses its channel for the time asked and puts the delivery back in line when that
    /// is within the channel's `maxWait`.
    private func sendWebhooks(_ entries: [OutboxDelivery], pool: HTTPPool) throws {
        guard !entries.isEmpty else { return }
        var lines: [String: Line] = [:]
        var order: [String] = []
        for entry in entries {
            if lines[entry.channel] == nil {
                order.append(entry.channel)
                lines[entry.channel] = Line(channel: configuration.channel(entry.channel)!)
            }
            lines[entry.channel]!.waiting.append(entry)
        }
        var running: [Int: OutboxDelivery] = [:]
        var nextTag = 0
        while true {
            var soonest: ContinuousClock.Instant?
            var waiting = false
            for id in order {
                guard !unreachable.contains(id) else { continue }
                waiting = waiting || lines[id]!.hasWaiting
                while lines[id]!.hasWaiting, lines[id]!.inFlight < lines[id]!.channel.policy.concurrency,
                      pool.inFlight < configuration.concurrency {
                    if let gate = lines[id]!.notBefore, gate > .now {
                        soonest = min(soonest ?? gate, gate)
                        break
                    }
                    let entry = lines[id]!.next()
                    let channel = lines[id]!.channel
                    do {
                        try pool.start(channel.webhookRequest(body: entry.body, idempotencyKey: entry.idempotencyKey), tag: nextTag)
                    } catch {
                        _ = try settle(entry, Verdict(outcome: .permanent, code: 0, message: "\(error)"), policy: channel.policy)
                        continue
                    }
                    running[nextTag] = entry
                    nextTag += 1
                    lines[id]!.inFlight += 1
                    if let rate = channel.policy.rate { lines[id]!.notBefore = max(lines[id]!.notBefore ?? .now, .now) + .seconds(1 / rate) }
                }
            }
            guard waiting || pool.inFlight > 0 else { break }
            let wait = soonest.map { max(1, Int(Self.seconds($0 - .now) * 1_000)) } ?? 1_000
            if pool.inFlight == 0 {
                Thread.sleep(forTimeInterval: Double(wait) / 1_000)
                continue
            }
            for (tag, response) in pool.collect(waitingUpTo: min(wait, 1_000)) {
                guard let entry = running.removeValue(forKey: tag) else { continue }
                lines[entry.channel]!.inFlight -= 1
                let verdict = Verdict(response)
                if verdict.unreachable { unreachable.insert(entry.channel) }
                if let seconds = verdict.wait {
                    let resume = ContinuousClock.now + .seconds(seconds)
                    lines[entry.channel]!.notBefore = max(lines[entry.channel]!.notBefore ?? resume, resume)
                }
                if try settle(entry, verdict, policy: lines[entry.channel]!.channel.policy) {
                    lines[entry.channel]!.waiting.append(entry)
                }
            }
        }
        report.deferred += order.filter(unreachable.contains).reduce(0) { $0 + lines[$1]!.remaining }
    }

    /// One channel's webhooks waiting to go, and how fast they may.
    private struct Line {
        let channel: Channel
        var waiting: [OutboxDelivery] = []
        var head = 0
        var inFlight = 0
        /// No request starts before this: the rate's spacing, or a pause a server asked for.
        var notBefore: ContinuousClock.Instant?

        var hasWaiting: Bool { head < waiting.count }
        var remaining: Int { waiting.count - head }

        mutating func next() -> OutboxDelivery {
            head += 1
            return waiting[head - 1]
        }
    }

    // MARK: Recording

    /// Records an attempt and what follows from it; returns true when the delivery should
    /// be tried again within this run (a short wait asked by a 429).
    private func settle(_ entry: OutboxDelivery, _ verdict: Verdict, policy: DeliveryPolicy) throws -> Bool {
        guard let claimer else { return false }
        let at = now + Int64(Self.seconds(.now - started))
        let message = configuration.redact(verdict.message)
        let attempt = DeliveryAttempt(at: at, outcome: verdict.outcome, code: verdict.code, message: message)
        let label = "\(entry.identifier) to \(entry.address.isEmpty ? entry.channel : "\(entry.address) via \(entry.channel)") (delivery \(entry.id))"
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

    private static func seconds(_ duration: Swift.Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// `90 s`, `12 min`, `5 h`.
    private static func duration(_ seconds: Int64) -> String {
        seconds < 120 ? "\(seconds) s" : seconds < 7_200 ? "\(seconds / 60) min" : "\(seconds / 3_600) h"
    }
}
