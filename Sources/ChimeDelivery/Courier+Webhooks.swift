import ChimeCore
import ChimeCurl
import Foundation

extension Courier {
    /// Sends webhooks many at once: per channel at most its concurrency in flight and no
    /// faster than its rate; over all channels at most the configured concurrency. A 429
    /// pauses its channel for the time asked and puts the delivery back in line when that
    /// is within the channel's `maxWait`.
    func sendWebhooks(_ entries: [OutboxDelivery], pool: HTTPPool) throws {
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
                    if let gate = lines[id]!.pace.notBefore, gate > .now {
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
                    lines[id]!.pace.started(rate: channel.policy.rate)
                }
            }
            guard waiting || pool.inFlight > 0 else { break }
            let wait = soonest.map { max(1, Int(Self.seconds($0 - .now) * 1_000)) } ?? 1_000
            if pool.inFlight == 0 {
                Thread.sleep(forTimeInterval: Double(wait) / 1_000)
                continue
            }
            // The answers that came in together are recorded together, in one transaction,
            // before anything more is started.
            var records: [AttemptRecord] = []
            for (tag, response) in pool.collect(waitingUpTo: min(wait, 1_000)) {
                guard let entry = running.removeValue(forKey: tag) else { continue }
                lines[entry.channel]!.inFlight -= 1
                let verdict = Verdict(response)
                if verdict.unreachable { unreachable.insert(entry.channel) }
                if let seconds = verdict.wait { lines[entry.channel]!.pace.pause(seconds) }
                let (record, again) = settlement(entry, verdict, policy: lines[entry.channel]!.channel.policy)
                records.append(record)
                if again { lines[entry.channel]!.waiting.append(entry) }
            }
            if let claimer { try store.record(records, claimer: claimer) }
        }
        report.deferred += order.filter(unreachable.contains).reduce(0) { $0 + lines[$1]!.remaining }
    }

    /// One channel's webhooks waiting to go, and how fast they may.
    private struct Line {
        let channel: Channel
        var waiting: [OutboxDelivery] = []
        var head = 0
        var inFlight = 0
        var pace = Pace()

        var hasWaiting: Bool { head < waiting.count }
        var remaining: Int { waiting.count - head }

        mutating func next() -> OutboxDelivery {
            head += 1
            return waiting[head - 1]
        }
    }
}
