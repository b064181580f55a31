import ChimeCore
import ChimeMIME
import ChimeXML
import Crypto
import Foundation

/// What one inbound message became: its record, and for a person's reply, the response
/// and where an answer goes.
public struct Reply: Sendable {
    /// The thread an answer joins: the reply's channel, address, subject and ids.
    public struct Thread: Sendable {
        public var channel: String
        /// The address the reply came from, which is the recipient's.
        public var address: String
        public var subject: String
        /// The reply's Message-ID and References, without their angle brackets: msg-ids
        /// by their syntax only (``MailAddress/messageIDs(_:)``), never decoded text.
        public var messageID: String
        public var references: [String]
    }

    public var record: InboundRecord
    /// The response recorded now (with its id); nil when none was, or when it was replayed,
    /// but for a replay of one still awaiting confirmation (given a new link).
    public var response: StoredResponse?
    /// The text-input action whose text was over ``NotificationAction/TextInput/maximumBytes``
    /// (recorded `too-large`; the person is told).
    public var textTooLong: String?
    /// The text-input action named without a text ("4" alone; recorded `unmatched`, acted
    /// on by nothing, and the person told how to add it, as a page refuses an empty text).
    public var textMissing: String?
    /// The notification's request, once the token was good.
    public var request: NotificationRequest?
    /// The reply token the reply carried, once it was good (what the answer's Reply-To
    /// carries again).
    public var token: String?
    /// For a response awaiting confirmation: the token of its confirmation link, good for
    /// that action only, once, for ``ReplyDesk/confirmationValidity``.
    public var confirmation: String?
    /// Where to answer: set only for a verified sender (never for a machine or a forgery).
    public var thread: Thread?
}

/// A message read by ``ReplyDesk/prepare(_:)``, for ``ReplyDesk/handle(_:now:)-(PreparedMessage,_)``.
public struct PreparedMessage: Sendable {
    /// Its size in bytes.
    let size: Int
    /// The message parsed; nil when it is too large to read or not an RFC 5322 message.
    let mail: ParsedMail?
    /// What kind of machine wrote it, or nil for a person (its subject aside).
    var machine: MachineMail?
    /// The out-of-office phrase of its subject: an auto-reply's, unless the reminder's
    /// title says it too (known once its token is read).
    var outOfOfficeSubject: String?
    /// The token-shaped candidates it carries (``ReplyDesk/candidates(_:)``).
    var candidates: [Substring] = []
    /// A person's new text, read when there are candidates; else read when needed.
    var text: String?

    init(size: Int, mail: ParsedMail?) {
        self.size = size
        self.mail = mail
    }

    /// A message read no further than its size: recorded as too large when over
    /// `<replies maxMessageSize>`, else as unreadable.
    public static func unread(size: Int) -> PreparedMessage {
        PreparedMessage(size: size, mail: nil)
    }
}

/// Takes inbound email and turns each message into a response, or into a record of why
/// not: machines are ignored, tokens checked (signature, expiry, sender), the person's
/// new text read and matched to an action of the category, and each action taken at most
/// once per delivery.
public struct ReplyDesk: Sendable {
    public let configuration: Configuration
    public let store: any ResponseStore & PolicyStore
    /// Checks the tokens replies carry.
    public let tokens: TokenChecker
    /// Chime's "reply above this line" in every locale, folded once
    /// (``ReplyText/foldedMarkers(_:)``).
    let foldedMarkers: [String]
    /// Each category's matcher, its titles folded in every locale once for all messages,
    /// made when a message of that category first needs it: an MTA pipe's `chime ingest`
    /// reads one reply, and made them all (most of its start) where it needs one.
    let matchers: [String: Lazily<ActionMatcher>]

