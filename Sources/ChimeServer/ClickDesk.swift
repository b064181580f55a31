import ChimeActions
import ChimeCore
import ChimeReply
import Foundation

/// A press on a signed action, from a link's POST or a chat button, or a text typed in a
/// chat thread: the token checked, the action found, the response recorded once (or a
/// response awaiting confirmation confirmed), and carried out.
public struct ClickDesk: Sendable {
    /// Checks tokens, and reads typed text as email replies are read (numbers, titles,
    /// aliases, keywords).
    public let reader: ReplyDesk
    public let actions: ActionDesk

    public init(reader: ReplyDesk, actions: ActionDesk) {
        self.reader = reader
        self.actions = actions
    }

    var tokens: TokenChecker { reader.tokens }

    var configuration: Configuration { actions.configuration }
    var store: any NotificationStore { actions.store }

    /// What became of a press.
    public struct Outcome: Sendable {
        /// The HTTP status a link answers with: 200, 403 (forged), 404 (no such action),
        /// 410 (expired or gone).
        public var status: Int
        /// What to show the person.
        public var message: String
        /// The work left once the platform has its answer: carrying the action out. It
        /// returns what to tell the person of how that went (nil: nothing more to say), which
        /// a link's page shows, as a reply's answer would.
        public var then: (@Sendable () -> String?)?
        /// A text-input action's button was pressed: nothing is recorded yet, the person
        /// is asked for the text (in the message's thread, or Telegram's ForceReply).
        public var wantsText: TextPrompt?

        public init(status: Int, message: String, then: (@Sendable () -> String?)? = nil, wantsText: TextPrompt? = nil) {
            self.status = status
            self.message = message
            self.then = then
            self.wantsText = wantsText
        }

        /// A refusal (403, 404, 410), with its text.
        init(refused status: Int) {
            self.init(status: status, message: ClickDesk.refusalText(status))
        }
    }

    /// The status of a refused token: 403 forged, 410 expired or gone.
    static func status(of refusal: TokenChecker.Refusal) -> Int {
        refusal.outcome == .forgedToken ? 403 : 410
    }

    /// What a link or press refused with `status` tells the person.
    public static func refusalText(_ status: Int) -> String {
        switch status {
        case 404: "There is no such action."
        case 410: "This reminder is no longer open to answers."
        default: "This link is not valid."
        }
    }

    /// What to ask for a text-input action's text.
    public struct TextPrompt: Sendable {
        /// The action's title, in the recipient's language.
        public var title: String
        public var placeholder: String
        /// The action's number in the menu.
        public var number: Int
    }

    /// The action a press names: its number in the menu (what buttons carry), else as
    /// ``ActionDesk/action(named:in:)`` reads names.
    func action(_ name: String, in request: NotificationRequest) -> String? {
        if let number = Int(name), let actions = configuration.category(request.content.categoryIdentifier)?.actions,
           actions.indices.contains(number - 1) {
            return actions[number - 1].identifier
        }
        return actions.action(named: name, in: request)
    }

    /// The purposes a link or button naming `name` may carry: that action's own token,
    /// or the confirmation link of it sent in answer to a reply.
    func purposes(pressing name: String, in request: NotificationRequest?) -> [TokenPurpose] {
        guard let request else {
            // The notification is gone: only a name that is an identifier can be checked.
            let identifier = BuiltInAction(identifierOrShortName: name)?.rawValue ?? name
            return [.action(identifier), .confirm(identifier)]
        }
        guard let action = action(name, in: request) else { return [] }
        return [.action(action), .confirm(action)]
    }

    /// Handles a press; the carrying out is left in `then` for the caller to run once it
    /// has answered (chat platforms give three seconds). With `asksForText` (a platform
    /// the text can come back from), a press on a text-input action records nothing and
    /// asks for the text instead (``Outcome/wantsText``).
    ///
    /// The token must be the one made for this action (a link's or a button's), or a
    /// confirmation link's for it, which only confirms what waits.
    /// - Parameter chatUser: the platform's user id, for a chat press: when the
    ///   recipient's address on that channel names a user, only that user may answer.
    public func press(token: String, action name: String, channel: String, responder: String, chatUser: String? = nil,
                      userText: String? = nil, asksForText: Bool = false, now: Instant) throws -> Outcome {
        try respond(token: token, channel: channel, responder: responder, chatUser: chatUser, now: now,
                    accepting: { purposes(pressing: name, in: $0) }) { request in
            guard let action = action(name, in: request) else { return .refused(Outcome(refused: 404)) }
            let actions = configuration.category(request.content.categoryIdentifier)?.actions ?? []
            if userText == nil, asksForText, let index = actions.firstIndex(where: { $0.identifier == action }),
               let input = actions[index].textInput {
                let title = self.actions.title(of: action, in: request)
                return .refused(Outcome(status: 200, message: "Reply with your text for “\(title)”.",
                                        wantsText: TextPrompt(title: title, placeholder: input.placeholder, number: index + 1)))
            }
            return .chosen(action, userText)
        }
    }

