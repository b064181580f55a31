import ChimeCore
import ChimeCurl
import ChimeDelivery
import ChimeTransport
import Foundation

extension Scheduler {
    /// What one `chime digest` did.
    public struct DigestReport: Sendable {
        /// Each digest sent: its recipient and how many notifications it held.
        public var sent: [(recipient: String, count: Int)] = []
        /// Digests of runs that died, sent now.
        public var recovered = 0
        /// A dry run: each recipient whose digest is due, and what it would hold.
        public var due: [(recipient: String, items: [ParkedNotification])] = []
        /// Recipients whose digest could not go (why), kept for the next run.
        public var held: [String] = []
        /// What became of the digests' deliveries over SMTP and webhooks this run.
        public var delivery = Courier.Report()
    }

    /// Sends every recipient's digest whose daily time (`digestAt`, in their zone) has
    /// come since their last one, to their email and chat addresses: each notification
    /// kept for the digest goes in exactly one (see Scheduler+Batches). A
    /// recipient with nothing kept gets nothing.
    /// - Parameters:
    ///   - clock: what the leases of the digests' deliveries count from (`chime serve`'s
    ///     own clock, which `--now` moves).
    ///   - only: limit the run to this recipient.
    ///   - dryRun: list what would go; claim and send nothing.
    ///   - keepsSending: asked as the digests' deliveries go (``Courier/keepsSending``).
    public func digest(now: Instant, clock: @escaping @Sendable () -> Instant = { Instant(Date()) }, only: String? = nil,
                       dryRun: Bool = false, keepsSending: @escaping () -> Bool = { true }) throws -> DigestReport {
        var report = DigestReport()
        // Claims of its own: `chime serve` fires meanwhile, and a firing round gives back
        // its claims when it ends holding something.
        let claimer = ProcessIdentity.current.doing("digest")
        let recipients = configuration.recipients.filter { only == nil || $0.id == only }
        // Each recipient's slot: their last daily time (`digestAt`, in their zone) at or before now.
        let zones = ZoneCache()
        let slots = recipients.compactMap { recipient in
            zones.zone(recipient.timeZone).map { (recipient, DeliveryRoute.lastSlot(minute: recipient.digestAt, atOrBefore: now, zone: $0)) }
        }
        // Each recipient's choices, read once for the pass when a digest first needs them.
        let turnedOff = TurnedOff(read: store.preferences)
        if dryRun {
            // Due as the real run would send it: something kept, and its slot not sent yet.
            for (recipient, slot) in slots {
                guard try !store.hasDigest(recipient: recipient.id, slot: slot) else { continue }
                let items = try turnedOff.wanted(store.parked(recipient: recipient.id).filter { $0.fireDate.seconds <= slot.seconds }.latestPerRequest,
                                                 by: recipient.id)
                if !items.isEmpty { report.due.append((recipient.id, items)) }
            }
            return report
        }
        let transports = TransportFactory(renderer: renderer)
        var result = BatchResult()
        // The hard-bounce marks, read once for the pass when a digest first goes to an email address.
        let bounces = BounceMarks(read: store.undeliverable)
        try finishUnfinished(.digest, only: only, now: now, claimer: claimer, transports: transports, bounces: bounces, turnedOff: turnedOff,
                             into: &result)
        report.recovered = result.sent.count
        for (recipient, slot) in slots {
            try claimAndSend(id: "digest-" + Self.digestName(recipient.id, slot), recipient: recipient.id, thread: nil, slot: slot,
                             now: now, claimer: claimer, transports: transports, bounces: bounces, turnedOff: turnedOff, into: &result)
        }
        (report.sent, report.held) = (result.sent, result.held)
        // Digests for SMTP were queued with their mark: sent now, retried by later runs.
        if !report.sent.isEmpty, configuration.channels.contains(where: { $0.url.kind.sendsOverNetwork }) {
            report.delivery = try deliver(now: now, claimer: claimer, clock: clock, keepsSending: keepsSending)
        }
        return report
    }

    /// A digest's id: its slot, and its recipient and slot hashed, a name fit for a file.
    static func digestName(_ recipient: String, _ slot: Instant) -> String {
        "\(slot.seconds)-" + stableHash("\(recipient)\u{0}\(slot.seconds)")
    }
}