    /// - Parameters:
    ///   - titles: every translation of an action title, from the templates' locales.
    ///   - builtIns: every translation of the built-ins' reply words (`snooze`, `done`…).
    ///   - otherWords: every translation of the built-ins' other words ("Remind me later").
    ///   - namesTime: whether a snooze's text names a time (the snooze reader's, ChimeActions').
    ///   - menuForms: the menu line and the destructive note in every locale (``ActionMatcher``).
    public init(configuration: Configuration, store: any ResponseStore & PolicyStore, key: SigningKey,
                titles: @escaping @Sendable (String) -> [String], builtIns: [BuiltInAction: [String]] = [:],
                otherWords: [BuiltInAction: [String]] = [:], namesTime: @escaping @Sendable (String) -> Bool = { _ in true }, markers: [String],
                menuForms: ActionMatcher.MenuForms = ActionMatcher.englishMenuForms) {
        self.configuration = configuration
        self.store = store
        tokens = TokenChecker(configuration: configuration, store: store, key: key)
        foldedMarkers = ReplyText.foldedMarkers(markers)
        func lazyMatcher(_ category: NotificationCategory) -> Lazily<ActionMatcher> {
            Lazily { ActionMatcher(category: category, titles: titles, builtIns: builtIns, otherWords: otherWords, namesTime: namesTime, menuForms: menuForms) }
        }
        var matchers = Dictionary(configuration.categories.map { ($0.identifier, lazyMatcher($0)) }) { first, _ in first }
        // Requests without a category (or of one no longer configured) take the built-ins
        // alone; opt-in requests, confirm alone. No configured category has either name.
        for identifier in ["", OptIn.category] {
            matchers[identifier] = lazyMatcher(NotificationCategory(identifier: identifier))
        }
        self.matchers = matchers
    }

    /// What a text typed in a chat thread chooses, read as an email reply's new text is.
    public func match(_ text: String, for request: NotificationRequest) -> ActionMatcher.Match? {
        matcher(for: request).match(text: text)
    }

    /// The matcher of the request's category.
    private func matcher(for request: NotificationRequest) -> ActionMatcher {
        (matchers[request.content.categoryIdentifier] ?? matchers[""]!).value
    }

    /// How long a confirmation link sent in answer to a reply works: an hour.
    public static let confirmationValidity: Int64 = 3_600

    /// Handles one message and records what became of it.
    /// - Throws: only when the store cannot be written (a temporary failure: the MTA
    ///   should try again).
    @discardableResult
    public func handle(_ bytes: [UInt8], now: Instant) throws -> Reply {
        try handle(prepare(bytes), now: now)
    }

    /// Handles a message ``prepare(_:)`` read, and records what became of it.
    /// - Throws: only when the store cannot be written.
    @discardableResult
    public func handle(_ message: PreparedMessage, now: Instant) throws -> Reply {
        Self.counted(try take(message, now: now))
    }

    /// Reads a message as far as it can be read without the store: parsed, told from a
    /// machine's, and, when it may be a person's reply (it carries a token-shaped
    /// address or reference), its new text taken out of the quote. Safe on any thread:
    /// `chime ingest` reads messages ahead of the thread that records them.
    public func prepare(_ bytes: [UInt8]) -> PreparedMessage {
        // Too large, or not a message: recorded by its size alone.
        guard bytes.count <= configuration.replies.maxMessageSize, let mail = ParsedMail(bytes: bytes), !mail.rawValues("From").isEmpty else {
            return .unread(size: bytes.count)
        }
        var message = PreparedMessage(size: bytes.count, mail: mail)
        message.machine = MachineMail.classify(mail, readingSubject: false)
        if message.machine == nil { message.outOfOfficeSubject = MachineMail.outOfOfficePhrase(in: mail.header("Subject") ?? "") }
        message.candidates = candidates(mail)
        if message.machine == nil, !message.candidates.isEmpty { message.text = newText(of: mail) }
        return message
    }

    /// What the person wrote: the reply's text without the quote, signature and markers.
    private func newText(of mail: ParsedMail) -> String {
        ReplyText.extract(ReplyText.body(of: mail), foldedMarkers: foldedMarkers)
    }

