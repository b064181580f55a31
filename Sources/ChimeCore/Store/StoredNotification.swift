/// A request waiting to fire, as the store keeps it.
public struct PendingNotification: Hashable, Sendable {
    public var request: NotificationRequest
    /// When it was added: time intervals count from here.
    public var added: Instant
    /// The next instant it fires.
    public var nextFire: Instant
    /// The instant `nextFire` was computed after (`added`, or the last fire).
    public var anchor: Instant
    /// How many times it has fired: a floating request that moves zone starts again from
    /// its first occurrence only if it never fired.
    public var firedCount = 0
    /// The zone `nextFire` was computed in; for a floating trigger, the recipient's zone
    /// at that time.
    public var zone: String
    /// Set anew each time the request is added or replaced; with the fire instant it
    /// makes the delivery id.
    public var generation: String
    /// Beyond the recipient's pending limit: kept and listed, not fired while so.
    public var isSetAside = false
    /// The request's JSON as the store holds it, when it has it: handed on to transports
    /// that write JSON, so a fired request is not encoded again.
    public var encodedRequest: String?

    public init(request: NotificationRequest, added: Instant, nextFire: Instant, anchor: Instant, zone: String, generation: String) {
        self.request = request
        self.added = added
        self.nextFire = nextFire
        self.anchor = anchor
        self.zone = zone
        self.generation = generation
    }

    /// The delivery id of the occurrence at `nextFire`: the same however many times that
    /// occurrence is sent, so a receiver can recognise a resend.
    public var deliveryID: String { "\(generation).\(nextFire.seconds)" }

    /// What a ``deliveryID`` was made of; an id without its `.seconds` is all generation.
    public static func parts(ofDelivery id: String) -> (generation: String, fire: Int64) {
        // By bytes: a scan by Characters was most of the cost of signing a message's links.
        guard let dot = id.utf8.lastIndex(of: UInt8(ascii: ".")), let fire = Int64(id[id.utf8.index(after: dot)...]) else { return (id, 0) }
        return (String(id[..<dot]), fire)
    }

    /// The delivery ids of `generation`'s occurrences lie from `GENERATION.` up to (not
    /// including) `GENERATION/` in byte order: a store reads them in its primary key's
    /// order. Ids of a generation named `GENERATION.something` lie there too:
    /// ``isOccurrence(_:of:)`` tells them apart.
    public static func deliveryIDs(ofGeneration generation: String) -> (from: String, upTo: String) {
        (generation + ".", generation + "/")
    }

    /// Whether the delivery `id` is an occurrence of `generation`.
    public static func isOccurrence(_ id: String, of generation: String) -> Bool {
        parts(ofDelivery: id).generation == generation
    }
}

/// A notification that fired and was delivered.
public struct DeliveredNotification: Hashable, Sendable {
    public var request: NotificationRequest
    /// The occurrence that fired (the scheduled instant, not the moment of sending).
    public var fireDate: Instant
    public var deliveredAt: Instant
    public var deliveryID: String
    /// Occurrences missed while nothing ran, folded into this one.
    public var coalesced: Int

    public init(request: NotificationRequest, fireDate: Instant, deliveredAt: Instant, deliveryID: String, coalesced: Int) {
        self.request = request
        self.fireDate = fireDate
        self.deliveredAt = deliveredAt
        self.deliveryID = deliveryID
        self.coalesced = coalesced
    }
}

/// That a claimed notification fired: delivered to its local destinations, its network
/// deliveries queued, and where its request goes next (`next` nil: it does not repeat),
/// computed after `anchor`.
public struct SentMark: Sendable {
    public var notification: PendingNotification
    public var delivered: DeliveredNotification
    public var next: Instant?
    public var anchor: Instant
    public var queued: [QueuedDelivery]
    /// What the recipient's policy made of it (see ``DeliveryRoute``).
    public var route: Route

    /// Where a fired notification went.
    public enum Route: String, Sendable {
        /// Sent (or queued) to the recipient's addresses.
        case sent
        /// Kept for the recipient's next digest; delivered, and answerable, from now.
        case digest
        /// Sent nowhere and not listed as delivered: the recipient turned it off.
        case suppressed
        /// Kept to go out with the others of its thread in one message, once its
        /// recipient's group wait is over; delivered, and answerable, from now.
        case grouped
    }

    public init(notification: PendingNotification, delivered: DeliveredNotification, next: Instant?, anchor: Instant,
                queued: [QueuedDelivery], route: Route = .sent) {
        self.notification = notification
        self.delivered = delivered
        self.next = next
        self.anchor = anchor
        self.queued = queued
        self.route = route
    }
}

/// Who holds a claim on due notifications: a process on a host, until a lease ends.
public struct Claimer: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var processID: Int32
    /// The process's start time, so a reused process id is not taken for the claimer.
    public var processStart: String

    public init(host: String, processID: Int32, processStart: String) {
        self.host = host
        self.processID = processID
        self.processStart = processStart
    }

    /// `host:pid:start`, as stored.
    public var description: String { "\(host):\(processID):\(processStart)" }

    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let pid = Int32(parts[1]) else { return nil }
        self.init(host: String(parts[0]), processID: pid, processStart: String(parts[2]))
    }

    /// The same process claiming for one of the works it does at once (`chime serve` fires
    /// and sends digests side by side): `host:pid:start/role`. Each work's claims are its
    /// own, so that one work giving back its claims (a firing round that held something)
    /// does not give back a delivery another is still sending, for someone to send again.
    public func doing(_ role: String) -> Claimer {
        Claimer(host: host, processID: processID, processStart: processStart + "/" + role)
    }

    /// The process's start time, without the role of ``doing(_:)``.
    public var processStartTime: Substring { processStart.prefix { $0 != "/" } }
}
