import ChimeCore
import ChimeCurl
import ChimeDelivery
import ChimeTransport
import Foundation
import Logging

extension Scheduler {
    /// Messages for the network written to the outbox together, in one transaction with
    /// their notifications' marks, rather than a batch's all at its end: the courier,
    /// sending beside the firing thread, has the first ones sooner, and waits for the
    /// store's one connection (to mark what it sent) a transaction of 64 rather than one
    /// of 500. With the 500 written at the end, the sending thread stood idle about 12 ms
    /// in every 37 while the firing thread wrote them (`perf record -e sched:sched_switch`),
    /// and sending 5,000 to smtp-sink took 0.547 s against 0.411 s now (8 alternating runs;
    /// 0.615 s against 0.553 s with a core kept busy). Only messages that wait to be sent
    /// count: the marks of notifications kept for a digest or turned off wait for the end.
    static let queuedTogether = 64

    /// Marks of notifications only queued (nothing sent yet), with how many messages for
    /// the network wait among them.
    struct QueuedMarks {
        private(set) var marks: [SentMark] = []
        /// The messages the marks queue, counted as they come (``queuedTogether``).
        private(set) var messages = 0

        mutating func append(_ mark: SentMark) {
            marks.append(mark)
            messages += mark.queued.count
        }

        /// The marks, handed over and forgotten.
        mutating func take() -> [SentMark] {
            defer { self = QueuedMarks() }
            return marks
        }
    }

    /// What one `chime run` did.
    public struct RunReport: Sendable {
        /// Notifications delivered (one per request occurrence, whatever its addresses).
        public var fired = 0
        /// Missed occurrences of repeating requests folded into the ones fired.
        public var coalesced = 0
        /// Claims of dead processes taken back before firing.
        public var recovered = 0
        /// Floating requests moved to their recipient's new zone.
        public var moved = 0
        /// Due notifications kept for a later run, sent to no one: their channel has no
        /// transport yet, their recipient no address, or delivery failed; nothing is lost.
        public var held: [String] = []
        /// Notifications sent to some of their recipient's addresses and not to others.
        public var partial: [String] = []
        /// Due notifications listed by a dry run.
        public var due: [PendingNotification] = []
        /// Of those fired: kept for their recipient's digest (passive, provisional, Deliver
        /// Quietly, quiet hours).
        public var digested = 0
        /// Of those fired: sent nowhere, the recipient having turned them off or denied.
        public var suppressed = 0
        /// Of those fired: sent nowhere, their recipient not having opted in yet.
        public var awaitingOptIn = 0
        /// Recipients asked to opt in this run.
        public var optInsAsked = 0
        /// Due notifications given back until their recipient's quiet hours end.
        public var postponed = 0
        /// Of those fired: kept to go out with the others of their thread once their
        /// recipient's group wait is over.
        public var grouped = 0
        /// Threads whose group wait was over, sent as one message each: how many
        /// notifications each held.
        public var groupsSent: [Int] = []
        /// Of `held`, the thread groups held (every address bounced, or none takes them):
        /// they come round again whatever the round's size.
        public var groupsHeld = 0
        /// What became of the deliveries over SMTP and webhooks sent this run: those just
        /// fired, and earlier ones due for a retry.
        public var delivery = Courier.Report()

        /// A run that did nothing.
        public init() {}
    }