    /// What ``handle(_:now:)`` does, uncounted.
    private func take(_ message: PreparedMessage, now: Instant) throws -> Reply {
        guard message.size <= configuration.replies.maxMessageSize else { return try recordTooLarge(size: message.size, now: now) }
        guard let mail = message.mail else {
            let record = InboundRecord(at: now, messageID: "", sender: "", outcome: .unreadable,
                                       detail: "not an RFC 5322 message with a From (or a MIME header of more than \(ParsedMail.maximumParameters) parameters)", deliveryID: nil)
            try store.record(record)
            return Reply(record: record)
        }
        // Exactly one From holding exactly one mailbox; else no sender at all.
        let froms = mail.rawValues("From")
        let sender = froms.count == 1 ? MailAddress.singleMailbox(froms[0]) : nil
        let messageID = MailAddress.messageIDs(mail.rawValues("Message-ID").first ?? "").first ?? ""
        var reply = Reply(record: InboundRecord(at: now, messageID: messageID, sender: sender ?? "", outcome: .noToken, detail: "", deliveryID: nil))
        // A genuine reply (its sender the person its token was issued to) shows the
        // address takes mail again: the mark is cleared with the reply's record, in one
        // transaction.
        var genuine: String?
        func recording<T>(_ body: () throws -> T) throws -> T {
            try store.together {
                if let genuine { try store.clearUndeliverable([genuine]) }
                return try body()
            }
        }
        func finish(_ outcome: InboundRecord.Outcome, _ detail: String) throws -> Reply {
            reply.record.outcome = outcome
            reply.record.detail = detail
            try recording { try store.record(reply.record) }
            return reply
        }

        switch message.machine {
        case .autoReply(let why)?: return try finish(.autoReply, why)
        case .receipt?: return try finish(.receipt, "a read receipt")
        case .reaction(let emoji)?: return try finish(.receipt, "a reaction (\(emoji)), read as a receipt")
        case .bounce(let failed)?: return try finish(.bounce, try bounced(failed, mail: mail, now: now))
        case nil: break
        }

        // The token: in the plus-address the reply went to, else in the Message-ID it
        // answers. The first that is ours and verifies wins; else the first refusal says why.
        var refusal: TokenChecker.Refusal?
        var found: (token: ReplyToken, request: NotificationRequest, text: Substring)?
        for candidate in message.candidates {
            switch try tokens.check(candidate, now: now, for: .reply) {
            case .good(let token, let request, _)?: found = (token, request, candidate)
            case .refused(let why)?: refusal = refusal ?? why
            case nil: continue
            }
            if found != nil { break }
        }
        guard let (token, request, text) = found else {
            if let phrase = message.outOfOfficeSubject { return try finish(.autoReply, "subject: \(phrase)") }
            if let refusal {
                reply.record.deliveryID = refusal.deliveryID
                return try finish(refusal.outcome, refusal.detail)
            }
            return try finish(.noToken, "no reply token in the addresses or references")
        }
        reply.record.deliveryID = token.deliveryID
        // An out-of-office subject, unless it is the reminder's own title's words.
        if let phrase = message.outOfOfficeSubject,
           MachineMail.outOfOfficePhrase(in: mail.header("Subject") ?? "", title: request.content.title) != nil {
            return try finish(.autoReply, "subject: \(phrase)")
        }

        // The sender must be the person the token was issued to.
        let recipient = configuration.recipient(request.recipient)
        let addresses = (recipient?.addresses ?? []).filter { address in
            configuration.channel(address.channel)?.url.kind.isEmail ?? false
        }
        let senderKey = sender.map(Mailbox.key(of:))
        guard let sender, let address = addresses.first(where: { Mailbox.key(of: $0.value) == senderKey }) else {
            return try finish(.forgedSender, "\(sender ?? "a From: that is not one mailbox") is not \(request.recipient)'s address")
        }
        reply.request = request
        reply.token = String(text).lowercased()
        let references = MailAddress.messageIDs(mail.rawValues("References").first ?? mail.rawValues("In-Reply-To").first ?? "")
        reply.thread = Reply.Thread(channel: address.channel, address: address.value, subject: mail.header("Subject") ?? "",
                                    messageID: messageID, references: references)
        // As marks are kept: an internationalized domain in its ASCII form.
        genuine = senderKey

        let category = configuration.category(request.content.categoryIdentifier)
        let body = message.text ?? newText(of: mail)
        // A forward sent to Chime passes the reminder on: the words above it are for
        // whoever reads it ("3", "Erledigt" were carried out), not an answer.
        let subject = mail.header("Subject") ?? ""
        if let prefix = ForwardSubject.prefix(of: subject, title: request.content.title) {
            return try finish(.unmatched, "a forwarded message (\(prefix)), not a reply")
        }
        guard let match = matcher(for: request).match(text: body, subject: subject, title: request.content.title) else {
            return try finish(.unmatched, body.isEmpty ? "(empty reply)" : String(body.prefix(200)))
        }
        let action = category?.action(match.action)
        // A text-input action's text bounded as a page's or a chat thread's is: a reply of
        // megabytes went whole to hooks, webhooks and the API. Recorded, acted on by
        // nothing, and the person told.
        if action?.textInput != nil, let text = match.userText, text.utf8.count > NotificationAction.TextInput.maximumBytes {
            reply.textTooLong = match.action
            return try finish(.tooLarge, "a text of \(text.utf8.count) bytes for \(match.action), over the \(NotificationAction.TextInput.maximumBytes) a response takes")
        }
        if action?.textInput != nil, match.userText == nil {
            reply.textMissing = match.action
            return try finish(.unmatched, "no text for \(match.action), a text-input action")
        }
        let waits = needsConfirmation(action, in: category, mail: mail, sender: sender)
        let response = StoredResponse(
            deliveryID: token.deliveryID, identifier: request.identifier, recipient: request.recipient, action: match.action,
            userText: match.userText, channel: address.channel, responder: sender, at: now,
            status: waits ? StoredResponse.awaitingConfirmation : StoredResponse.carryingOut)
        reply.record.outcome = .responded
        reply.record.detail = match.action
        if let id = try recording({ try store.record(response, from: reply.record) }) {
            reply.response = response
            reply.response?.id = id
            if waits {
                reply.confirmation = tokens.issue(.confirm(match.action), like: token, recipient: request.recipient,
                                                  expires: now + Self.confirmationValidity)
            }
        } else {
            reply.record.outcome = .replayed
            // Another answer while one waits for its confirmation link (which may have
            // expired, or gone to someone who wrote first with the reply token): a new link
            // for the response that waits, its text as it stands, rather than "already
            // done" and an action stuck. Answered as a replay is, once a while at most.
            if waits, let waiting = try store.response(deliveryID: token.deliveryID, action: match.action),
               waiting.status == StoredResponse.awaitingConfirmation {
                reply.response = waiting
                reply.confirmation = tokens.issue(.confirm(match.action), like: token, recipient: request.recipient,
                                                  expires: now + Self.confirmationValidity)
            }
        }
        return reply
    }

