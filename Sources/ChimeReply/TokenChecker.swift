import ChimeCore

/// Checks reply tokens, wherever they come from (a reply's addresses, an action link, a
/// chat button): signed with the server key for the recipient their delivery went to, and
/// not expired.
public struct TokenChecker: Sendable {
    public let configuration: Configuration
    public let store: any NotificationStore
    let key: SigningKey

    public init(configuration: Configuration, store: any NotificationStore, key: SigningKey) {
        self.configuration = configuration
        self.store = store
        self.key = key
    }

    /// Why a token was refused, as the inbound record says it.
    public struct Refusal: Sendable {
        public var outcome: InboundRecord.Outcome
        public var detail: String
        public var deliveryID: String?
    }

    /// What a token is worth.
    public enum TokenCheck: Sendable {
        /// Signed for the recipient its delivery went to, and unexpired.
        case good(ReplyToken, NotificationRequest)
        case refused(Refusal)
    }

    /// Checks a token from a reply, a link or a chat button: its signature for the
    /// recipient its delivery went to (in constant time), then its expiry. Nil when it is
    /// not a token at all.
    public func check(_ candidate: Substring, now: Instant) throws -> TokenCheck? {
        guard let (token, payload, tag) = ReplyToken.read(candidate) else { return nil }
        func signed(for recipient: String) -> Bool {
            ReplyToken.signatureMatches(payload: payload, tag: tag, recipient: recipient, key: key)
        }
        guard let request = try store.request(ofDelivery: token.deliveryID) else {
            // Ours (signed for one of the recipients) but for a notification since
            // replaced or removed; else forged.
            return .refused(configuration.recipients.contains { signed(for: $0.id) }
                ? Refusal(outcome: .unknownNotification, detail: "delivery \(token.deliveryID) is not known", deliveryID: token.deliveryID)
                : Refusal(outcome: .forgedToken, detail: "signature does not match", deliveryID: nil))
        }
        if !signed(for: request.recipient) {
            return .refused(Refusal(outcome: .forgedToken, detail: "signature does not match", deliveryID: nil))
        }
        if now > token.expires {
            return .refused(Refusal(outcome: .expiredToken, detail: "expired \(token.expires.rfc3339(offset: 0))", deliveryID: token.deliveryID))
        }
        return .good(token, request)
    }


    /// True when `candidate` is a token signed for one of the configured recipients,
    /// whatever it names: a delivery report quoting one is about Chime's mail.
    public func isOurs(_ candidate: Substring) -> Bool {
        guard let (_, payload, tag) = ReplyToken.read(candidate) else { return false }
        return configuration.recipients.contains { ReplyToken.signatureMatches(payload: payload, tag: tag, recipient: $0.id, key: key) }
    }
}