    /// Fires everything due at `now`, once.
    /// - Parameters:
    ///   - now: the instant to fire at (`--now`, else the clock).
    ///   - clock: the real time, read for each claim's lease (which `--now` must not
    ///     stretch, and which a long run must renew).
    ///   - limit: at most this many notifications.
    ///   - dryRun: list what is due, claim and send nothing.
    ///   - sending: send the outbox (what this run queues, and retries due), as `chime run`
    ///     does; `chime serve` sends it apart (``send(now:clock:)``), so that emails to a
    ///     slow relay hold up no firing.
    public func run(now: Instant, clock: @escaping @Sendable () -> Instant = { Instant(Date()) }, limit: Int? = nil, dryRun: Bool = false,
                    sending: Bool = true) throws -> RunReport {
        let started = ContinuousClock.now
        var report = RunReport()
        if dryRun {
            report.due = try store.due(now: now, limit: limit ?? Int.max, limits: limits)
            return report
        }
        report.recovered = try recoverAbandonedClaims(now: clock())
        report.moved = try followMovedRecipients(now: now)
        keepFollowingConfiguration()
        let claimer = ProcessIdentity.current
        // Deliveries over the network are sent on a thread of their own as they are
        // queued: sending is mostly waiting for servers, firing mostly rendering.
        // Without such channels, the outbox is looked at once, after firing.
        let progress = FiringProgress()
        let sent: () throws -> Courier.Report
        if !sending {
            sent = { Courier.Report() }
        } else if configuration.channels.contains(where: { $0.url.kind.sendsOverNetwork }) {
            sent = makeCourier().deliverInBackground(now: now, claimer: claimer, clock: clock, alongside: progress)
        } else {
            let courier = makeCourier()
            sent = { try courier.deliver(now: now, claimer: claimer, clock: clock) }
        }
        let transports = TransportFactory(renderer: renderer)
        // What firing reads from the store, read once something is due (most cron ticks
        // have nothing due).
        var firing: Firing?
        // Held notifications stay claimed until the run ends, so the run does not take
        // them up again; then they, and deliveries left untried, go back for the next run
        // together. A run that ends with neither has nothing to give back.
        var ended = false
        defer {
            if !ended || !report.held.isEmpty || report.delivery.notTried > 0 { _ = try? store.releaseClaims(of: claimer) }
        }
        var firingFinished = false
        defer {
            // A firing error still waits for what was already queued to be sent.
            if !firingFinished {
                progress.finish()
                _ = try? sent()
            }
        }
        var batches = DueBatches(store: store, now: now, claimer: claimer, clock: clock, batchSize: batchSize, lease: lease,
                                 limits: limits, limit: limit)
        defer { batches.finish() }
        while true {
            let claimed = try batches.next()
            if claimed.count == 0 { break }
            // A row whose request cannot be read is held as a notification that cannot be
            // rendered is: named, left in the store, and the others fired all the same.
            for unreadable in claimed.unreadable {
                try hold(unreadable.identifier, generation: unreadable.generation, named: unreadable.shownIdentifier, because: unreadable.problem,
                         logged: .error, metadata: ["notification.id": .string(unreadable.identifier)], now: now, claimer: claimer, report: &report)
            }
            if firing == nil {
                firing = Firing(now: now, started: started, claimer: claimer, transports: transports, bounces: BounceMarks(read: store.undeliverable),
                                preferences: try store.preferences(), askedToOptIn: try store.askedToOptIn())
            }
            // Marks of notifications delivered into a Maildir or a file, written together
            // (``MarkBacklog``): a run killed before they are written delivers those again,
            // never more than 64.
            var delivered = MarkBacklog<SentMark>()
            // A batch that fails midway still marks what it delivered, and settles it.
            var settled = false
            defer {
                if !settled {
                    try? delivered.flush { try store.markSent($0, claimer: claimer) }
                    _ = try? store.settle(claimer: claimer)
                }
            }
            // Marks of notifications only queued (nothing sent yet) are written together,
            // once ``queuedTogether`` messages for the network wait among them, and at the
            // end of the batch; a run dying before they are written has sent none of them.
            var queuedOnly = QueuedMarks()
            // The marks waiting, delivered and queued, written and settled with the batch's
            // earlier ones in one transaction; whether there were any. When it fails, the
            // batch's end above writes the delivered ones alone.
            func writeMarks() throws -> Bool {
                var wrote = false
                try delivered.flush(alongside: queuedOnly.take()) {
                    try store.markSentAndSettle($0, claimer: claimer)
                    wrote = true
                }
                return wrote
            }
            for notification in claimed.notifications {
                if let reason = try fire(notification, firing: &firing!, delivered: &delivered, queuedOnly: &queuedOnly, report: &report) {
                    try hold(notification.request.identifier, generation: notification.generation, named: notification.request.identifier,
                             because: reason, logged: logsProblems ? .warning : .info, metadata: Self.metadata(of: notification), now: now,
                             claimer: claimer, report: &report)
                }
                if queuedOnly.messages >= Self.queuedTogether { _ = try writeMarks() }
            }
            if try !writeMarks() { try store.settle(claimer: claimer) }
            settled = true
            batches.settled()
            // With pending limits, settling lets later requests into a window: claim
            // until nothing is left rather than stopping at a short batch.
            if claimed.count < batchSize && limits.isEmpty { break }
        }
        // Threads whose group wait is over go now, their deliveries over the network
        // queued for the courier with the rest.
        let groups = try sendWaitingGroups(now: now, claimer: claimer, transports: transports)
        report.groupsSent = groups.sent.map(\.count)
        report.held += groups.held
        report.groupsHeld = groups.held.count
        progress.finish()
        firingFinished = true
        report.delivery = try sent()
        ended = true
        return report
    }

