import ChimeCore
import ChimeRendering

/// The links and reply address of a message, each carrying the delivery's signed
/// ``ReplyToken``: a reply or a click is honoured only for the recipient it was sent to,
/// and only until the token expires.
public struct SignedLinks: TokenLinks {
    public var base: String
    let key: SigningKey

    public init(key: SigningKey, base: String = "https://chime.invalid") {
        self.key = key
        self.base = base
    }

    public func replyToken(_ notification: OutgoingNotification) -> String {
        ReplyToken(deliveryID: notification.deliveryID, fireDate: notification.fireDate).signed(for: notification.recipient.id, key: key)
    }

    public func preferences(_ notification: OutgoingNotification) -> String { "\(base)/p/\(replyToken(notification))" }
}
