import ChimeCore

/// Checks tokens, wherever they come from (a reply's addresses, a link, a chat button):
/// signed with the server key for the recipient their delivery went to and for a purpose
/// the caller accepts, and not expired.
public struct TokenChecker: Sendable {
    public let configuration: Configuration
    public let store: any ResponseStore
    let key: SigningKey

    public init(configuration: Configuration, store: any ResponseStore, key: SigningKey) {
        self.configuration = configuration
        self.store = store
        self.key = key
    }

    /// Why a token was refused, as the inbound record says it.
    public struct Refusal: Sendable {
        public var outcome: InboundRecord.Outcome
        public var detail: String
        public var deliveryID: String?
        /// For a genuine token of a notification no longer known, unexpired: the recipient
        /// it is signed for. A purpose that names all it acts on (an unsubscribe link's
        /// categories) may still be served for them.
        public var signer: String? = nil
    }

    /// What a token is worth.
    public enum TokenCheck: Sendable {
        /// Signed for the recipient its delivery went to, for `purpose`, and unexpired.
        case good(ReplyToken, NotificationRequest, purpose: TokenPurpose)
        case refused(Refusal)
    }

    /// Checks a token: its signature for the recipient its delivery went to and one of
    /// the purposes `accepted` allows for the notification (each compared in constant
    /// time), then its expiry. Nil when it is not a token at all.
    /// - Parameter accepted: the purposes this use of the token takes, given the
    ///   notification it names (a link's action is known only once its category is);
    ///   nil when that notification is gone.
    public func check(_ candidate: Substring, now: Instant, accepting accepted: (NotificationRequest?) -> [TokenPurpose]) throws -> TokenCheck? {
        guard let (token, payload, tag) = ReplyToken.read(candidate) else { return nil }
        guard let request = try store.request(ofDelivery: token.deliveryID) else {
            // Ours (signed for one of the recipients, for a purpose this use takes) but for
            // a notification since replaced or removed; else forged. Without the request,
            // only the purposes that do not depend on it can be tried.
            let purposes = accepted(nil)
            let signed = configuration.recipients.lazy.compactMap { recipient in
                purposes.first { ReplyToken.signatureMatches(payload: payload, tag: tag, recipient: recipient.id, purpose: $0, key: key) }
                    .map { (recipient: recipient.id, purpose: $0) }
            }.first
            return .refused(signed != nil
                ? Refusal(outcome: .unknownNotification, detail: "delivery \(token.deliveryID) is not known", deliveryID: token.deliveryID,
                          signer: signed.flatMap { Self.hasExpired(token, for: $0.purpose, at: now) ? nil : $0.recipient })
                : Refusal(outcome: .forgedToken, detail: "signature does not match", deliveryID: nil))
        }
        guard let purpose = accepted(request).first(where: {
            ReplyToken.signatureMatches(payload: payload, tag: tag, recipient: request.recipient, purpose: $0, key: key)
        }) else {
            return .refused(Refusal(outcome: .forgedToken, detail: "signature does not match", deliveryID: nil))
        }
        if Self.hasExpired(token, for: purpose, at: now) {
            return .refused(Refusal(outcome: .expiredToken, detail: "expired \(token.expires.rfc3339(offset: 0))", deliveryID: token.deliveryID))
        }
        return .good(token, request, purpose: purpose)
    }

    /// Whether `token` no longer serves `purpose` at `now`: past its expiry, unless the
    /// purpose outlives it (``TokenPurpose/outlivesExpiry``).
    static func hasExpired(_ token: ReplyToken, for purpose: TokenPurpose, at now: Instant) -> Bool {
        now > token.expires && !purpose.outlivesExpiry
    }

    /// Checks a token that is to serve one purpose only.
    public func check(_ candidate: Substring, now: Instant, for purpose: TokenPurpose) throws -> TokenCheck? {
        try check(candidate, now: now) { _ in [purpose] }
    }

    /// A new token for `purpose` on the delivery of `token`, signed for `recipient`, that
    /// expires at `expires`: what a confirmation link carries.
    public func issue(_ purpose: TokenPurpose, like token: ReplyToken, recipient: String, expires: Instant) -> String {
        ReplyToken(deliveryID: token.deliveryID, expires: expires).signed(for: recipient, purpose: purpose, key: key)
    }

    /// The ids of the configured recipients of each address, by its key
    /// (``Mailbox/key(of:)``): what ``bounced(_:addresses:owners:now:)`` looks addresses up in.
    public func recipientsByAddress() -> [String: [String]] {
        var owners: [String: [String]] = [:]
        for recipient in configuration.recipients {
            for address in recipient.addresses { owners[Mailbox.key(of: address.value), default: []].append(recipient.id) }
        }
        return owners
    }

    /// The addresses among `addresses` (keys) that `candidate` was issued for as a VERP
    /// envelope sender (``TokenPurpose/bounce(_:)``) to a configured recipient with that
    /// address (`owners`, ``recipientsByAddress()``), and unexpired at `now`. The
    /// delivery need not exist any more: a report may come after its notification was
    /// removed.
    public func bounced(_ candidate: Substring, addresses: [String], owners: [String: [String]], now: Instant) -> [String] {
        guard let (token, payload, tag) = ReplyToken.read(candidate), now <= token.expires else { return [] }
        return addresses.filter { address in
            owners[address]?.contains { ReplyToken.signatureMatches(payload: payload, tag: tag, recipient: $0, purpose: .bounce(address), key: key) } ?? false
        }
    }
}