    /// Sends what the outbox holds due, as a run does after firing: `chime serve`'s
    /// sending, apart from its firing. Its claims are its own (``Claimer/doing(_:)``), and
    /// it gives back those of deliveries it left untried: those of its server's asking, and
    /// those left once `keepsSending` says no more (``Courier/keepsSending``).
    public func send(now: Instant, clock: @escaping @Sendable () -> Instant = { Instant(Date()) },
                     keepsSending: @escaping () -> Bool = { true }) throws -> Courier.Report {
        try deliver(now: now, claimer: ProcessIdentity.current.doing("send"), clock: clock, keepsSending: keepsSending)
    }

    /// A courier pass under a claimer of one work of its own (``Claimer/doing(_:)``), which
    /// gives back the claims of the deliveries it left untried, or of all it took when it
    /// failed: the process lives on, so no one else would take them up before their
    /// lease ran out.
    func deliver(now: Instant, claimer: Claimer, clock: @escaping @Sendable () -> Instant,
                 keepsSending: @escaping () -> Bool = { true }) throws -> Courier.Report {
        let report: Courier.Report
        let courier = makeCourier()
        courier.keepsSending = keepsSending
        do {
            report = try courier.deliver(now: now, claimer: claimer, clock: clock)
        } catch {
            _ = try? store.releaseClaims(of: claimer)
            throw error
        }
        if report.notTried > 0 { _ = try? store.releaseClaims(of: claimer) }
        return report
    }

    /// The courier of a run or a digest pass: the run's lease and return paths, and the
    /// addresses hard bounces marked, which it sends nothing to.
    func makeCourier() -> Courier {
        let courier = Courier(configuration: configuration, store: store)
        courier.lease = lease
        courier.returnPathToken = returnPathToken
        courier.undeliverable = { [store] in try store.undeliverable() }
        courier.sharedPace = store
        if logsProblems { courier.gaveUpLevel = .error }
        return courier
    }

    /// Why nothing went to a recipient whose every address that would take it bounced.
    static func allBounced(_ recipient: Recipient) -> String {
        "every address of recipient \"\(recipient.id)\" is undeliverable (a hard bounce)"
    }

    static func noTakers(_ recipient: Recipient, count: Int) -> String {
        "recipient \"\(recipient.id)\" has no email or chat address to take its digest or thread group: \(count) kept, waiting for one"
    }

    /// Whether any address of the recipient takes grouped messages and digests (email,
    /// chat): a recipient with only `file:` feeds, which take each notification as it
    /// fires, has them sent at once; kept, they were counted as sent and went nowhere.
    func takesBatches(_ recipient: Recipient) -> Bool {
        recipient.addresses.contains { address in
            configuration.channel(address.channel)?.takesBatches ?? false
        }
    }

