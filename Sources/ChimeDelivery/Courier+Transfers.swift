import ChimeCore
import ChimeCurl
import Foundation

extension Courier {
    /// Sends webhooks and emails many at once through one multi handle: per channel at
    /// most its concurrency in flight and no faster than its rate; over all channels at
    /// most the configured concurrency. An email channel keeps one connection per message
    /// being sent, each reused from one message to the next, and (without a rate) a few
    /// more messages waiting in the pool for the next free one (``Line/window``). A
    /// recipient's emails go one at a time, in the order they were queued. A 429 pauses
    /// its channel for the time asked and puts the delivery back in line when that is
    /// within the channel's `maxWait`.
    ///
    /// A webhook's mark is written as soon as its answer comes (answers that come
    /// together, in one transaction), before anything more starts. Emails' marks wait to
    /// be written together, for ``DeliveryMarks/delayMilliseconds`` at most, and never more than
    /// ``DeliveryMarks/backlog`` with the messages in flight: what a crash can resend.
    func send(_ entries: [OutboxDelivery], pool: HTTPPool) throws {
        guard !entries.isEmpty else { return }
        var lines: [String: Line] = [:]
        var order: [Line] = []
        for entry in entries {
            let line = lines[entry.channel] ?? {
                let line = Line(channel: configuration.channel(entry.channel)!)
                lines[entry.channel] = line
                order.append(line)
                return line
            }()
            line.waiting.append(entry)
        }
        var running: [Int: (entry: OutboxDelivery, line: Line)] = [:]
        var nextTag = 0
        var marks = MarkBacklog<AttemptRecord>()
        /// Writes the marks waiting, in one transaction.
        func writeMarks() throws {
            guard let claimer else { return }
            try marks.flush { try store.record($0, claimer: claimer) }
        }
        defer { try? writeMarks() }
        while true {
            var soonest: ContinuousClock.Instant?
            var waiting = false
            // Told to stop: nothing more starts, the emails waiting in the pool for a
            // connection go back in line, and what is in flight finishes.
            let startsMore = goesOn()
            if !startsMore {
                for tag in pool.withdrawWaitingMail() {
                    guard let (entry, line) = running.removeValue(forKey: tag) else { continue }
                    line.inFlight -= 1
                    line.waiting.done(entry, again: true)
                }
            }
            for line in order where startsMore {
                guard !unreachable.contains(line.channel.id), !line.waitsPastRun else { continue }
                while line.waiting.hasReady, line.inFlight < line.window, pool.inFlight - queuedAhead(order) < configuration.concurrency {
                    if let gate = line.pace.notBefore, gate > .now {
                        soonest = min(soonest ?? gate, gate)
                        break
                    }
                    // A channel with a rate starts when the pace shared by every process
                    // says; one that has no start for it within maxWait leaves the rest
                    // for a later run.
                    if line.pace.heldStart == nil, let (start, taken, wait) = try sharedStart(for: line) {
                        guard taken else {
                            line.waitsPastRun = true
                            line.waitsForPace = true
                            break
                        }
                        line.pace.given(start, in: wait)
                        if wait > 0 { continue }
                    }
                    // What a crash would resend: the marks not written, and what is in flight.
                    if marks.count + pool.inFlight >= DeliveryMarks.backlog { try writeMarks() }
                    let entry = line.waiting.next()!
                    do {
                        try start(entry, on: line, pool: pool, tag: nextTag)
                    } catch {
                        line.waiting.done(entry, again: false)
                        marks.add(settlement(entry, Verdict(outcome: .permanent, code: 0, message: "\(error)"), policy: line.channel.policy).record, now: true)
                        continue
                    }
                    running[nextTag] = (entry, line)
                    nextTag += 1
                    line.inFlight += 1
                    try catchUpSharedPace(line)
                    line.pace.started(rate: line.channel.policy.rate)
                }
                waiting = waiting || (!line.waitsPastRun && line.waiting.hasReady)
            }
            guard waiting || pool.inFlight > 0 else { break }
            let wait = soonest.map { max(1, Int(Self.seconds($0 - .now) * 1_000)) } ?? 1_000
            if pool.inFlight == 0 {
                try writeMarks()
                // A second at most: `keepsSending` is asked again after it (a paced line's
                // next start may be maxWait away).
                Thread.sleep(forTimeInterval: Double(min(wait, 1_000)) / 1_000)
                continue
            }
            for (tag, completion) in pool.collectCompletions(waitingUpTo: min(wait, marks.isEmpty ? 1_000 : DeliveryMarks.delayMilliseconds)) {
                guard let (entry, line) = running.removeValue(forKey: tag) else { continue }
                line.inFlight -= 1
                let verdict: Verdict
                switch completion {
                case .http(let response): verdict = Verdict(response)
                case .mail(let result): verdict = Verdict(result, address: entry.envelopeAddress)
                case .mailNotTried:
                    // Its server was found unreachable (maybe by another channel's email):
                    // it waits for a later run, unmarked, with the rest of its channel.
                    unreachable.insert(entry.channel)
                    line.waiting.done(entry, again: true)
                    continue
                }
                if verdict.unreachable { unreachable.insert(entry.channel) }
                // A server asking to wait longer than the channel's maxWait has the rest of
                // the channel wait for a later run, rather than hold this one that long; so
                // does one asking again and again: a channel waits out at most maxWait in a
                // run, over all its 429s (each counted as a second at least), where a server
                // answering 429 with `Retry-After: 1` to every try kept the run going until
                // maxAge, a day.
                // (A drained bucket's wait comes with a delivery, and pauses the same.)
                if let seconds = verdict.wait ?? (verdict.outcome == .rateLimited ? 0 : nil) {
                    if verdict.outcome == .rateLimited { line.waited += max(1, seconds) }
                    if seconds > 0 { try sharePause(seconds, of: line) }
                    if seconds > line.channel.policy.maxWait || line.waited > line.channel.policy.maxWait {
                        line.waitsPastRun = true
                    } else if seconds > 0 {
                        line.pace.pause(seconds)
                    }
                }
                let (record, again) = settlement(entry, verdict, policy: line.channel.policy)
                line.waiting.done(entry, again: again)
                // A webhook's mark goes now; an email's may wait for others.
                marks.add(record, now: line.mailServer == nil)
                if marks.count + pool.inFlight >= DeliveryMarks.backlog { try writeMarks() }
            }
            if marks.due { try writeMarks() }
        }
        try writeMarks()
        for line in order {
            if unreachable.contains(line.channel.id) {
                report.deferred += line.waiting.remaining
            } else if line.waitsForPace {
                report.waitingForPace += line.waiting.remaining
            } else if line.waitsPastRun {
                report.waitingPastRun += line.waiting.remaining
            } else if report.cutShort {
                report.stopped += line.waiting.remaining
            }
        }
    }

