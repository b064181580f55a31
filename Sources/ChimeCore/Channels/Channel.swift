/// A way out (an SMTP server, a Maildir, a chat webhook), or a way in: an IMAP mailbox
/// replies are fetched from.
public struct Channel: Hashable, Sendable {
    /// What recipients' addresses refer to.
    public var id: String
    public var url: ChannelURL
    /// The `From:` of email channels, e.g. `Reminders <bot@example.org>`.
    public var from: String?
    /// The `Reply-To:` of email channels; `{token}` stands for the signed reply token.
    public var replyTo: String?
    /// SMTP's envelope sender (`MAIL FROM`); `{token}` stands for a token issued for the
    /// one address a message goes to (VERP). Nil: ``defaultReturnPath``.
    public var returnPath: String?
    /// Timeouts, concurrency, rate and retries.
    public var policy: DeliveryPolicy
    /// A CA bundle (PEM) to verify the server with instead of the system's: for a
    /// private CA, or a test's own certificate.
    public var caFile: String?
    /// Generic webhooks: the key of the `X-Chime-Signature` header (HMAC-SHA256 of the
    /// body), so the receiver knows the POST is Chime's.
    public var signingSecret: String?
    /// IMAP channels: the mailbox handled messages are moved to; nil leaves them,
    /// flagged `\Seen`.
    public var moveTo: String?
    /// Mattermost channels: a bot's access token, to read which thread a message an
    /// outgoing webhook brings is in (the REST API's `root_id`).
    public var apiToken: String?

    public init(id: String, url: ChannelURL, from: String? = nil, replyTo: String? = nil, returnPath: String? = nil,
                policy: DeliveryPolicy? = nil, caFile: String? = nil, signingSecret: String? = nil, moveTo: String? = nil,
                apiToken: String? = nil) {
        self.signingSecret = signingSecret
        self.moveTo = moveTo
        self.apiToken = apiToken
        self.id = id
        self.url = url
        self.from = from
        self.replyTo = replyTo
        self.returnPath = returnPath
        self.policy = policy ?? .defaults(for: url.kind)
        self.caFile = caFile
    }

    /// The address messages come from: the `from` mailbox's address (`chime@localhost`
    /// when there is none), SMTP's envelope sender and the default reply address.
    public var envelopeFrom: String { Mailbox.envelopeAddress(of: from ?? "chime@localhost") }

    /// Whether presses on this channel's buttons come back verified: a Slack channel needs
    /// its app's signing secret (`secret`), a Discord channel its application's public
    /// key, a Telegram channel the secret token of its bot's webhook, without which their
    /// buttons are links (a Telegram press would reach a `/telegram/` path that refuses it,
    /// the button spinning and nothing recorded).
    public var takesPresses: Bool {
        ![.slack, .discord, .telegram].contains(url.kind) || !(signingSecret ?? "").isEmpty
    }

    /// Where a person types a text-input action's text, for this chat channel's messages.
    public enum TextEntry: Sendable {
        /// In the platform, sent back verified: a Slack thread or a Telegram reply (with
        /// the channel's `secret`), a Mattermost thread (its outgoing webhook's `secret`
        /// and an `apiToken` to read the thread).
        case reply
        /// On the `/a/` page a link button opens: Discord's and Teams' buttons, and a
        /// Slack or Telegram channel's without `secret`.
        case page
        /// Nowhere: a press records the action without text.
        case none
    }

    /// Where a text-input action's text is typed on this chat channel.
    public var textEntry: TextEntry {
        switch url.kind {
        case .slack: takesPresses ? .reply : .page
        case .telegram: takesPresses ? .reply : .page
        case .mattermost: signingSecret != nil && apiToken != nil ? .reply : .none
        // Discord with an application's public key: a modal dialog, in Discord.
        case .discord: takesPresses ? .none : .page
        case .msteams: .page
        default: .none
        }
    }

    /// `bounce+{token}@` the reply domain (where `replyTo` sends replies, which the MTA
    /// already pipes to `chime ingest`), else the `from` address's domain.
    public var defaultReturnPath: String {
        let replyDomain = replyTo.map { Mailbox.domain(of: $0.replacingOccurrences(of: "{token}", with: "t")) }
        return "bounce+{token}@" + (replyDomain.flatMap { $0 == "chime.invalid" ? nil : $0 } ?? Mailbox.domain(of: envelopeFrom))
    }

    /// ``returnPath`` (or ``defaultReturnPath``) as an envelope names it (the address
    /// alone, its domain in ASCII: ``Mailbox/envelopeAddress(of:)``), cut at its
    /// `{token}`s: the envelope sender of a message carrying the VERP token `t` is these
    /// parts joined by `t`. Cut once per channel by the courier, not once per message.
    public var returnPathParts: [String] {
        Mailbox.envelopeAddress(of: returnPath ?? defaultReturnPath).components(separatedBy: "{token}")
    }
}