    /// Handles a text typed in answer to a chat message: for the action pressed before
    /// (`action`, a text-input action takes the whole text), else read as an email
    /// reply's first line is, by ``ReplyDesk/match(_:for:)``.
    ///
    /// Only a platform's signed callback brings one, so the token may be the message's
    /// reply token or any of its buttons' (the person answers the message, whichever
    /// button it is read from); the chat user is checked as for a press.
    public func typed(_ text: String, token: String, action name: String?, channel: String, responder: String, chatUser: String,
                      now: Instant) throws -> Outcome {
        let accepting: (NotificationRequest?) -> [TokenPurpose] = { request in
            let actions = request.flatMap { self.configuration.category($0.content.categoryIdentifier)?.actions } ?? []
            return [.reply] + actions.map { .action($0.identifier) } + BuiltInAction.allCases.map { .action($0.rawValue) }
        }
        return try respond(token: token, channel: channel, responder: responder, chatUser: chatUser, now: now, accepting: accepting) { request in
            let pressed = name.flatMap { action($0, in: request) }
            if let pressed, configuration.category(request.content.categoryIdentifier)?.action(pressed)?.textInput != nil {
                return .chosen(pressed, text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            guard let match = reader.match(text, for: request) else {
                try store.record(InboundRecord(at: now, messageID: "", sender: responder, outcome: .unmatched,
                                               detail: "\(channel): \(text.prefix(200))", deliveryID: nil))
                return .refused(Outcome(status: 200, message: "“\(text.prefix(60))” names none of this reminder’s actions."))
            }
            return .chosen(match.action, match.userText)
        }
    }

    /// What a press or a text asks for, once its notification is known.
    enum Choice {
        case chosen(String, String?)
        case refused(Outcome)
    }

    /// The path every press and text takes: the token checked for the purposes it may
    /// serve, the chat user checked, the choice made, the response recorded once (or
    /// confirmed) and left to carry out. A confirmation link only confirms.
    private func respond(token: String, channel: String, responder: String, chatUser: String?, now: Instant,
                         accepting: (NotificationRequest?) -> [TokenPurpose],
                         choose: (NotificationRequest) throws -> Choice) throws -> Outcome {
        switch try tokens.check(Substring(token.lowercased()), now: now, accepting: accepting) {
        case nil:
            return Outcome(refused: 403)
        case .refused(let refusal)?:
            try store.record(InboundRecord(at: now, messageID: "", sender: responder, outcome: refusal.outcome,
                                                  detail: "\(channel): \(refusal.detail)", deliveryID: refusal.deliveryID))
            return Outcome(refused: Self.status(of: refusal))
        case .good(let token, let request, let purpose)?:
            if let chatUser, let address = configuration.recipient(request.recipient)?.addresses.first(where: { $0.channel == channel }),
               !address.value.isEmpty, address.value != chatUser {
                try store.record(InboundRecord(at: now, messageID: "", sender: chatUser, outcome: .forgedSender,
                                                      detail: "\(channel): \(chatUser) is not \(request.recipient)", deliveryID: token.deliveryID))
                return Outcome(status: 403, message: "This reminder is someone else's.")
            }
            let (action, userText): (String, String?)
            switch try choose(request) {
            case .refused(let outcome): return outcome
            case .chosen(let chosen, let text): (action, userText) = (chosen, text)
            }
            let title = actions.title(of: action, in: request)
            // A confirmation of an action that waited for proof (the link is the proof),
            // else a new response; a confirmation link confirms and does nothing else.
            let response: StoredResponse, message: String
            if let waiting = try store.confirm(deliveryID: token.deliveryID, action: action) {
                (response, message) = (waiting, "“\(title)” confirmed.")
            } else if case .confirm = purpose {
                return Outcome(status: 410, message: Self.usedConfirmation)
            } else {
                var fresh = StoredResponse(
                    deliveryID: token.deliveryID, identifier: request.identifier, recipient: request.recipient, action: action,
                    userText: userText, channel: channel, responder: responder, at: now, status: StoredResponse.carriedOut)
                guard let id = try store.record(fresh, from: nil) else {
                    return Outcome(status: 200, message: "“\(title)” was already done.")
                }
                fresh.id = id
                (response, message) = (fresh, "“\(title)” received." + (userText.map { " (\($0.prefix(60)))" } ?? ""))
            }
            return Outcome(status: 200, message: message) {
                (try? self.actions.carryOut(response, request: request, now: now))?.answer
            }
        }
    }

    /// What a confirmation link used a second time says.
    static let usedConfirmation = "This confirmation link has been used already."

    /// What a GET of an action link shows before anything is done: the action's title, or
    /// why the link does nothing.
    public func describe(token: String, action name: String, now: Instant) throws -> (status: Int, title: String?) {
        let (status, request) = try notification(of: token, now: now) { purposes(pressing: name, in: $0) }
        guard let request else { return (status, nil) }
        guard let action = action(name, in: request) else { return (404, nil) }
        return (200, actions.title(of: action, in: request))
    }

    /// One-click unsubscribe (RFC 8058) of the token's notification's category, for its
    /// recipient: with `apply` (a POST) the category is turned off, effective at the next
    /// fire; without (a GET), nothing changes. Returns the status and the category.
    ///
    /// The token is the message's unsubscribe token, or (for messages sent before tokens
    /// had purposes, whose List-Unsubscribe carried it) its reply token: both appear in
    /// its headers, and either may unsubscribe, which is all it may do.
    public func unsubscribe(token: String, apply: Bool, now: Instant) throws -> (status: Int, category: String?) {
        let (status, request) = try notification(of: token, now: now) { _ in [.unsubscribe, .reply] }
        guard let request else { return (status, nil) }
        let category = request.content.categoryIdentifier
        if apply { try store.setPreference(recipient: request.recipient, category: category, .off, at: now) }
        return (200, category)
    }

    /// A link's token checked for the purposes it may serve, recording nothing: its
    /// notification (status 200), else the status saying why not (403 forged, 410
    /// expired or gone).
    func notification(of token: String, now: Instant, accepting: (NotificationRequest?) -> [TokenPurpose]) throws
        -> (status: Int, request: NotificationRequest?) {
        switch try tokens.check(Substring(token.lowercased()), now: now, accepting: accepting) {
        case .good(_, let request, _)?: return (200, request)
        case .refused(let refusal)?: return (Self.status(of: refusal), nil)
        case nil: return (403, nil)
        }
    }
}