    /// What every notification of a run is fired with, read once per run.
    struct Firing {
        let now: Instant
        /// When the run began, `now` by the monotonic clock: how late each notification
        /// went is `now` minus its instant plus what the run took until then.
        let started: ContinuousClock.Instant
        let claimer: Claimer
        let transports: TransportFactory
        let zones = ZoneCache()
        /// Addresses hard bounces named: nothing more goes to them.
        let bounces: BounceMarks
        /// Deliver Quietly and Turn Off as recipients changed them: recipient → category → preference.
        let preferences: [String: [String: DeliveryPreference]]
        /// Recipients asked to opt in, this run's included.
        var askedToOptIn: Set<String>
    }

    /// What names a notification in the log: its request, recipient, category and delivery.
    /// Holds a claimed notification that does not go (`named` as the run prints it): the
    /// reason in the run's report, its metrics and log; with ``heldRetry`` (the daemon) it
    /// is given back until then, else it stays claimed until the run ends.
    private func hold(_ identifier: String, generation: String?, named: String, because reason: String, logged level: Logger.Level,
                      metadata: Logger.Metadata, now: Instant, claimer: Claimer, report: inout RunReport) throws {
        report.held.append(configuration.redact("\(named): \(reason)"))
        count(.held)
        logger.log(level: level, "held: \(configuration.redact(reason))", metadata: metadata)
        if let heldRetry, let generation {
            try store.postpone(identifier: identifier, generation: generation, until: now + heldRetry, claimer: claimer)
        }
    }

    static func metadata(of notification: PendingNotification) -> Logger.Metadata {
        ["notification.id": .string(notification.request.identifier), "recipient.id": .string(notification.request.recipient),
         "category": .string(notification.request.content.categoryIdentifier), "delivery.id": .string(notification.deliveryID)]
    }