    /// Starts one delivery on its channel: an email to its one address, or a webhook.
    private func start(_ entry: OutboxDelivery, on line: Line, pool: HTTPPool, tag: Int) throws {
        if let server = line.mailServer {
            pool.start(MailRequest(server: server, from: envelopeSender(entry, line: line),
                                   recipients: [entry.envelopeAddress], message: entry.body),
                       tag: tag, connections: line.channel.policy.concurrency, queue: line.channel.id)
        } else {
            try pool.start(line.channel.webhookRequest(body: entry.body, idempotencyKey: entry.idempotencyKey), tag: tag)
        }
    }

    /// The envelope sender of one email: the channel's return path (split once per
    /// channel) with a token issued for its one address (VERP), so a delivery report
    /// about that address can be believed; the channel's own address when no token can
    /// be made.
    private func envelopeSender(_ entry: OutboxDelivery, line: Line) -> String {
        guard let token = returnPathToken?(entry.deliveryID, entry.recipient, entry.address, now) else { return line.channel.envelopeFrom }
        return line.returnPathParts.joined(separator: token)
    }

    /// The emails handed to the pool that wait there for a connection: in flight for the
    /// backlog's count, not for the concurrency's.
    private func queuedAhead(_ lines: [Line]) -> Int {
        lines.reduce(0) { $0 + max(0, $1.inFlight - $1.channel.policy.concurrency) }
    }

    /// One channel's deliveries waiting to go, and how fast they may. A class: the loop
    /// changes it in place, many times per message.
    final class Line {
        /// How many emails an email channel without a rate hands the pool beyond its
        /// connections, so each connection takes up its next message without waiting for
        /// this loop (``HTTPPool/start(_:tag:connections:)``). Few: what is in flight
        /// counts towards ``DeliveryMarks/backlog``.
        static let emailsAhead = 8

        let channel: Channel
        /// The server of an email channel (worked out once); nil for a webhook.
        let mailServer: MailServer?
        /// The return path around its `{token}`s (``Channel/returnPathParts``).
        let returnPathParts: [String]
        var waiting: DeliveryQueue
        var inFlight = 0
        /// At most this many in flight: the channel's concurrency, and for an email channel
        /// without a rate, ``emailsAhead`` more waiting in the pool for a connection (a rate
        /// paces when messages start, which a queue would bunch up).
        let window: Int
        var pace = Pace()
        /// Its server asked to wait longer than the channel's `maxWait`, at once or over
        /// several 429s: what is left waits for a later run.
        var waitsPastRun = false
        /// Seconds its server's 429s asked this run to wait, each counted as one at least.
        var waited = 0.0
        /// The shared pace had no start for it within its `maxWait`.
        var waitsForPace = false
        /// Microseconds between two starts, for a channel with a rate.
        let spacing: Int64?

        init(channel: Channel) {
            self.channel = channel
            let email = channel.url.kind.isEmail
            mailServer = email ? channel.mailServer : nil
            window = channel.policy.concurrency + (email && channel.policy.rate == nil ? Self.emailsAhead : 0)
            returnPathParts = channel.returnPathParts
            spacing = channel.policy.rate.map { Int64((1_000_000 / $0).rounded()) }
            // Emails to one address go one at a time, in order (an answer in a thread
            // after the message it answers); webhooks all at once.
            waiting = DeliveryQueue(inOrderPerAddress: email)
        }
    }
}
