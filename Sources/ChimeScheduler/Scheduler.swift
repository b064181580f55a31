import ChimeCore
import ChimeTransport
import Foundation
import Logging

/// Adds requests, and fires the due ones exactly once: claim, deliver, complete.
public struct Scheduler {
    public let configuration: Configuration
    public let store: any NotificationStore
    /// What email transports write: the rendered message.
    public let renderer: any MessageRenderer
    /// How long a claim holds before another process may take the notification up:
    /// 600 s, or `$CHIME_LEASE` (see ``ProcessIdentity``).
    public var lease: Int64 = ProcessIdentity.lease
    /// How many notifications one claim takes.
    public var batchSize = 500
    /// The token of an SMTP message's VERP envelope sender, from its delivery id,
    /// recipient, address and the sending instant; nil sends from the channel's address.
    public var returnPathToken: (@Sendable (String, String, String, Instant) -> String?)?
    /// When set, a notification held this run (no address, a message that cannot be
    /// rendered, a recipient gone) is set aside for this many seconds instead of staying
    /// first in line: the daemon's rounds take a bounded number, and held ones would
    /// otherwise be claimed again by every round ahead of everything due after them.
    public var heldRetry: Int64?
    /// Whether no one reads the run's report (the daemon): then a notification held is
    /// logged at warning and a delivery given up at error, where `chime run` and `digest`
    /// print them and log them at info. An operator who raised the daemon's level to
    /// quiet its access log had lost the sign that reminders were not going out.
    public var logsProblems = false
    /// Where each notification's route is told (info: sent, kept, turned off, held), named
    /// by its request and recipient.
    public var logger = Logger(label: "chime.scheduler")
    /// The fingerprint of ``configuration``'s file, kept in the store once a run has made
    /// the floating requests follow its recipients' zones (``RunOutlook``); nil when it
    /// is kept already, or when the file's bytes do not say the zones.
    public var followingConfiguration: String?

    public init(configuration: Configuration, store: any NotificationStore, renderer: any MessageRenderer) {
        self.configuration = configuration
        self.store = store
        self.renderer = renderer
    }

    /// Per-recipient pending limits from the configuration.
    var limits: [String: Int] { configuration.pendingLimits }

    // MARK: Scheduling

    /// What `schedule` did.
    public struct ScheduleReport: Sendable {
        /// Each request added, with its first fire instant.
        public var added: [(identifier: String, firstFire: Instant, zone: TimeZone)]
        /// Identifiers that replaced a pending request.
        public var replaced: [String]
        /// Pending requests beyond their recipient's limit after this schedule.
        public var setAside: [String]
    }

    /// Validates every request, then stores them all (or none).
    /// - Throws: ``SchedulingError`` naming each refused request.
    public func schedule(_ requests: [NotificationRequest], now: Instant) throws -> ScheduleReport {
        let notifications = try Self.plan(requests, configuration: configuration, now: now)
        let replaced = try store.upsert(notifications)
        let recipients = Set(requests.map(\.recipient))
        let setAside = try recipients.sorted().flatMap { recipient -> [String] in
            guard limits[recipient] != nil else { return [] }
            return try store.pending(recipient: recipient, limits: limits)
                .filter(\.isSetAside).map(\.request.identifier)
        }
        return ScheduleReport(
            added: notifications.map { ($0.request.identifier, $0.nextFire, TimeZone(identifier: $0.zone)!) },
            replaced: replaced, setAside: setAside)
    }

    /// What ``schedule(_:now:)`` would store, the store untouched: every request
    /// validated against `configuration`, with its first fire as of `now` (what `chime
    /// preview --json` shows a request as).
    /// - Throws: ``SchedulingError`` naming each refused request.
    public static func plan(_ requests: [NotificationRequest], configuration: Configuration, now: Instant) throws -> [PendingNotification] {
        var problems: [SchedulingError.Problem] = []
        var notifications: [PendingNotification] = []
        // By their bytes, as the stores key them: "é" and "e" with a combining accent are
        // two identifiers (Swift's `String` would take them for one).
        var seen = Set<[UInt8]>()
        for (index, request) in requests.enumerated() {
            let label = requests.count > 1 ? "request \(index + 1) (\"\(request.identifier)\")" : "request \"\(request.identifier)\""
            var found = request.problems(in: configuration)
            if !seen.insert(Array(request.identifier.utf8)).inserted {
                found.append(.init("the identifier appears twice in this batch", at: "identifier"))
            }
            let zone = zone(for: request, configuration: configuration)
            var first: Instant?
            if found.isEmpty, let zone {
                first = TriggerSchedule(request.trigger, added: now, zone: zone).first
                if first == nil { found.append(.init("the trigger never fires after \(now)", at: "trigger")) }
            }
            guard found.isEmpty, let zone, let first else {
                problems += found.map { SchedulingError.Problem(text: "\(label): \($0)", request: index, field: $0.field) }
                continue
            }
            notifications.append(PendingNotification(
                request: request, added: now, nextFire: first, anchor: now, zone: zone.identifier,
                generation: UUID().uuidString.lowercased()))
        }
        guard problems.isEmpty else { throw SchedulingError(problems, batch: requests.count) }
        return notifications
    }

    /// The zone a request's trigger is worked out in and shown in: its own, else its
    /// recipient's; UTC for a time interval, which has no wall clock.
    static func zone(for request: NotificationRequest, configuration: Configuration) -> TimeZone? {
        if case .timeInterval = request.trigger { return TimeZone(identifier: "UTC") }
        let name = request.trigger.timeZone ?? configuration.recipient(request.recipient)?.timeZone ?? "UTC"
        return TimeZone(identifier: name)
    }

    /// The next `count` fire instants of a pending request as of `now`, in the trigger's
    /// own offset.
    public func upcoming(_ identifier: String, count: Int, now: Instant) throws -> [String]? {
        guard let pending = try store.pending(identifier: identifier), let zone = TimeZone(identifier: pending.zone) else { return nil }
        let schedule = TriggerSchedule(pending.request.trigger, added: pending.added, zone: zone)
        return schedule.upcoming(from: pending.nextFire, count: count, now: now).map { $0.rfc3339(in: zone) }
    }
}
