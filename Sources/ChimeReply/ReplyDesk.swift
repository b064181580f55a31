import ChimeCore
import ChimeMIME
import ChimeXML
import Crypto
import Foundation

/// Takes inbound email and turns each message into a response, or into a record of why
/// not: machines are ignored, tokens checked (signature, expiry, sender), the person's
/// new text read and matched to an action of the category, and each action taken at most
/// once per delivery.
public struct ReplyDesk: Sendable {
    public let configuration: Configuration
    public let store: any NotificationStore
    let key: SigningKey
    /// Chime's "reply above this line" in every locale.
    let markers: [String]
    /// Each category's matcher, its titles folded in every locale once for all messages.
    let matchers: [String: ActionMatcher]

    /// - Parameter titles: every translation of an action title, from the templates' locales.
    public init(configuration: Configuration, store: any NotificationStore, key: SigningKey,
                titles: (String) -> [String], markers: [String]) {
        self.configuration = configuration
        self.store = store
        self.key = key
        self.markers = markers
        matchers = Dictionary(configuration.categories.map { ($0.identifier, ActionMatcher(category: $0, titles: titles)) }) { first, _ in first }
    }

    /// Handles one message and records what became of it.
    /// - Throws: only when the store cannot be written (a temporary failure: the MTA
    ///   should try again).
    @discardableResult
    public func handle(_ bytes: [UInt8], now: Instant) throws -> InboundRecord {
        guard let mail = ParsedMail(bytes: bytes), mail.header("From") != nil else {
            let record = InboundRecord(at: now, messageID: "", sender: "", outcome: .unreadable, detail: "not an RFC 5322 message", deliveryID: nil)
            try store.record(record)
            return record
        }
        let sender = Mailbox.address(of: mail.header("From") ?? "").lowercased()
        var record = InboundRecord(at: now, messageID: mail.header("Message-ID") ?? "", sender: sender, outcome: .noToken, detail: "", deliveryID: nil)
        func finish(_ outcome: InboundRecord.Outcome, _ detail: String) throws -> InboundRecord {
            record.outcome = outcome
            record.detail = detail
            try store.record(record)
            return record
        }

        switch MachineMail.classify(mail) {
        case .autoReply(let why)?: return try finish(.autoReply, why)
        case .bounce(let failed)?: return try finish(.bounce, failed.joined(separator: ", "))
        case nil: break
        }

        // The token: in the plus-address the reply went to, else in the Message-ID it
        // answers. The first that is ours and verifies wins; else the first refusal says why.
        var refusal: (InboundRecord.Outcome, String, String?)?
        var found: (token: ReplyToken, request: NotificationRequest)?
        for candidate in candidates(mail) {
            guard let (token, payload, tag) = ReplyToken.read(candidate) else { continue }
            func signed(for recipient: String) -> Bool {
                ReplyToken.signatureMatches(payload: payload, tag: tag, recipient: recipient, key: key)
            }
            guard let request = try store.request(ofDelivery: token.deliveryID) else {
                // Ours (signed for one of the recipients) but for a notification since
                // replaced or removed; else forged.
                refusal = refusal ?? (configuration.recipients.contains { signed(for: $0.id) }
                    ? (.unknownNotification, "delivery \(token.deliveryID) is not known", token.deliveryID)
                    : (.forgedToken, "signature does not match", nil))
                continue
            }
            if !signed(for: request.recipient) {
                refusal = refusal ?? (.forgedToken, "signature does not match", nil)
            } else if now > token.expires {
                refusal = refusal ?? (.expiredToken, "expired \(token.expires.rfc3339(offset: 0))", token.deliveryID)
            } else {
                found = (token, request)
            }
            if found != nil { break }
        }
        guard let (token, request) = found else {
            if let (outcome, detail, delivery) = refusal {
                record.deliveryID = delivery
                return try finish(outcome, detail)
            }
            return try finish(.noToken, "no reply token in the addresses or references")
        }
        record.deliveryID = token.deliveryID

        // The sender must be the person the token was issued to.
        let recipient = configuration.recipient(request.recipient)
        let addresses = (recipient?.addresses ?? []).filter { address in
            configuration.channel(address.channel)?.url.kind.isEmail ?? false
        }
        guard let address = addresses.first(where: { Mailbox.address(of: $0.value).lowercased() == sender }) else {
            return try finish(.forgedSender, "\(sender) is not \(request.recipient)'s address")
        }

        let category = configuration.category(request.content.categoryIdentifier)
        let text = ReplyText.extract(body(of: mail), markers: markers)
        guard let match = matchers[request.content.categoryIdentifier]?.match(text: text, subject: mail.header("Subject") ?? "") else {
            return try finish(.unmatched, text.isEmpty ? "(empty reply)" : String(text.prefix(200)))
        }
        let action = category?.actions.first { $0.identifier == match.action }
        let guarded = action.map { !$0.options.intersection([.authenticationRequired, .destructive]).isEmpty } ?? false
        let response = StoredResponse(
            deliveryID: token.deliveryID, identifier: request.identifier, recipient: request.recipient, action: match.action,
            userText: match.userText, channel: address.channel, responder: sender, at: now,
            status: guarded ? "awaiting confirmation" : "carried out")
        record.outcome = .responded
        record.detail = match.action
        if try !store.record(response, from: record) { record.outcome = .replayed }
        return record
    }

    /// Reply tokens the message may carry, best first.
    private func candidates(_ mail: ParsedMail) -> [Substring] {
        var tokens: [Substring] = []
        for name in ["To", "Delivered-To", "X-Original-To", "Cc"] {
            for header in mail.headers where header.name.lowercased() == name.lowercased() {
                // local+TOKEN@domain
                for match in header.value.matches(of: /[A-Za-z0-9._%-]+\+([A-Za-z2-7]{20,})@/) { tokens.append(match.output.1) }
            }
        }
        for name in ["In-Reply-To", "References"] {
            for match in (mail.header(name) ?? "").matches(of: /<([A-Za-z2-7]{20,})@/) { tokens.append(match.output.1) }
        }
        return tokens
    }

    /// The reply's text: its first plain-text part that is not an attachment, else its
    /// HTML made text.
    private func body(of mail: ParsedMail) -> String {
        if let plain = mail.parts.first(where: { $0.contentType == "text/plain" && $0.filename == nil }) {
            let text = plain.decodedText
            return plain.parameters["format"]?.lowercased() == "flowed"
                ? ReplyText.unflowed(text, deleteSpace: plain.parameters["delsp"]?.lowercased() == "yes") : text
        }
        if let html = mail.parts.first(where: { $0.contentType == "text/html" && $0.filename == nil }) {
            return HTMLText.text(of: html.text.map { Array($0.utf8) } ?? html.data)
        }
        return ""
    }
}
