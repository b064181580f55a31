/// A notification kept for its recipient's digest, or for one message with the others of
/// its thread.
public struct ParkedNotification: Sendable {
    public var deliveryID: String
    public var request: NotificationRequest
    public var fireDate: Instant

    public init(deliveryID: String, request: NotificationRequest, fireDate: Instant) {
        self.deliveryID = deliveryID
        self.request = request
        self.fireDate = fireDate
    }
}

extension Array where Element == ParkedNotification {
    /// Each request's latest notification, in their order: one that fired again under its
    /// identifier (a repeat, or the request scheduled anew) replaces the one before, as in
    /// Notification Center and `chime delivered`; a digest held both ("old" beside "new",
    /// an hourly reminder four times).
    public var latestPerRequest: [ParkedNotification] {
        var latest: [String: Int] = [:]
        for (index, item) in enumerated() {
            if let kept = latest[item.request.identifier], self[kept].fireDate.seconds > item.fireDate.seconds { continue }
            latest[item.request.identifier] = index
        }
        guard latest.count < count else { return self }
        let kept = Set(latest.values)
        return enumerated().filter { kept.contains($0.offset) }.map(\.element)
    }
}

/// Notifications of one recipient's thread waiting to go out together.
public struct WaitingGroup: Sendable {
    public var recipient: String
    public var thread: String
    /// The first one's fire date, from which the group wait counts.
    public var first: Instant
    /// The first one's delivery id, which names the group's message.
    public var firstDeliveryID: String

    public init(recipient: String, thread: String, first: Instant, firstDeliveryID: String) {
        self.recipient = recipient
        self.thread = thread
        self.first = first
        self.firstDeliveryID = firstDeliveryID
    }
}

/// One grouped message, and the notifications it took: a recipient's digest for one daily
/// slot, or one thread's notifications gathered during the recipient's group wait.
public struct MessageBatch: Sendable {
    /// The same for every try at this recipient's slot: names its Maildir file and its
    /// outbox deliveries, so a digest sent again after a crash replaces itself.
    public var id: String
    public var recipient: String
    /// Nil for the daily digest; else the thread whose notifications this message groups.
    public var thread: String?
    public var claimer: Claimer?
    public var createdAt: Instant
    public var items: [ParkedNotification]

    public init(id: String, recipient: String, thread: String? = nil, claimer: Claimer?, createdAt: Instant,
                items: [ParkedNotification]) {
        self.id = id
        self.recipient = recipient
        self.thread = thread
        self.claimer = claimer
        self.createdAt = createdAt
        self.items = items
    }
}