    private func recordTooLarge(size: Int, now: Instant) throws -> Reply {
        let record = InboundRecord(at: now, messageID: "", sender: "", outcome: .tooLarge,
                                   detail: "\(size) bytes, over the limit of \(configuration.replies.maxMessageSize)", deliveryID: nil)
        try store.record(record)
        return Reply(record: record)
    }

    /// Whether an action waits for a confirmation link: a destructive one (unless its
    /// category opts out), and one that needs proof the email cannot give.
    func needsConfirmation(_ action: NotificationAction?, in category: NotificationCategory?, mail: ParsedMail, sender: String) -> Bool {
        guard let action else { return false }
        if action.options.contains(.destructive), category?.confirmsDestructive ?? true { return true }
        return action.options.contains(.authenticationRequired)
            && !AuthenticationResults.prove(sender, in: mail, trusted: configuration.replies.trustedAuthServIDs)
    }

    /// Marks the addresses a hard bounce names undeliverable, each only when the report
    /// came back to a VERP return path whose token was issued for that very address (a
    /// forged report, or one about a message Chime did not send there, silences no one).
    /// Returns the record's detail.
    private func bounced(_ failed: [String], mail: ParsedMail, now: Instant) throws -> String {
        // Each address once, each token once and at most ``mostCandidates`` of them: every
        // token is checked against every address, so a report naming one address a
        // thousand times to a thousand made-up tokens took a minute (quadratic).
        var named = Set<String>()
        let failed = failed.filter { named.insert($0).inserted }
        guard !failed.isEmpty else { return "no failed recipient" }
        var candidates = Candidates()
        for name in ["To", "Delivered-To", "X-Original-To", "Envelope-To"] {
            for value in mail.rawValues(name) { candidates.add(TokenScan.plusAddressed(value)) }
        }
        // Only configured addresses can have been sent to: each is looked up once, and only
        // those are checked against the tokens (a report naming 250,000 made-up addresses
        // had each compared with every configured one, for every token).
        let owners = tokens.recipientsByAddress()
        let configured = failed.filter { owners[$0] != nil }
        var proven = Set<String>()
        for candidate in candidates.tokens where !configured.isEmpty {
            proven.formUnion(tokens.bounced(candidate, addresses: configured, owners: owners, now: now))
        }
        let marked = failed.filter(proven.contains)
        let ignored = failed.filter { !proven.contains($0) }
        if !marked.isEmpty { try store.markUndeliverable(marked, reason: "hard bounce", at: now) }
        let parts = (marked.isEmpty ? [] : [marked.joined(separator: ", ") + " marked undeliverable"])
            + (ignored.isEmpty ? [] : [Self.listed(ignored) + " (no return-path token issued for it: ignored)"])
        return parts.joined(separator: "; ")
    }