    /// Delivers one claimed notification to every address of its recipient and marks it
    /// sent; returns why it was held instead (nothing sent to anyone).
    private func fire(_ notification: PendingNotification, firing: inout Firing, delivered backlog: inout MarkBacklog<SentMark>,
                      queuedOnly: inout QueuedMarks, report: inout RunReport) throws -> String? {
        let (now, claimer, zones) = (firing.now, firing.claimer, firing.zones)
        let request = notification.request
        guard let recipient = configuration.recipient(request.recipient) else {
            return "recipient \"\(request.recipient)\" is not in the configuration"
        }
        guard let zone = zones.zone(notification.zone) else { return "unknown time zone \"\(notification.zone)\"" }
        guard let home = zones.zone(recipient.timeZone) else { return "unknown time zone \"\(recipient.timeZone)\"" }
        let schedule = TriggerSchedule(request.trigger, added: notification.added, zone: zone)
        let advanced = schedule.advance(from: notification.nextFire, now: now)
        // Made from the generation and the fire instant each time it is asked for.
        let deliveryID = notification.deliveryID
        let delivered = DeliveredNotification(
            request: request, fireDate: advanced.latest, deliveredAt: now,
            deliveryID: deliveryID, coalesced: advanced.coalesced)
        let category = request.content.categoryIdentifier
        let preference = recipient.preference(for: category, stored: firing.preferences[recipient.id])
        let kept: SentMark.Route
        switch DeliveryRoute.of(level: request.content.interruptionLevel, recipient: recipient, preference: preference, at: now, zone: home) {
        case .now where recipient.groupWait > 0 && !request.content.threadIdentifier.isEmpty && request.content.interruptionLevel != .critical
                        && takesBatches(recipient):
            kept = .grouped
            report.grouped += 1
            count(.grouped)
            logger.info("waiting for its thread", metadata: Self.metadata(of: notification))
        case .now:
            kept = .sent
        case .wait(let until):
            try store.postpone(notification, until: until, claimer: claimer)
            report.postponed += 1
            count(.held)
            logger.info("held for quiet hours until \(until)", metadata: Self.metadata(of: notification))
            return nil
        case .digest where !takesBatches(recipient):
            // Only `file:` feeds, which take no digest: it goes now rather than nowhere.
            kept = .sent
        case .digest:
            kept = .digest
            report.digested += 1
            count(.digest)
            logger.info("kept for the digest", metadata: Self.metadata(of: notification))
        case .suppressed:
            kept = .suppressed
            report.suppressed += 1
            count(.suppressed)
            logger.info("turned off", metadata: Self.metadata(of: notification))
        case .optIn:
            // Asked once: the first notification asks instead of being sent, the others
            // are not sent either.
            if !firing.askedToOptIn.contains(recipient.id) {
                switch try askToOptIn(recipient, now: now, transports: firing.transports, bounces: firing.bounces) {
                case .held(let why): return why
                case .asked: report.optInsAsked += 1
                case .askedBefore: break
                }
                firing.askedToOptIn.insert(recipient.id)
            }
            kept = .suppressed
            report.awaitingOptIn += 1
            count(.suppressed)
            logger.info("awaiting opt-in", metadata: Self.metadata(of: notification))
        }
        // Kept for the digest or the thread's message (delivered, answerable) or turned
        // off: nothing sent now.
        guard kept == .sent else {
            queuedOnly.append(SentMark(notification: notification, delivered: delivered, next: advanced.next, anchor: advanced.anchor,
                                       queued: [], route: kept))
            report.fired += 1
            report.coalesced += advanced.coalesced
            return nil
        }
        // Every destination must be able to take it before any does: a partial send
        // would be repeated to the others' neighbours at every retry. Messages for the
        // network are rendered now and queued with the mark, in one transaction.
        var local: [(OutgoingNotification, Transport)] = []
        var queued: [QueuedDelivery] = []
        var bounced = 0
        for address in recipient.addresses {
            guard let channel = configuration.channel(address.channel) else { continue }
            if try firing.bounces.contains(address.value, on: channel) {
                bounced += 1
                continue
            }
            var outgoing = OutgoingNotification(
                request: request, recipient: recipient, address: address, channel: channel,
                fireDate: advanced.latest, deliveryID: deliveryID, coalesced: advanced.coalesced,
                encodedRequest: notification.encodedRequest)
            outgoing.sentAt = now
            do {
                if let transport = try firing.transports.transport(for: channel) {
                    local.append((outgoing, transport))
                } else {
                    let body = channel.url.kind.isEmail ? SMTPClient.crlf(Array(try renderer.email(outgoing).utf8)) : try renderer.payload(outgoing)
                    queued.append(QueuedDelivery(channel: channel.id, address: address.value, body: body))
                }
            } catch {
                return "channel \"\(channel.id)\": \(error)"
            }
        }
        guard !local.isEmpty || !queued.isEmpty else {
            return bounced > 0 ? Self.allBounced(recipient)
                : "recipient \"\(recipient.id)\" has no address"
        }
        for (index, (outgoing, transport)) in local.enumerated() {
            do {
                try transport.deliver(outgoing)
                countLocal(outgoing.channel, delivered: true)
            } catch where index == 0 {
                countLocal(outgoing.channel, delivered: false)
                return "\(error)"
            }
            // A later destination failing after an earlier one took it: what was sent is
            // recorded as sent.
            catch {
                countLocal(outgoing.channel, delivered: false)
                report.partial.append(configuration.redact("\(request.identifier): \(error)"))
            }
        }
        // Its fields made only when the line is written (info is not, by default).
        logger.info(local.isEmpty ? "fired, queued for sending" : "fired and delivered", metadata: {
            var sent = Self.metadata(of: notification)
            sent["channels"] = .string((local.map(\.0.channel.id) + queued.map(\.channel)).joined(separator: ","))
            return sent
        }())
        let mark = SentMark(notification: notification, delivered: delivered, next: advanced.next, anchor: advanced.anchor, queued: queued)
        if local.isEmpty {
            queuedOnly.append(mark)
        } else {
            // Something was delivered: recorded with the others delivered just before it,
            // soon, so that a crash sends few of them again.
            backlog.add(mark)
            if backlog.due { try backlog.flush { try store.markSent($0, claimer: claimer) } }
        }
        report.fired += 1
        report.coalesced += advanced.coalesced
        count(.sent)
        recordDelay(from: advanced.latest, to: now, plus: ContinuousClock.now - firing.started)
        return nil
    }

