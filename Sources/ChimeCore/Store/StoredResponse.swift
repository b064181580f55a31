/// A person's answer to a notification, as `UNNotificationResponse`: which action they
/// chose, with what text, where, and when.
public struct StoredResponse: Hashable, Sendable {
    /// The order it was recorded in.
    public var id: Int64
    /// The notification occurrence answered.
    public var deliveryID: String
    /// Its request's identifier.
    public var identifier: String
    public var recipient: String
    /// The category's action identifier, or one of ``BuiltInAction``.
    public var action: String
    /// What a text-input action was given.
    public var userText: String? { didSet { userText = userText?.storable } }
    /// The channel the answer came through (`mail`, a chat channel).
    public var channel: String
    /// Who answered: the sender's address, or the chat user.
    public var responder: String { didSet { responder = responder.storable } }
    /// When it was taken: answered, confirmed, or taken again.
    public var at: Instant
    /// `carrying out` from when it is taken (recorded, confirmed or taken again) until its
    /// carrying out ends: then `carried out`, or `failed` when a hook failed. `awaiting
    /// confirmation` for an action that needs proof first. One still `carrying out`
    /// ``abandonedAfter`` seconds after it was taken was cut short (its process killed
    /// between recording it and finishing its hooks): answering again, or `chime respond
    /// --retry`, takes it again, as a failed one.
    public var status: String
    public static let carryingOut = "carrying out"
    public static let carriedOut = "carried out"
    public static let awaitingConfirmation = "awaiting confirmation"
    public static let failed = "failed"
    /// Seconds after which a response still `carrying out` is taken for cut short: ten
    /// minutes, far beyond a hook command's run (its timeout) and the answer that follows.
    public static let abandonedAfter: Int64 = 600

    /// The text of a response awaiting confirmation, when it has one: what its
    /// confirmation would carry out, which whoever had the reply address could have
    /// written. Nil for any other response.
    public var waitingText: String? {
        guard status == Self.awaitingConfirmation, let userText, !userText.isEmpty else { return nil }
        return userText
    }

    /// Whether answering again at `now` takes it again (its carrying out failed, or was
    /// cut short), as ``ResponseStore/record(_:from:)`` does; else the answer stands.
    public func isTakenAgain(at now: Instant) -> Bool {
        status == Self.failed || (status == Self.carryingOut && at.seconds <= now.seconds - Self.abandonedAfter)
    }

    /// What carrying it out gave: each hook's exit or queueing, the snooze's new fire.
    public var result: String { didSet { result = result.storable } }

    public init(id: Int64 = 0, deliveryID: String, identifier: String, recipient: String, action: String, userText: String?,
                channel: String, responder: String, at: Instant, status: String, result: String = "") {
        self.result = result.storable
        self.id = id
        self.deliveryID = deliveryID
        self.identifier = identifier
        self.recipient = recipient
        self.action = action
        self.userText = userText?.storable
        self.channel = channel
        self.responder = responder.storable
        self.at = at
        self.status = status
    }
}

/// The JSON of a response: what `chime responses --json` prints and what hooks receive.
extension StoredResponse: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, identifier, recipient, deliveryID, actionIdentifier, userText, channel, responder, at, status, result
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(recipient, forKey: .recipient)
        try container.encode(deliveryID, forKey: .deliveryID)
        try container.encode(action, forKey: .actionIdentifier)
        try container.encode(userText, forKey: .userText)
        try container.encode(channel, forKey: .channel)
        try container.encode(responder, forKey: .responder)
        try container.encode(at, forKey: .at)
        try container.encode(status, forKey: .status)
        try container.encode(result, forKey: .result)
    }
}

