/// Turns a fired notification into what an email transport writes. The transports keep
/// the mechanics (Maildir's tmp/new, SMTP's envelope); the renderer owns the content.
public protocol MessageRenderer: Sendable {
    /// The RFC 5322 message for one notification to one email address.
    func email(_ notification: OutgoingNotification) throws -> String
    /// The JSON body of a chat or webhook message for the notification's channel kind
    /// (the generic JSON object for a `file:` channel).
    func payload(_ notification: OutgoingNotification) throws -> [UInt8]
    /// The RFC 5322 message grouping several notifications to one email address: `items`
    /// are the notifications as they would go to that address alone.
    func groupEmail(_ items: [OutgoingNotification], id: String, date: Instant, kind: GroupKind) throws -> String
    /// The chat body grouping several notifications for one chat address.
    func groupPayload(_ items: [OutgoingNotification], kind: GroupKind) throws -> [UInt8]
    /// The double opt-in request (``OptIn``) to one email address: `notification` is the
    /// recipient's opt-in request under its delivery id.
    func optInEmail(_ notification: OutgoingNotification) throws -> String
}

/// What a grouped message is.
public enum GroupKind: Sendable {
    /// A recipient's daily digest of what was kept for it.
    case digest
    /// The notifications of one thread that fired during the recipient's group wait.
    case thread
}
