import ChimeCore
import ChimeRendering

/// The links and reply address of a message, each carrying the delivery's signed
/// ``ReplyToken``: a reply or a click is honoured only for the recipient it was sent to,
/// and only until the token expires.
public struct SignedLinks: LinkMaker {
    public var base: String
    let key: SigningKey

    public init(key: SigningKey, base: String = "https://chime.invalid") {
        self.key = key
        self.base = base
    }

    public func links(for notification: OutgoingNotification) -> MessageLinks {
        let token = ReplyToken(deliveryID: notification.deliveryID, fireDate: notification.fireDate).signed(for: notification.recipient.id, key: key)
        return MessageLinks(base: base, token: token, preferences: "\(base)/p/\(token)", notification: notification)
    }
}