    /// Settles what abandoned claimers delivered and takes back the rest of their claims:
    /// processes on this host that died, and claimers anywhere whose every lease ran out.
    private func recoverAbandonedClaims(now: Instant) throws -> Int {
        try store.claimers().filter { claim in
            ProcessIdentity.isDead(claim.claimer) || claim.leaseEnds.map { $0 <= now } ?? true
        }.reduce(0) { count, abandoned in
            try store.settle(claimer: abandoned.claimer)
            return count + (try store.releaseClaims(of: abandoned.claimer))
        }
    }

    /// Keeps ``followingConfiguration`` in the store, now that the floating requests follow
    /// it. Only spares later ticks the file: when it cannot be kept, they load it.
    private func keepFollowingConfiguration() {
        guard let followingConfiguration else { return }
        let zones = Dictionary(configuration.recipients.map { ($0.id, $0.timeZone) }) { first, _ in first }
        do { try store.keepFollowedConfiguration(followingConfiguration, zones: zones) } catch {
            logger.debug("the configuration followed not kept: \(error)")
        }
    }

    /// Recomputes floating requests of recipients whose zone changed in the configuration;
    /// returns how many moved. Every command that shows or fires requests calls it first.
    ///
    /// The next occurrence in the new zone after the last one fired (or after the request
    /// was added) stands while it is still ahead at `now`, as iOS would fire it: a daily
    /// 09:00 fired in Paris at 08:00 UTC, moved to New York at 10:00 UTC, fires again at
    /// 09:00 there. One the new zone has already passed is read on the wall clock, a
    /// floating time being one: where the request stood is taken at the same wall time in
    /// the new zone, and the next wall time after that is its next occurrence. Moved at
    /// 17:00 UTC, that daily 09:00 comes tomorrow at 09:00 in New York, where it came
    /// again at once, at noon there; one that has not fired on the wall clock yet (moved
    /// east, its 09:00 already passed there) fires at once, as any missed occurrence.
    @discardableResult
    public func followMovedRecipients(now: Instant) throws -> Int {
        let known = try store.recipientZones()
        var moved = 0
        for recipient in configuration.recipients {
            guard let old = known[recipient.id], old != recipient.timeZone, let zone = TimeZone(identifier: recipient.timeZone) else { continue }
            var updated: [PendingNotification] = []
            let wall = WallClock(from: TimeZone(identifier: old), to: zone)
            for var notification in try store.floatingPending(recipient: recipient.id) {
                func following(_ moved: (Instant) -> Instant) -> Instant? {
                    let schedule = TriggerSchedule(notification.request.trigger, added: moved(notification.added), zone: zone)
                    return notification.firedCount == 0 ? schedule.first : schedule.next(after: moved(notification.anchor))
                }
                let ahead = following { $0 }
                guard let next = ahead.map({ $0 >= now }) == true ? ahead : following(wall.moved) else { continue }
                notification.nextFire = next
                notification.zone = recipient.timeZone
                updated.append(notification)
            }
            try store.moveRecipient(recipient.id, to: recipient.timeZone, updated: updated)
            moved += updated.count
        }
        return moved
    }
}

/// The same wall-clock time in another zone: 09:00 in Paris → 09:00 in New York.
struct WallClock {
    private var from: Calendar?
    private var to: Calendar

    /// - Parameter old: the zone times were read in; nil (a name no longer known) keeps
    ///   every instant as it is.
    init(from old: TimeZone?, to new: TimeZone) {
        func calendar(_ zone: TimeZone) -> Calendar {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar
        }
        from = old.map(calendar)
        to = calendar(new)
    }

    /// The instant showing on the new zone's clock what `instant` showed on the old one's
    /// (a time the new zone skips, the instant just after its gap).
    func moved(_ instant: Instant) -> Instant {
        guard let from else { return instant }
        let shown = from.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant.date)
        return to.date(from: shown).map(Instant.init) ?? instant
    }
}
