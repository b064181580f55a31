/// A way out: an SMTP server, a Maildir, a chat webhook.
public struct Channel: Hashable, Sendable {
    /// What recipients' addresses refer to.
    public var id: String
    public var url: ChannelURL
    /// The `From:` of email channels, e.g. `Reminders <bot@example.org>`.
    public var from: String?
    /// The `Reply-To:` of email channels; `{token}` stands for the signed reply token.
    public var replyTo: String?

    public init(id: String, url: ChannelURL, from: String? = nil, replyTo: String? = nil) {
        self.id = id
        self.url = url
        self.from = from
        self.replyTo = replyTo
    }
}
