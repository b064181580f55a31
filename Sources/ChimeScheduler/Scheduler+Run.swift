import ChimeCore
import ChimeTransport
import Foundation

extension Scheduler {
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
        /// Due notifications kept for a later run: their channel has no transport yet, or
        /// delivery failed; nothing is lost.
        public var held: [String] = []
        /// Due notifications listed by a dry run.
        public var due: [PendingNotification] = []
    }

    /// Fires everything due at `now`, once.
    /// - Parameters:
    ///   - now: the instant to fire at (`--now`, else the clock).
    ///   - clock: the real time, for claim leases (which `--now` must not stretch).
    ///   - limit: at most this many notifications.
    ///   - dryRun: list what is due, claim and send nothing.
    public func run(now: Instant, clock: Instant = Instant(Date()), limit: Int? = nil, dryRun: Bool = false) throws -> RunReport {
        var report = RunReport()
        if dryRun {
            report.due = try store.due(now: now, limit: limit ?? Int.max, limits: limits)
            return report
        }
        report.recovered = try recoverDeadClaims()
        report.moved = try followMovedRecipients()
        let claimer = ProcessIdentity.current
        let transports = TransportFactory()
        let zones = ZoneCache()
        var remaining = limit ?? Int.max
        while remaining > 0 {
            let claimed = try store.claimDue(
                now: now, limit: min(batchSize, remaining), claimer: claimer, leaseNow: clock,
                leaseUntil: clock + lease, limits: limits)
            if claimed.isEmpty { break }
            remaining -= claimed.count
            defer { _ = try? store.settle(claimer: claimer) }
            for notification in claimed {
                try fire(notification, now: now, claimer: claimer, transports: transports, zones: zones, report: &report)
            }
            try store.settle(claimer: claimer)
            if claimed.count < batchSize { break }
        }
        return report
    }

    private func fire(_ notification: PendingNotification, now: Instant, claimer: Claimer,
                      transports: TransportFactory, zones: ZoneCache, report: inout RunReport) throws {
        let request = notification.request
        guard let recipient = configuration.recipient(request.recipient), let zone = zones.zone(notification.zone) else {
            // Its recipient left the configuration: keep it, say so.
            try store.release(notification, claimer: claimer)
            report.held.append("\(request.identifier): recipient \"\(request.recipient)\" is not in the configuration")
            return
        }
        let schedule = TriggerSchedule(request.trigger, added: notification.added, zone: zone)
        let (next, coalesced) = schedule.advance(from: notification.nextFire, now: now)
        do {
            for address in recipient.addresses {
                guard let channel = configuration.channel(address.channel) else { continue }
                guard let transport = try transports.transport(for: channel) else {
                    throw TransportError(message: "channel \"\(channel.id)\" (\(channel.url.kind.rawValue)) cannot deliver yet in this version")
                }
                try transport.deliver(OutgoingNotification(
                    request: request, recipient: recipient, address: address, channel: channel,
                    fireDate: notification.nextFire, deliveryID: notification.deliveryID, coalesced: coalesced,
                    encodedRequest: notification.encodedRequest))
            }
        } catch {
            try store.release(notification, claimer: claimer)
            report.held.append("\(request.identifier): \(error)")
            return
        }
        let delivered = DeliveredNotification(
            request: request, fireDate: notification.nextFire, deliveredAt: now,
            deliveryID: notification.deliveryID, coalesced: coalesced)
        try store.markSent(notification, claimer: claimer, delivered: delivered, next: next)
        report.fired += 1
        report.coalesced += coalesced
    }

    /// Settles what processes on this host that died mid-run delivered, and takes back
    /// the rest of their claims.
    private func recoverDeadClaims() throws -> Int {
        try store.claimers().filter(ProcessIdentity.isDead).reduce(0) { count, dead in
            try store.settle(claimer: dead)
            return count + (try store.releaseClaims(of: dead))
        }
    }

    /// Recomputes floating requests of recipients whose zone changed in the configuration;
    /// returns how many moved. Every command that shows or fires requests calls it first.
    @discardableResult
    public func followMovedRecipients() throws -> Int {
        let known = try store.recipientZones()
        var moved = 0
        for recipient in configuration.recipients {
            guard let old = known[recipient.id], old != recipient.timeZone, let zone = TimeZone(identifier: recipient.timeZone) else { continue }
            var updated: [PendingNotification] = []
            for var notification in try store.floatingPending(recipient: recipient.id) {
                let schedule = TriggerSchedule(notification.request.trigger, added: notification.added, zone: zone)
                let next = notification.anchor == notification.added ? schedule.first : schedule.next(after: notification.anchor)
                guard let next else { continue }
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

/// Time zones by name, made once per run: building one reads the zone database.
final class ZoneCache {
    private var zones: [String: TimeZone] = [:]

    func zone(_ name: String) -> TimeZone? {
        if let zone = zones[name] { return zone }
        let zone = TimeZone(identifier: name)
        zones[name] = zone
        return zone
    }
}
