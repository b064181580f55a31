/// One fired notification on its way to one address of its recipient.
public struct OutgoingNotification: Sendable {
    public var request: NotificationRequest
    public var recipient: Recipient
    public var address: Recipient.Address
    public var channel: Channel
    /// The occurrence that fired.
    public var fireDate: Instant
    /// The same for every send of this occurrence: receivers use it to drop a resend.
    public var deliveryID: String
    /// Occurrences missed while nothing ran, folded into this one.
    public var coalesced: Int
    /// The request's JSON, when already at hand (see ``PendingNotification/encodedRequest``).
    public var encodedRequest: String?
    /// When it goes out, the firing run's instant: later than its occurrence when it was
    /// held through quiet hours or missed while nothing ran. An email's `Date:` (what
    /// mail clients sort by, as iOS dates a notification when it is delivered); nil, the
    /// occurrence (a preview).
    public var sentAt: Instant?

    public init(request: NotificationRequest, recipient: Recipient, address: Recipient.Address, channel: Channel,
                fireDate: Instant, deliveryID: String, coalesced: Int, encodedRequest: String? = nil) {
        self.request = request
        self.recipient = recipient
        self.address = address
        self.channel = channel
        self.fireDate = fireDate
        self.deliveryID = deliveryID
        self.coalesced = coalesced
        self.encodedRequest = encodedRequest
    }
}

/// A way to deliver notifications on one channel.
public protocol Transport: AnyObject {
    /// Delivers one notification; returns only once the destination has it.
    func deliver(_ notification: OutgoingNotification) throws
}