    /// At most ten of `addresses`, and how many more: what a record says of a report's
    /// addresses that nothing was done about.
    static func listed(_ addresses: [String]) -> String {
        let shown = addresses.prefix(10).joined(separator: ", ")
        return addresses.count > 10 ? shown + " and \(addresses.count - 10) more" : shown
    }

    /// Reply tokens the message may carry, best first: plus-addresses it was sent to,
    /// then msg-ids it answers.
    /// The token-shaped candidates of a message, at most ``mostCandidates`` distinct
    /// ones: the plus-addresses it was delivered to (the receiving MTA's `Delivered-To`
    /// first), then those it names, then the message it answers, then its references
    /// newest first. Each costs store lookups before its signature can fail,
    /// so a message stuffed with token-shaped addresses gets no more than these.
    private func candidates(_ mail: ParsedMail) -> [Substring] {
        var candidates = Candidates()
        for name in ["Delivered-To", "X-Original-To", "To", "Cc"] {
            for value in mail.rawValues(name) { candidates.add(TokenScan.plusAddressed(value)) }
        }
        for value in mail.rawValues("In-Reply-To") { candidates.add(TokenScan.messageIDs(value)) }
        for value in mail.rawValues("References") { candidates.add(TokenScan.messageIDs(value).reversed()) }
        return candidates.tokens
    }

    /// Token candidates in the order found, each once, at most ``mostCandidates``.
    private struct Candidates {
        private(set) var tokens: [Substring] = []
        private var seen = Set<Substring>()

        mutating func add(_ found: [Substring]) {
            for token in found where tokens.count < ReplyDesk.mostCandidates && seen.insert(token).inserted { tokens.append(token) }
        }
    }

    /// How many token candidates one message gets looked up.
    static let mostCandidates = 32
}
