/// Turns a fired notification into what an email transport writes. The transports keep
/// the mechanics (Maildir's tmp/new, SMTP's envelope); the renderer owns the content.
public protocol MessageRenderer: Sendable {
    /// The RFC 5322 message for one notification to one email address.
    func email(_ notification: OutgoingNotification) throws -> String
    /// The JSON body of a chat or webhook message for the notification's channel kind
    /// (the generic JSON object for a `file:` channel).
    func payload(_ notification: OutgoingNotification) throws -> [UInt8]
    /// The RFC 5322 message of a digest to one email address: `items` are its
    /// notifications as they would go to that address alone.
    func digestEmail(_ items: [OutgoingNotification], id: String, date: Instant) throws -> String
}
