/// The JSON of one delivered notification, as `chime delivered --json` prints it.
public struct DeliveredJSON: Encodable, Sendable {
    public var identifier: String
    public var recipient: String
    public var content: NotificationContent
    public var trigger: NotificationTrigger
    /// The occurrence that fired, as `UNNotification.date`.
    public var date: Instant
    public var deliveredAt: Instant
    public var deliveryID: String
    public var coalesced: Int

    public init(_ delivered: DeliveredNotification) {
        identifier = delivered.request.identifier
        recipient = delivered.request.recipient
        content = delivered.request.content
        trigger = delivered.request.trigger
        date = delivered.fireDate
        deliveredAt = delivered.deliveredAt
        deliveryID = delivered.deliveryID
        coalesced = delivered.coalesced
    }
}