/// One message that came in (a reply, an auto-reply, a bounce, a forgery) and what Chime
/// made of it: every inbound message leaves one, whether it was acted on or not. Its
/// JSON is what `chime replies --json` prints.
public struct InboundRecord: Hashable, Sendable, Encodable {
    public enum Outcome: String, Hashable, Sendable, CaseIterable, Encodable {
        /// A response was recorded (see its status).
        case responded
        /// The same answer to the same notification came before: not carried out again.
        case replayed
        /// Written by a machine (auto-reply, out of office): ignored.
        case autoReply = "auto-reply"
        /// A delivery report: the addresses it names as failed are marked undeliverable,
        /// when its return path carries their VERP token.
        case bounce
        /// A read receipt (RFC 8098 disposition notification): machine mail, ignored.
        case receipt
        /// Over `<replies maxMessageSize>`: recorded, read no further, acted on by nothing.
        case tooLarge = "too-large"
        /// No token of ours anywhere in it.
        case noToken = "no-token"
        /// A token whose signature does not match: forged or damaged.
        case forgedToken = "forged-token"
        case expiredToken = "expired-token"
        /// A good token, sent by someone else than the person it was issued to.
        case forgedSender = "forged-sender"
        /// The notification it answers is no longer known (replaced, removed).
        case unknownNotification = "unknown-notification"
        /// The reply named no action of the category.
        case unmatched
        /// Not an email at all.
        case unreadable
    }

    public var id: Int64
    public var at: Instant
    public var messageID: String { didSet { messageID = messageID.storable } }
    /// The `From` address, normalized.
    public var sender: String { didSet { sender = sender.storable } }
    public var outcome: Outcome
    /// What the outcome is about: the action, the reason, the addresses.
    public var detail: String { didSet { detail = detail.storable } }
    public var deliveryID: String?

    public init(id: Int64 = 0, at: Instant, messageID: String, sender: String, outcome: Outcome, detail: String, deliveryID: String?) {
        self.id = id
        self.at = at
        self.messageID = messageID.storable
        self.sender = sender.storable
        self.outcome = outcome
        self.detail = detail.storable
        self.deliveryID = deliveryID
    }
}

/// `deliveryID` always there, null for a message that named no delivery (unreadable, no
/// token), as `chime replies --help` lists it: a key that comes and goes breaks a script's
/// `.deliveryID`.
extension InboundRecord {
    private enum CodingKeys: String, CodingKey { case id, at, messageID, sender, outcome, detail, deliveryID }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(at, forKey: .at)
        try container.encode(messageID, forKey: .messageID)
        try container.encode(sender, forKey: .sender)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(detail, forKey: .detail)
        try container.encode(deliveryID, forKey: .deliveryID)
    }
}

/// Thrown by ``ResponseStore/record(_:from:)`` when the same action's response to the
/// same delivery is being carried out now (taken less than
/// ``StoredResponse/abandonedAfter`` seconds before). Nothing is recorded: the answer,
/// given again later (an MTA's retry after `chime ingest` exits 75, the next `chime ingest
/// --maildir`), is then a replay if the carrying out ended, or takes the response again
/// if it was cut short.
public struct ResponseInFlight: Error, Hashable, Sendable, CustomStringConvertible {
    public var deliveryID: String
    public var action: String
    /// When the response being carried out was taken.
    public var since: Instant

    public init(deliveryID: String, action: String, since: Instant) {
        self.deliveryID = deliveryID
        self.action = action
        self.since = since
    }

    public var description: String { "\(action) is being carried out for \(deliveryID) since \(since)" }
}

/// An inbound message that was answered, known by the delivery it answers and its own
/// `Message-ID` (``ResponseStore/markAnswered(_:)``): the same message delivered again is
/// not answered twice.
public struct AnsweredMessage: Hashable, Sendable {
    public var deliveryID: String
    public var messageID: String

    public init(deliveryID: String, messageID: String) {
        self.deliveryID = deliveryID
        self.messageID = messageID
    }

    /// The answered message `record` stands for; nil without a delivery or a `Message-ID`
    /// (such a message cannot be told when it comes again, and is answered each time).
    public init?(_ record: InboundRecord) {
        guard let deliveryID = record.deliveryID, !deliveryID.isEmpty, !record.messageID.isEmpty else { return nil }
        self.init(deliveryID: deliveryID, messageID: record.messageID)
    }
}
