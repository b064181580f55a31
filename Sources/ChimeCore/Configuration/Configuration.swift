import Foundation

/// Everything `chime.xml` declares: categories, channels and recipients.
public struct Configuration: Hashable, Sendable {
    public var categories: [NotificationCategory]
    public var channels: [Channel]
    public var recipients: [Recipient] {
        didSet { recipientPositions = Self.positions(of: recipients) }
    }
    /// Where each recipient id first appears in ``recipients``: firing looks its recipient
    /// up for every notification, and a search through the list made a run with many
    /// recipients slow in proportion to their number.
    private var recipientPositions: [String: Int] = [:]
    /// The pending limit of recipients that set none (`<recipients pendingLimit="64">`);
    /// nil: no limit, unlike iOS's 64.
    public var defaultPendingLimit: Int?
    /// Passwords and webhook tokens, whether in the URL or read from the environment or
    /// a file: blanked out of every message Chime prints or records.
    public var secrets: Set<String> = [] {
        didSet { redactionOrder = Self.redactionOrder(secrets) }
    }
    /// The secrets ``redact(_:)`` blanks, longest first, worked out once: it runs for
    /// every delivery attempt.
    private var redactionOrder: [String] = []
    /// Transfers (webhooks and SMTP messages) in flight at once over all channels
    /// (`<channels concurrency>`).
    public var concurrency = 32
    /// How replies are taken and answered.
    public var replies = ReplySettings()
    /// The keys of the HTTP API (`<api>`); none: every `/v1` route answers 401.
    public var apiKeys: [APIKey] = []
    /// Whether a recipient's `id` or `timeZone` was read from the environment or a file:
    /// then the file's bytes alone do not say who is where.
    public var recipientsReadIndirectly = false
    /// Where each channel's `caFile` is named (channel id → the attribute), for
    /// ``fileProblems``.
    public var caFileLocations: [String: SourceLocation] = [:]
    /// Where a secret (a channel URL's password or webhook token, a `secret`) is written
    /// in the file itself rather than given as `${NAME}` or `file:PATH`: `chime check`
    /// says so of a file every user of the machine may read.
    public var inlineSecrets: [SourceLocation] = []

    public init(categories: [NotificationCategory] = [], channels: [Channel] = [], recipients: [Recipient] = [], defaultPendingLimit: Int? = nil) {
        self.categories = categories
        self.channels = channels
        self.recipients = recipients
        self.defaultPendingLimit = defaultPendingLimit
        recipientPositions = Self.positions(of: recipients)
    }

    private static func positions(of recipients: [Recipient]) -> [String: Int] {
        Dictionary(recipients.enumerated().map { ($1.id, $0) }) { first, _ in first }
    }

    /// The pending limit of each recipient that has one, its own or the default.
    public var pendingLimits: [String: Int] {
        var limits: [String: Int] = [:]
        for recipient in recipients {
            if let limit = recipient.pendingLimit ?? defaultPendingLimit { limits[recipient.id] = limit }
        }
        return limits
    }

    public func category(_ identifier: String) -> NotificationCategory? {
        categories.first { $0.identifier == identifier }
    }

    public func channel(_ id: String) -> Channel? {
        channels.first { $0.id == id }
    }

    public func recipient(_ id: String) -> Recipient? {
        recipientPositions[id].map { recipients[$0] }
    }

    /// The text with every secret of the configuration blanked out. Values under three
    /// characters are too short to be secrets and too common to blank.
    public func redact(_ text: String) -> String {
        SignedTokens.blanked(redactionOrder.reduce(text) { $0.replacingOccurrences(of: $1, with: "(secret)") })
    }

    private static func redactionOrder(_ secrets: Set<String>) -> [String] {
        secrets.filter { $0.count >= 3 }.sorted { $0.count > $1.count }
    }

    /// The number of actions over all categories.
    public var actionCount: Int { categories.reduce(0) { $0 + $1.actions.count } }

    /// `2 categories, 7 actions, 3 channels, 2 recipients`.
    public var summary: String {
        [
            Self.count(categories.count, "category", "categories"),
            Self.count(actionCount, "action", "actions"),
            Self.count(channels.count, "channel", "channels"),
            Self.count(recipients.count, "recipient", "recipients"),
        ].joined(separator: ", ")
    }

    private static func count(_ n: Int, _ one: String, _ other: String) -> String {
        "\(n) \(n == 1 ? one : other)"
    }
}
