import ChimeCore
import ChimeMIME
import Foundation

/// Makes the links and reply token of each rendered message.
public protocol LinkMaker: Sendable {
    /// The links of one message, all built on its token (made once per message), those
    /// `medium` carries.
    func links(for notification: OutgoingNotification, medium: MessageLinks.Medium) -> MessageLinks
}

extension LinkMaker {
    /// The links of one email.
    public func links(for notification: OutgoingNotification) -> MessageLinks {
        links(for: notification, medium: .email)
    }
}

/// The links and reply token one message carries, under a base URL, each link with a
/// token of its own purpose (``TokenPurpose``): `/a/TOKEN/ACTION` carries out that one
/// action (a foreground action opens its target instead), `/v/TOKEN` shows the reminder,
/// `/u/TOKEN` unsubscribes, `/p/TOKEN` is the preferences page. The reply token (Reply-To,
/// Message-ID) only identifies the message.
public struct MessageLinks: Sendable {
    /// What replaces `{token}` in a channel's `replyTo` and names the Message-ID.
    public var token: String
    /// Shows the reminder behind a login (what hidden previews offer instead).
    public var view: String
    /// The preferences page (`openSettingsFor`).
    public var preferences: String
    /// One-click unsubscribe (RFC 8058).
    public var unsubscribe: String
    let base: String
    let target: String?
    /// The message's token for a purpose.
    let sign: @Sendable (TokenPurpose) -> String

    /// What a message carries: an email, its reply token (Reply-To, Message-ID) and its
    /// preferences and unsubscribe links beside the others; a chat message, only the view
    /// link and its actions' (its ``token``, ``preferences`` and ``unsubscribe`` are
    /// empty). Each token is an HMAC: signing the three a chat message never shows was a
    /// twentieth of the time of a run firing into a `file:` channel.
    public enum Medium: Sendable {
        case email, chat
    }

    public init(base: String, notification: OutgoingNotification, medium: Medium = .email, sign: @escaping @Sendable (TokenPurpose) -> String) {
        self.base = base
        self.sign = sign
        view = "\(base)/v/\(sign(.view))"
        switch medium {
        case .email:
            token = sign(.reply)
            preferences = "\(base)/p/\(sign(.preferences))"
            // Its category named in the link and signed with it, so that the link still
            // unsubscribes once the reminder is gone (RFC 8058: a mail client's POST shows
            // the person no answer); a category named past what the header keeps one word,
            // the link that names none, whose token finds the reminder's category.
            unsubscribe = Self.unsubscribeURL(base: base, categories: [notification.request.content.categoryIdentifier], sign: sign)
                ?? "\(base)/u/\(sign(.unsubscribe))"
        case .chat:
            (token, preferences, unsubscribe) = ("", "", "")
        }
        // A relative target (stored before chime schedule refused one) is no link: the
        // action's own page stands in for it.
        target = notification.request.content.targetContentIdentifier.flatMap { TargetURL.isAbsolute($0) ? $0 : nil }
    }

    /// Performs `action` (or, for a foreground action, opens its target).
    public func action(_ action: NotificationAction) -> String {
        self.action(action, token: actionToken(action.identifier))
    }

    /// ``action(_:)`` with the action's token already made (``actionToken(_:)``).
    public func action(_ action: NotificationAction, token: String) -> String {
        if opensTarget(action), let target { return target }
        return Self.actionURL(base: base, token: token, identifier: action.identifier)
    }

    /// Whether an action's link opens the request's target rather than the action's page:
    /// a foreground action, where the request has a target.
    public func opensTarget(_ action: NotificationAction) -> Bool {
        action.options.contains(.foreground) && target != nil
    }

    /// The token that carries out one action, and only it: what `/a/` links and chat
    /// buttons carry.
    public func actionToken(_ identifier: String) -> String {
        sign(.action(identifier))
    }

    /// One-click unsubscribe (RFC 8058) from each of `categories` (a digest's or a thread's
    /// message of reminders in several): ``unsubscribeURL(base:categories:sign:)``. A
    /// message of more than ``mostCategories``, or whose list would make the link too long
    /// for its header, has its first reminder's ``unsubscribe`` link (the preferences page
    /// does the rest).
    public func unsubscribe(from categories: [String]) -> String {
        Self.unsubscribeURL(base: base, categories: categories, sign: sign) ?? unsubscribe
    }

