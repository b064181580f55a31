import ChimeActions
import ChimeCore
import ChimeReply
import Foundation
import Logging

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

    /// The configuration the desk was made with (`chime serve` fires with it too).
    public var configuration: Configuration { actions.configuration }
    var store: any NotificationStore { actions.store }

    /// What became of a press.
    public struct Outcome: Sendable {
        /// What it came to, which each face says its own way (a link's page by its HTTP
        /// status, ``Verdict/httpStatus``; a chat platform by the message alone).
        /// 410 (expired or gone).
        public var verdict: Verdict
        /// What to show the person.
        public var message: String
        /// The work left once the platform has its answer: carrying the action out. It
        /// returns what to tell the person of how that went (nil: nothing more to say), which
        /// a link's page shows, as a reply's answer would.
        public var then: (@Sendable () -> String?)?
        /// A text-input action's text is asked for, nothing recorded yet: after a chat
        /// press, in the message's thread or Telegram's ForceReply; on a link's page, in
        /// its text field.
        public var wantsText: TextPrompt?
        /// Whom the message speaks to: a link's page is in their language, headed by the
        /// reminder.
        public var addressee = Addressee()
        /// Taken before (or being carried out): nothing new was recorded. A platform's
        /// retry of a callback it had sent is then left unanswered.
        public var replayed = false

        public init(verdict: Verdict, message: String, then: (@Sendable () -> String?)? = nil, wantsText: TextPrompt? = nil,
                    addressee: Addressee = Addressee()) {
            self.verdict = verdict
            self.message = message
            self.then = then
            self.wantsText = wantsText
            self.addressee = addressee
        }

        /// A refusal (403, 404, 410), with its text.
        init(refused verdict: Verdict) {
            self.init(verdict: verdict, message: ClickDesk.refusalText(verdict))
        }
    }

    /// What a press, a typed text or a link came to: one result for every way a response
    /// comes in (link, chat button, chat text), which the HTTP layer maps to its statuses.
    public enum Verdict: Sendable, Equatable {
        /// Taken (recorded, confirmed, replayed, or asked for its text).
        case answered
        /// Not Chime's (a button value it did not write), or text missing where it is needed.
        case malformed
        /// A token that does not verify, or a press by someone who is not the recipient.
        case forged
        /// A genuine token naming no action of its notification.
        case noSuchAction
        /// A genuine token whose recipient the configuration no longer has.
        case unknownRecipient
        /// A genuine token too old, or its notification gone, or a confirmation used.
        case gone
        /// A text-input action's text over its limit.
        case tooLong
    }

    /// The verdict on a refused token: forged, or expired or gone.
    static func verdict(of refusal: TokenChecker.Refusal) -> Verdict {
        refusal.outcome == .forgedToken ? .forged : .gone
    }

    /// Whom a page or an answer speaks to: the recipient's language (as they chose it)
    /// and the reminder as they know it; English and no reminder when the link names no
    /// notification it may show (a forged one).
    public struct Addressee: Sendable {
        public var locale = "en"
        public var reminder: String?

        public init(locale: String = "en", reminder: String? = nil) {
            self.locale = locale
            self.reminder = reminder
        }
    }

    /// The request's recipient and reminder, for what is said to them.
    func addressee(_ request: NotificationRequest) -> Addressee {
        Addressee(locale: actions.locale(of: request), reminder: actions.reminderTitle(of: request))
    }

    /// A key's text for the addressee, its values in order, or the English fallback.
    public func say(_ key: String, _ values: [String], to addressee: Addressee, fallback: String) -> String {
        (try? actions.text(key, values.map(FormatArgument.string), addressee.locale, fallback: fallback)) ?? fallback
    }

    /// A refusal (403, 404, 410) of a link or press: in the recipient's language and naming
    /// the reminder when its notification is known and the link genuine (expired, or naming
    /// no action of it); else in English, naming nothing.
    func refused(_ verdict: Verdict, request: NotificationRequest?) -> Outcome {
        guard let request, verdict != .forged else { return Outcome(refused: verdict) }
        let to = addressee(request), reminder = to.reminder ?? ""
        let message = verdict == .noSuchAction
            ? say("refusal.noAction", [reminder], to: to, fallback: "\(reminder): there is no such action.")
            : say("refusal.gone", [reminder], to: to, fallback: "\(reminder): this reminder is no longer open to answers.")
        return Outcome(verdict: verdict, message: message, addressee: to)
    }

    /// What a refused token's page or answer says: 403 forged, 410 expired or gone, in
    /// the recipient's language for an expired one.
    func outcome(of refusal: TokenChecker.Refusal) -> Outcome {
        refused(Self.verdict(of: refusal), request: expired(refusal))
    }

    /// The notification of a genuine token refused for its age, which its recipient may
    /// be told about.
    func expired(_ refusal: TokenChecker.Refusal) -> NotificationRequest? {
        guard refusal.outcome == .expiredToken, let delivery = refusal.deliveryID else { return nil }
        return try? store.request(ofDelivery: delivery)
    }

    /// What a link or press refused as `verdict` tells a person it does not know.
    public static func refusalText(_ verdict: Verdict) -> String {
        switch verdict {
        case .noSuchAction, .unknownRecipient: "There is no such action."
        case .gone: "This reminder is no longer open to answers."
        default: "This link is not valid."
        }
    }

    /// The action a press names: its number in the menu (what buttons carry), else as
    /// ``ActionDesk/action(named:in:)`` reads names.
    func action(_ name: String, in request: NotificationRequest) -> String? {
        if let number = Self.menuNumber(name), let actions = configuration.category(request.content.categoryIdentifier)?.actions,
           actions.indices.contains(number - 1) {
            return actions[number - 1].identifier
        }
        return actions.action(named: name, in: request)
    }

    /// A button's action number as Chime writes it: one to three digits, from 1. Read
    /// before the token's signature is checked (the purposes it may carry depend on the
    /// action it names), so anything else, a sign or a number past `Int`'s range, is no
    /// number (`Int.min - 1` had trapped and ended the server).
    static func menuNumber(_ name: String) -> Int? {
        let digits = name.utf8
        guard (1...3).contains(digits.count), digits.first != UInt8(ascii: "0"),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(name)
    }

    /// The purposes a link or button naming `name` may carry: that action's own token,
    /// or the confirmation link of it sent in answer to a reply.
    func purposes(pressing name: String, in request: NotificationRequest?) -> [TokenPurpose] {
        guard let request else {
            // The notification is gone, and its category with it: the name is an
            // identifier, or a button's number, which may name the action at that place
            // in any category's menu (so that a genuine press on a removed reminder is told
            // it is gone rather than taken for a forgery).
            var identifiers = [BuiltInAction(identifierOrShortName: name)?.rawValue ?? name]
            if let number = Self.menuNumber(name) {
                for category in configuration.categories where category.actions.indices.contains(number - 1) {
                    let identifier = category.actions[number - 1].identifier
                    if !identifiers.contains(identifier) { identifiers.append(identifier) }
                }
            }
            return identifiers.flatMap { [TokenPurpose.action($0), .confirm($0)] }
        }
        guard let action = action(name, in: request) else { return [] }
        return [.action(action), .confirm(action)]
    }

    /// Handles a press; the carrying out is left in `then` for the caller to run once it
    /// has answered (chat platforms give three seconds). A text-input action takes its
    /// text as `text` says (``TextSource``); any other action takes none.
    ///
    /// The token must be the one made for this action (a link's or a button's), or a
    /// confirmation link's for it, which only confirms what waits.
    /// - Parameter chatUser: the platform's user id, for a chat press: when the
    ///   recipient's address on that channel names a user, only that user may answer.
    public func press(token: String, action name: String, channel: String, responder: String, chatUser: String? = nil,
                      text: TextSource = .none, now: Instant) throws -> Outcome {
        try respond(token: token, channel: channel, responder: responder, chatUser: chatUser, now: now,
                    accepting: { purposes(pressing: name, in: $0) }) { request, token in
            guard let action = action(name, in: request) else { return .refused(refused(.noSuchAction, request: request)) }
            guard let prompt = textPrompt(action, in: request) else { return .chosen(action, nil) }
            if case .asked = text {
                // Its answer stands (done, under way, or waiting to be confirmed): the
                // press is answered as any other action's press again, not asked for a
                // text that would then be dropped.
                // A text waiting for confirmation is not the recipient's answer until they
                // confirm it by its own link: the press is asked for its text.
                if let standing = try store.response(deliveryID: token.deliveryID, action: action), !standing.isTakenAgain(at: now),
                   standing.waitingText == nil {
                    return .chosen(action, nil)
                }
                return .refused(Outcome(verdict: .answered, message: ask(prompt, .reply), wantsText: prompt, addressee: prompt.addressee))
            }
            let (typed, refusal) = typed(text, for: prompt)
            return .chosen(action, typed, refusingNew: refusal)
        }
    }

    /// Handles a text typed in answer to a chat message: for the action pressed before
    /// (`action`, a text-input action takes the whole text), else read as an email
    /// reply's first line is, by ``ReplyDesk/match(_:for:)``.
    ///
    /// Only a platform's signed callback brings one, so the token may be any of the
    /// message's buttons' (the person answers the message, whichever button it is read
    /// from), never the reply token every email header carries; the chat user is checked
    /// as for a press.
    public func typed(_ text: String, token: String, action name: String?, channel: String, responder: String, chatUser: String,
                      now: Instant) throws -> Outcome {
        let accepting: (NotificationRequest?) -> [TokenPurpose] = { request in
            let actions = request.flatMap { self.configuration.category($0.content.categoryIdentifier)?.actions } ?? []
            return actions.map { .action($0.identifier) } + BuiltInAction.allCases.map { .action($0.rawValue) }
        }
        return try respond(token: token, channel: channel, responder: responder, chatUser: chatUser, now: now, accepting: accepting) { request, _ in
            // A text-input action takes the text as its page's field does: trimmed, not
            // empty, at most ``maximumTextBytes``; else the person is asked again.
            if let pressed = name.flatMap({ action($0, in: request) }), let prompt = textPrompt(pressed, in: request) {
                let (typed, refusal) = typed(.typed(text), for: prompt)
                return .chosen(pressed, typed, refusingNew: refusal)
            }
            guard let match = reader.match(text, for: request) else {
                try store.record(InboundRecord(at: now, messageID: "", sender: responder, outcome: .unmatched,
                                               detail: "\(channel): \(text.prefix(200))", deliveryID: nil))
                let to = addressee(request), typed = ActionDesk.shownText(text)
                return .refused(Outcome(verdict: .answered, message: say("press.unmatched", [typed, to.reminder ?? ""], to: to,
                                                                  fallback: "\(to.reminder ?? ""): “\(typed)” names none of this reminder’s actions."),
                                        addressee: to))
            }
            // A text-input action's text typed in a thread, bounded as its page's is.
            if let text = match.userText, let prompt = textPrompt(match.action, in: request) {
                let (typed, refusal) = typed(.typed(text), for: prompt)
                return .chosen(match.action, typed, refusingNew: refusal)
            }
            return .chosen(match.action, match.userText)
        }
    }

    /// What a press or a text asks for, once its notification is known.
    enum Choice {
        /// An action and its text; `refusingNew`: the answer instead of a new response (a
        /// text-input action's page sent without its text), while confirming what waits
        /// needs no text.
        case chosen(String, String?, refusingNew: Outcome? = nil)
        case refused(Outcome)
    }

    /// The path every press and text takes: the token checked for the purposes it may
    /// serve, the chat user checked, the choice made, the response recorded once (or
    /// confirmed) and left to carry out. A confirmation link only confirms.
    private func respond(token: String, channel: String, responder: String, chatUser: String?, now: Instant,
                         accepting: (NotificationRequest?) -> [TokenPurpose],
                         choose: (NotificationRequest, ReplyToken) throws -> Choice) throws -> Outcome {
        var (outcome, status) = try answer(token: token, channel: channel, responder: responder, chatUser: chatUser, now: now,
                                           accepting: accepting, choose: choose)
        // Counted as email replies are, by the way it came: a link, or the platform's kind.
        ReplyDesk.count(status: status, via: channel == "link" ? "link" : configuration.channel(channel)?.url.kind.rawValue ?? "chat")
        outcome.replayed = status == InboundRecord.Outcome.replayed.rawValue
        return outcome
    }

    /// What ``respond(token:channel:responder:chatUser:now:accepting:choose:)`` does, with
    /// the status it is counted by (``InboundRecord/Outcome``'s names, else the press's own:
    /// `confirmed`, `no-action`, `text-asked`, `used-confirmation`).
    private func answer(token: String, channel: String, responder: String, chatUser: String?, now: Instant,
                        accepting: (NotificationRequest?) -> [TokenPurpose],
                        choose: (NotificationRequest, ReplyToken) throws -> Choice) throws -> (Outcome, String) {
        switch try tokens.check(Substring(token.lowercased()), now: now, accepting: accepting) {
        case nil:
            return (Outcome(refused: .forged), InboundRecord.Outcome.noToken.rawValue)
        case .refused(let refusal)?:
            // A forged token is counted (``respond``), not stored: anyone can post one, and
            // each was a write (a thousand a second from one client, the log growing). A
            // token once genuine (expired, its notification gone) is stored, as a reply's is.
            if refusal.outcome != .forgedToken {
                try store.record(InboundRecord(at: now, messageID: "", sender: responder, outcome: refusal.outcome,
                                               detail: "\(channel): \(refusal.detail)", deliveryID: refusal.deliveryID))
            }
            return (outcome(of: refusal), refusal.outcome.rawValue)
        case .good(_, let request, _)? where configuration.recipient(request.recipient) == nil:
            // Its recipient since removed from chime.xml: their links do no more, as their
            // replies do not (off-boarding someone revokes them). Said as a notification gone.
            try store.record(InboundRecord(at: now, messageID: "", sender: responder, outcome: .unknownNotification,
                                           detail: "\(channel): recipient \"\(request.recipient)\" is no longer in the configuration", deliveryID: nil))
            return (Outcome(refused: .gone), InboundRecord.Outcome.unknownNotification.rawValue)
        case .good(let token, let request, let purpose)?:
            let (outcome, status) = try answer(token, request, purpose, channel: channel, responder: responder, chatUser: chatUser,
                                               now: now, choose: choose)
            // One line per answered notification, as a reply taken is logged.
            Logger(label: "chime.serve").info("press taken", metadata: [
                "press.status": .string(status), "notification.id": .string(request.identifier),
                "recipient.id": .string(request.recipient), "channel.id": .string(channel),
            ])
            return (outcome, status)
        }
    }

    /// ``answer(token:channel:responder:chatUser:now:accepting:choose:)`` once the token is
    /// genuine: the chat user checked, the choice made, the response recorded or confirmed.
    private func answer(_ token: ReplyToken, _ request: NotificationRequest, _ purpose: TokenPurpose, channel: String, responder: String,
                        chatUser: String?, now: Instant, choose: (NotificationRequest, ReplyToken) throws -> Choice) throws -> (Outcome, String) {
        // A chat answer counts only on a channel the recipient has an address on (where
        // their messages went), and, when that address names a user, only from them.
        if let chatUser {
            let address = configuration.recipient(request.recipient)?.addresses.first(where: { $0.channel == channel })
            if address == nil || (!address!.value.isEmpty && address!.value != chatUser) {
                try store.record(InboundRecord(at: now, messageID: "", sender: chatUser, outcome: .forgedSender,
                                               detail: "\(channel): \(chatUser) is not \(request.recipient)", deliveryID: token.deliveryID))
                return (Outcome(verdict: .forged, message: "This reminder is someone else's."), InboundRecord.Outcome.forgedSender.rawValue)
            }
        }
        let (action, userText, refusingNew): (String, String?, Outcome?)
        switch try choose(request, token) {
        case .refused(let outcome):
            let status = outcome.verdict == .noSuchAction ? "no-action" : outcome.wantsText != nil ? "text-asked" : InboundRecord.Outcome.unmatched.rawValue
            return (outcome, status)
        case .chosen(let chosen, let text, let refusal): (action, userText, refusingNew) = (chosen, text, refusal)
        }
        let title = actions.title(of: action, in: request)
        let to = addressee(request), reminder = to.reminder ?? ""
        // A confirmation of an action that waited for proof (the link is the proof),
        // else a new response; a confirmation link confirms and does nothing else.
        // What waits for confirmation is confirmed by its confirmation link, and by the
        // action's own link or button only when the press brings the same text or the
        // action takes none: a text that waits was written by whoever had the reply
        // address. A press with a text of its own stands instead of it (the link is the
        // proof); one without is asked for its text.
        let confirms: Bool
        if case .confirm = purpose {
            confirms = true
        } else {
            let waiting = try store.response(deliveryID: token.deliveryID, action: action)?.waitingText
            confirms = waiting == nil || userText == waiting
        }
        let response: StoredResponse, message: String, status: String
        if confirms, let waiting = try store.confirm(deliveryID: token.deliveryID, action: action, now: now) {
            (response, message) = (waiting, say("press.confirmed", [title, reminder], to: to, fallback: "\(reminder): “\(title)” confirmed."))
            status = "confirmed"
        } else if case .confirm = purpose {
            return (usedConfirmation(to), "used-confirmation")
        } else if let refusingNew {
            return (refusingNew, refusingNew.verdict == .answered ? "text-asked" : "text-refused")
        } else {
            var fresh = StoredResponse(
                deliveryID: token.deliveryID, identifier: request.identifier, recipient: request.recipient, action: action,
                userText: userText, channel: channel, responder: responder, at: now, status: StoredResponse.carryingOut)
            let recorded: Int64?
            do {
                recorded = try store.record(fresh, from: nil)
            } catch is ResponseInFlight {
                // Pressed again while the first press is being carried out: it is under way.
                return (Outcome(verdict: .answered, message: say("press.received", [title, reminder], to: to, fallback: "\(reminder): “\(title)” received."),
                                addressee: to), InboundRecord.Outcome.replayed.rawValue)
            }
            guard let id = recorded else {
                // Deliver Quietly, Turn Off or Keep pressed again once the preferences page
                // (or another answer) changed what it set: a new press, set again. (A reply
                // by email is not: an MTA's duplicate of an old reply may come at any time.)
                // Set before the press is answered (one row, no hooks): a fire or a press
                // that follows the answer finds it in force, and only the answer's own
                // message is left for afterwards.
                if try actions.changesDelivery(action, request: request) {
                    let answer = (try? actions.changeDelivery(action, request: request, now: now))?.answer
                    return (Outcome(verdict: .answered, message: say("press.received", [title, reminder], to: to, fallback: "\(reminder): “\(title)” received."),
                                    then: { answer }, addressee: to),
                            InboundRecord.Outcome.responded.rawValue)
                }
                return (Outcome(verdict: .answered, message: say("press.replayed", [title, reminder], to: to,
                                                          fallback: "\(reminder): “\(title)” was already done."),
                                addressee: to), InboundRecord.Outcome.replayed.rawValue)
            }
            fresh.id = id
            (response, message) = (fresh, say("press.received", [title, reminder], to: to, fallback: "\(reminder): “\(title)” received.")
                                       + (userText.map { " (\(ActionDesk.shownText($0)))" } ?? ""))
            status = InboundRecord.Outcome.responded.rawValue
        }
        return (Outcome(verdict: .answered, message: message, then: {
            (try? self.actions.carryOut(response, request: request, now: now))?.answer
        }, addressee: to), status)
    }

    /// What a GET of an action link shows before anything is done: the question (or why
    /// the link does nothing), and the button that does it (nil when there is none). A
    /// text-input action's own link asks for its text (``Outcome/wantsText``), its button
    /// the action's `textInputButtonTitle`.
    /// - Parameter counting: whether a forged token is counted here (the GET of the page);
    ///   not when the press that follows counts it (a POST).
    public func describe(token link: String, action name: String, now: Instant, counting: Bool = true) throws -> (page: Outcome, button: String?) {
        let request: NotificationRequest, purpose: TokenPurpose, token: ReplyToken
        switch try checkLink(link, now: now, counting: counting, accepting: { purposes(pressing: name, in: $0) }) {
        case .refused(let refusal): return (refusal, nil)
        case .good(let found, let foundPurpose, let foundToken): (request, purpose, token) = (found, foundPurpose, foundToken)
        }
        guard let action = action(name, in: request) else { return (refused(.noSuchAction, request: request), nil) }
        if case .action = purpose, let prompt = textPrompt(action, in: request) {
            return (Outcome(verdict: .answered, message: ask(prompt, .page), wantsText: prompt, addressee: prompt.addressee), prompt.button)
        }
        let title = actions.title(of: action, in: request), to = addressee(request)
        // A destructive action's page says so, as its email and its view page do: for a
        // chat's link buttons this page is the confirmation.
        let warning = configuration.category(request.content.categoryIdentifier)?.action(action)
            .flatMap { destructiveWarning($0, to: to) }.map { " (\($0))" } ?? ""
        if case .confirm = purpose {
            // A confirmation link shows the text it would carry out: whoever had the reply
            // address could have written it, and the answer that sent the link may be older.
            // Once used (nothing waits any more), it says so, without the button.
            let waiting = try store.response(deliveryID: token.deliveryID, action: action)
            guard waiting?.status == StoredResponse.awaitingConfirmation else { return (usedConfirmation(to), nil) }
            if let text = waiting?.waitingText {
                let shown = ActionDesk.shownText(text)
                return (Outcome(verdict: .answered, message: say("page.action.askText", [title, shown], to: to, fallback: "Do “\(title)” with “\(shown)”?") + warning,
                                addressee: to), title)
            }
        }
        return (Outcome(verdict: .answered, message: say("page.action.ask", [title], to: to, fallback: "Do “\(title)”?") + warning, addressee: to), title)
    }

    /// "cannot be undone", in the addressee's language, for a destructive action; nil
    /// for any other.
    func destructiveWarning(_ action: NotificationAction, to: Addressee) -> String? {
        action.options.contains(.destructive) ? say("ui.destructive", [], to: to, fallback: "cannot be undone") : nil
    }

    /// A confirmation link used already (410).
    func usedConfirmation(_ to: Addressee) -> Outcome {
        Outcome(verdict: .gone, message: say("press.usedConfirmation", [to.reminder ?? ""], to: to,
                                             fallback: "\(to.reminder ?? ""): this confirmation link has been used already."), addressee: to)
    }

    /// One-click unsubscribe (RFC 8058) of the token's notification's category, for its
    /// recipient: with `apply` (a POST) the category is turned off, effective at the next
    /// fire; without (a GET), nothing changes. Returns what the page says (the question,
    /// or what was done), and the button that unsubscribes on a GET.
    ///
    /// The token is the message's unsubscribe token, or (for messages sent before tokens
    /// had purposes, whose List-Unsubscribe carried it) its reply token: both appear in
    /// its headers, and either may unsubscribe, which is all it may do.
    ///
    /// `categories`: the list a digest's or a thread's link names (its reminders being of
    /// several categories), each turned off; the token must be signed for that very list
    /// (``TokenPurpose/unsubscribeFrom(_:)``).
    ///
    /// A link that lists its categories (every message's since they all do) unsubscribes
    /// after its notification is gone too, removed from the delivered list or past its
    /// keeping: what it acts on is in its signature, and its recipient is the one it is
    /// signed for. A mail client that sent the POST tells the person they are
    /// unsubscribed, and shows them no answer.
    public func unsubscribe(token: String, categories listed: [String]? = nil, apply: Bool, now: Instant) throws -> (page: Outcome, button: String?) {
        let (request, recipient, to, categories): (NotificationRequest?, String, Addressee, [String])
        let purposes: [TokenPurpose] = listed.map { [.unsubscribeFrom($0)] } ?? [.unsubscribe, .reply]
        let checked = try tokens.check(Substring(token.lowercased()), now: now, accepting: { _ in purposes })
        Self.countIfForged(checked)
        switch checked {
        case nil:
            return (Outcome(refused: .forged), nil)
        case .refused(let refusal)?:
            guard let listed, let owner = refusal.signer else { return (outcome(of: refusal), nil) }
            (request, recipient, to, categories) = (nil, owner, Addressee(locale: actions.recipient(owner)?.locale ?? "en"), listed)
        case .good(_, let found, _)?:
            (request, recipient, to, categories) = (found, found.recipient, addressee(found), listed ?? [found.content.categoryIdentifier])
        }
        // An opt-in request has no category to leave (and no List-Unsubscribe): its reply
        // token names nothing to unsubscribe from (ignoring the request is enough).
        guard !categories.contains(OptIn.category) else { return (refused(.noSuchAction, request: request), nil) }
        // Each category as the preferences page names it (reminders of none, together).
        let names = categories.map { actions.categoryName($0, locale: to.locale) }
        let name = names.count == 1 ? names[0] : names.map { say("list.item", [$0], to: to, fallback: "“\($0)”") }
            .joined(separator: say("list.separator", [], to: to, fallback: ", "))
        // The question and the answer: each a strings key and its English text.
        let (ask, done) = names.count == 1
            ? (("page.unsubscribe.ask", "Stop “\(name)” reminders?"), ("answer.off", "You will get no more “\(name)” reminders."))
            : (("page.unsubscribe.askMany", "Stop these reminders: \(name)?"), ("answer.offMany", "You will get no more of these reminders: \(name)."))
        guard apply else {
            return (Outcome(verdict: .answered, message: say(ask.0, [name], to: to, fallback: ask.1), addressee: to),
                    say("ui.unsubscribe", [], to: to, fallback: "Unsubscribe"))
        }
        for category in categories { try store.setPreference(recipient: recipient, category: category, .off, at: now) }
        return (Outcome(verdict: .answered, message: say(done.0, [name], to: to, fallback: done.1), addressee: to), nil)
    }

    /// A link's token checked for the purposes it may serve, recording nothing.
    enum LinkCheck {
        /// Its notification, the purpose it serves, and the token as read.
        case good(NotificationRequest, TokenPurpose, ReplyToken)
        /// Why not: 403 forged, 410 expired or gone, with its text.
        case refused(Outcome)
    }

    func checkLink(_ token: String, now: Instant, counting: Bool = true, accepting: (NotificationRequest?) -> [TokenPurpose]) throws -> LinkCheck {
        let checked = try tokens.check(Substring(token.lowercased()), now: now, accepting: accepting)
        if counting { Self.countIfForged(checked) }
        switch checked {
        // Its recipient since removed from chime.xml: as a notification gone (``answer``).
        case .good(_, let request, _)? where configuration.recipient(request.recipient) == nil: return .refused(Outcome(refused: .gone))
        case .good(let token, let request, let purpose)?: return .good(request, purpose, token)
        case .refused(let refusal)?: return .refused(outcome(of: refusal))
        case nil: return .refused(Outcome(refused: .forged))
        }
    }

    /// A link's token that is none of Chime's (not whole, or its signature wrong) is
    /// counted as a forged press is (`chime_replies_total{status="no-token"|"forged-token",
    /// via="link"}`), whatever page it opens: someone trying tokens on `/u/`, `/p/`, `/v/`
    /// or an action's page shows in the alert the README proposes. Expired and genuine
    /// ones are not: a page looked at is no reply.
    private static func countIfForged(_ checked: TokenChecker.TokenCheck?) {
        switch checked {
        case nil: ReplyDesk.count(status: InboundRecord.Outcome.noToken.rawValue, via: "link")
        case .refused(let refusal)? where refusal.outcome == .forgedToken: ReplyDesk.count(status: refusal.outcome.rawValue, via: "link")
        default: break
        }
    }

    /// A link's token checked, recording nothing: its notification (answered), else the
    /// verdict saying why not (forged, or expired or gone).
    func notification(of token: String, now: Instant, accepting: (NotificationRequest?) -> [TokenPurpose]) throws
        -> (verdict: Verdict, request: NotificationRequest?) {
        switch try checkLink(token, now: now, accepting: accepting) {
        case .good(let request, _, _): (.answered, request)
        case .refused(let refusal): (refusal.verdict, nil)
        }
    }
}
