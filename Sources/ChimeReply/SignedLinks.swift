import ChimeCore
import ChimeRendering

/// The links and reply address of a message, each carrying a ``ReplyToken`` of the
/// delivery signed for its own purpose: a reply or a click is honoured only for the
/// recipient it was sent to, only for what its link is for, and only until it expires.
public struct SignedLinks: LinkMaker {
    public var base: String
    let key: SigningKey

    public init(key: SigningKey, base: String = "https://chime.invalid") {
        self.key = key
        self.base = base
    }

    public func links(for notification: OutgoingNotification, medium: MessageLinks.Medium) -> MessageLinks {
        let token = ReplyToken(deliveryID: notification.deliveryID, fireDate: notification.fireDate)
        return MessageLinks(base: base, notification: notification, medium: medium, sign: token.signer(for: notification.recipient.id, key: key))
    }

    /// The VERP envelope sender's token of an email to `address` (``TokenPurpose/bounce(_:)``):
    /// valid as long as a reply would be. `deliveryID` is kept in it when it is a
    /// notification's (a generation and an instant), so a report names what bounced.
    public func bounceToken(deliveryID: String, recipient: String, address: String, now: Instant) -> String {
        let (generation, fire) = PendingNotification.parts(ofDelivery: deliveryID)
        let carried = fire > 0 && generation.utf8.count <= 36 ? deliveryID : ".0"
        return ReplyToken(deliveryID: carried, fireDate: now).signed(for: recipient, purpose: .bounce(Mailbox.key(of: address)), key: key)
    }
}