    /// `/u/TOKEN?c=ID,ID…`, each identifier percent-encoded, the token signed for the list
    /// (``TokenPurpose/unsubscribeFrom(_:)``); nil for no category, more than
    /// ``mostCategories``, or a link too long for `List-Unsubscribe` to keep it one word
    /// (``MIMEComposer/longestWord`` with its `<>`: encoded, mail clients ignore it).
    /// Reminders of no category (identifier "") are an empty item, first once sorted
    /// (`?c=,shop`): left out, a digest mixing them with others had its first reminder's
    /// link, which stopped one category and kept the digest coming.
    static func unsubscribeURL(base: String, categories: [String], sign: (TokenPurpose) -> String) -> String? {
        guard !categories.isEmpty, categories.count <= mostCategories else { return nil }
        let link = "\(base)/u/\(sign(.unsubscribeFrom(categories)))?\(categoriesField)=" + categories.map { percentEncoded($0) }.joined(separator: ",")
        return link.utf8.count + 2 <= MIMEComposer.longestWord ? link : nil
    }

    /// The query field of ``unsubscribe(from:)``'s list.
    static let categoriesField = "c"
    /// The most categories one unsubscribe link names, and the longest query read for them.
    public static let mostCategories = 64, longestCategoriesQuery = 65_536

    /// The categories an unsubscribe link's query names (``unsubscribe(from:)``); nil when
    /// it names none, or is not such a list (empty, too long, badly encoded).
    public static func categories(unsubscribeQuery query: Substring?) -> [String]? {
        guard let query, !query.isEmpty, query.utf8.count <= longestCategoriesQuery else { return nil }
        let prefix = categoriesField + "="
        guard let field = query.split(separator: "&").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        let encoded = field.dropFirst(prefix.count).split(separator: ",", omittingEmptySubsequences: false)
        // One empty item at most: the reminders of no category.
        guard encoded.count <= mostCategories, encoded.count(where: \.isEmpty) <= 1 else { return nil }
        var categories: [String] = []
        for part in encoded {
            // No identifier of chime.xml holds a control character (`%00` among them).
            guard let category = part.removingPercentEncoding, !category.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { return nil }
            categories.append(category)
        }
        return categories
    }

    /// Performs one of Chime's built-in answers by its short name (`keep`, `off`…).
    public func builtIn(_ shortName: String) -> String {
        let identifier = BuiltInAction(identifierOrShortName: shortName)?.rawValue ?? shortName
        return Self.actionURL(base: base, token: actionToken(identifier), identifier: shortName)
    }

    /// `BASE/KIND/CHANNEL`: where a platform posts its button presses (Mattermost's
    /// `integration.url`), which `chime serve` checks by the channel's own proof.
    public func callback(_ kind: ChannelKind, channel: String) -> String {
        "\(base)/\(kind.rawValue)/\(percentEncoded(channel))"
    }

    /// `BASE/a/TOKEN/ACTION`: what `chime serve` shows on GET and carries out on POST.
    public static func actionURL(base: String, token: String, identifier: String) -> String {
        "\(base)/a/\(token)/\(percentEncoded(identifier))"
    }

    /// The token and action of an ``actionURL(base:token:identifier:)`` (a Telegram
    /// message's link, read back); nil for any other URL.
    public static func actionLink(_ url: String) -> (token: String, action: String?)? {
        guard let range = url.range(of: "/a/") else { return nil }
        let parts = url[range.upperBound...].split(separator: "/")
        return parts.count == 2 ? (String(parts[0]), parts[1].removingPercentEncoding) : nil
    }
}

/// Links of the right shape with the bare delivery id for every token, not signed: what
/// `chime preview` and the rendering tests show (``SignedLinks`` in ChimeReply signs them).
public struct UnsignedLinks: LinkMaker {
    public var base: String

    public init(base: String = "https://chime.invalid") {
        self.base = base
    }

    public func links(for notification: OutgoingNotification, medium: MessageLinks.Medium) -> MessageLinks {
        let deliveryID = notification.deliveryID
        var links = MessageLinks(base: base, notification: notification, medium: medium) { _ in deliveryID }
        if medium == .email { links.preferences = "\(base)/p/\(percentEncoded(notification.recipient.id))" }
        return links
    }
}

/// RFC 3986 percent-encoding of everything but unreserved characters (also what RFC
/// 6068 asks of `mailto:` fields), and the ASCII characters of `kept`, if any (a
/// `mailto:` address keeps RFC 6068's `some-delims`). Foundation's
/// `addingPercentEncoding` with the same set gives the same text at three times the cost
/// (3.0 µs against 0.9 for a subject line, measured), and every email calls this several
/// times.
public func percentEncoded(_ text: String, keeping kept: String = "") -> String {
    // An upper-case hex digit (RFC 3986 prefers them).
    func hex(_ value: UInt8) -> UInt8 { value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10 }
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            result.append(byte)
        case _ where byte < 0x80 && kept.utf8.contains(byte):
            result.append(byte)
        default:
            // Byte by byte: an array literal here was an allocation for each byte escaped.
            result.append(UInt8(ascii: "%"))
            result.append(hex(byte >> 4))
            result.append(hex(byte & 0x0F))
        }
    }
    return String(decoding: result, as: UTF8.self)
}
