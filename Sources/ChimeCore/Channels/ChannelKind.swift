/// The kinds of channel, named by their URL scheme.
public enum ChannelKind: String, CaseIterable, Sendable, Codable {
    case smtp, smtps
    case maildir, file
    case slack, discord, mattermost, msteams, telegram
    case json, jsons
    /// A mailbox replies are fetched from (`chime fetch`); nothing is sent to it.
    case imap, imaps

    /// Email channels render RFC 5322 messages; the others render a webhook or JSON body.
    public var isEmail: Bool {
        switch self {
        case .smtp, .smtps, .maildir: true
        default: false
        }
    }

    /// Local channels write to a path on this machine and need no host.
    public var isLocal: Bool { self == .maildir || self == .file }

    /// Webhook channels POST to the platform's endpoint.
    public var isWebhook: Bool { !isEmail && !isLocal && !isInbound }

    /// Inbound channels are mailboxes Chime reads replies from.
    public var isInbound: Bool { self == .imap || self == .imaps }

    /// `smtp://` and `imap://` upgrade to TLS with STARTTLS (`?starttls=`); their `s`
    /// kinds are TLS from the first byte.
    public var upgradesWithSTARTTLS: Bool { self == .smtp || self == .imap }

    /// The port of a mail server's kind when its URL names none.
    public var defaultPort: Int? {
        switch self {
        case .smtp: 25
        case .smtps: 465
        case .imap: 143
        case .imaps: 993
        default: nil
        }
    }

    /// Channels whose messages go out over the network, through the outbox.
    public var sendsOverNetwork: Bool { !isLocal && !isInbound }

    /// The scheme of the real endpoint: chat kinds stand for `https`, `json` for `http`.
    var transportScheme: String? {
        switch self {
        case .smtp, .smtps, .maildir, .file, .imap, .imaps: nil
        case .json: "http"
        default: "https"
        }
    }

    /// Every scheme, for messages listing the valid ones.
    public static var schemeList: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
