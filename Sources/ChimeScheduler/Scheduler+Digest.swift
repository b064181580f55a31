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
    }

    /// Sends every recipient's digest whose daily time (`digestAt`, in their zone) has
    /// come since their last one: each notification kept for the digest goes in exactly
    /// one, even when runs overlap (the store hands each slot to one run) or one is killed
    /// (its digest is finished by the next run under the same id, which replaces rather
    /// than repeats it). A recipient with nothing kept gets nothing.
    /// - Parameters:
    ///   - only: limit the run to this recipient.
    ///   - dryRun: list what would go; claim and send nothing.
    public func digest(now: Instant, only: String? = nil, dryRun: Bool = false) throws -> DigestReport {
        var report = DigestReport()
        let claimer = ProcessIdentity.current
        let recipients = configuration.recipients.filter { only == nil || $0.id == only }
        if dryRun {
            for recipient in recipients {
                let items = try store.parked(recipient: recipient.id)
                if !items.isEmpty { report.due.append((recipient.id, items)) }
            }
            return report
        }
        let transports = TransportFactory(renderer: renderer)
        let zones = ZoneCache()
        for unfinished in try store.unfinishedDigests() where only == nil || unfinished.recipient == only {
            // Another run's, still going: its own to finish.
            if let owner = unfinished.claimer, owner != claimer, !ProcessIdentity.isDead(owner),
               now.seconds - unfinished.createdAt.seconds < Int64(lease) { continue }
            guard let batch = try store.takeOver(unfinished, claimer: claimer) else { continue }
            if let problem = try send(batch, now: now, transports: transports) {
                report.held.append(problem)
            } else {
                report.recovered += 1
                if !batch.items.isEmpty { report.sent.append((batch.recipient, batch.items.count)) }
            }
        }
        for recipient in recipients {
            guard let zone = zones.zone(recipient.timeZone) else { continue }
            let slot = DeliveryRoute.lastSlot(minute: recipient.digestAt, atOrBefore: now, zone: zone)
            let id = "digest-" + Self.digestName(recipient.id, slot)
            guard let batch = try store.claimDigest(id: id, recipient: recipient.id, slot: slot, claimer: claimer, at: now) else { continue }
            if let problem = try send(batch, now: now, transports: transports) {
                report.held.append(problem)
            } else if !batch.items.isEmpty {
                report.sent.append((recipient.id, batch.items.count))
            }
        }
        // Digests for SMTP were queued with their mark: sent now, retried by later runs.
        if !report.sent.isEmpty, configuration.channels.contains(where: { $0.url.kind.sendsOverNetwork }) {
            let courier = Courier(configuration: configuration, store: store)
            courier.lease = lease
            _ = try courier.deliver(now: now, claimer: claimer, clock: { Instant(Date()) })
        }
        return report
    }

    /// Renders and delivers one digest to each email address of its recipient, then marks
    /// it sent (queuing SMTP deliveries in the same transaction); returns why it could not.
    private func send(_ batch: DigestBatch, now: Instant, transports: TransportFactory) throws -> String? {
        guard !batch.items.isEmpty else {
            try store.finishDigest(batch, queued: [], at: now)
            return nil
        }
        guard let recipient = configuration.recipient(batch.recipient) else {
            return "\(batch.recipient): not in the configuration"
        }
        var queued: [QueuedDelivery] = []
        for address in recipient.addresses {
            guard let channel = configuration.channel(address.channel), channel.url.kind.isEmail else { continue }
            let items = batch.items.map {
                OutgoingNotification(request: $0.request, recipient: recipient, address: address, channel: channel,
                                     fireDate: $0.fireDate, deliveryID: $0.deliveryID, coalesced: 0)
            }
            do {
                let message = try renderer.digestEmail(items, id: batch.id, date: now)
                if let folder = try transports.maildir(for: channel) {
                    try folder.add(Array(message.utf8), name: "\(batch.id).\(channel.id).chime")
                } else {
                    queued.append(QueuedDelivery(channel: channel.id, address: address.value, body: SMTPClient.crlf(Array(message.utf8))))
                }
            } catch {
                return configuration.redact("\(batch.recipient): channel \"\(channel.id)\": \(error)")
            }
        }
        try store.finishDigest(batch, queued: queued, at: now)
        return nil
    }

    /// A digest's id: its slot, and its recipient and slot hashed, a name fit for a file.
    static func digestName(_ recipient: String, _ slot: Instant) -> String {
        "\(slot.seconds)-" + stableHash("\(recipient)\u{0}\(slot.seconds)")
    }
}
