import ChimeCore
import ChimeDelivery
import ChimeRendering
import ChimeReply
import Foundation
import Hummingbird
import Logging

/// The chat platforms' callbacks: each verified before it is parsed, answered at once,
/// carried out after. What can be checked without the body (the channel, Telegram's
/// secret header, Slack's and Discord's timestamps) is checked before it is read: a body
/// sent a byte at a time holds the connection open past the idle timeout (until
/// ``ConnectionDeadlines`` closes it), and that needs no secret when a callback to no
/// channel is read whole first.
extension ChimeHTTPServer {
    /// The channel of a callback path, when it is of that kind and has its secret.
    func secret(_ channel: String, _ kind: ChannelKind) -> String? {
        guard let found = configuration.channel(channel), found.url.kind == kind else { return nil }
        return found.signingSecret
    }

    /// Slack, both kinds of request its app sends, signed alike: interactivity (a
    /// block_actions payload whose button value is the token and the action's number),
    /// and the Events API: its URL check, and messages in the thread of a Chime message
    /// whose text-input button was pressed, which are that action's text.
    func slack(_ request: Request, channel: String) async throws -> Response {
        guard let secret = secret(channel, .slack) else { return Self.text(404, "no such Slack channel") }
        let timestamp = request.headers[Self.name("X-Slack-Request-Timestamp")] ?? ""
        guard ChatSignature.isFresh(timestamp, now: ChatSignature.realNow()) else { return Self.text(401, "bad signature") }
        let body = try await Self.body(request)
        guard ChatSignature.slack(secret: secret, timestamp: timestamp, body: body, signature: request.headers[Self.name("X-Slack-Signature")] ?? "")
        else { return Self.text(401, "bad signature") }
        switch ChatCallback.slack(body) {
        case .challenge(let challenge):
            return Self.json(200, ["challenge": challenge])
        case .threadMessage(let conversation, let thread, let text, let user):
            // A person's message in a remembered thread is its action's text, answered in
            // the thread (received, or refused and asked again: a text over the bound had
            // been dropped without a word); bots' messages (Chime's answers among them) and
            // others' are acknowledged and left alone, not answered before the channel.
            if let value = try await Self.blocking({ [desk] in try desk.store.threadToken(channel: channel, thread: Self.slackThread(conversation, thread)) }),
               let button = ButtonValue(value) {
                let outcome = try await typed(text, token: button.token, action: button.action, channel: channel, user: user)
                // Slack sends an event again when its 200 came late (`X-Slack-Retry-Num`):
                // taken the first time, it is not answered "already done" a second time.
                let retried = request.headers[Self.name("X-Slack-Retry-Num")] != nil
                if outcome.verdict != .forged, !(retried && outcome.replayed), let found = configuration.channel(channel) {
                    let answer = ChatAnswer.slack(outcome.message)
                    inBackground("Slack's thread was not answered") { try found.slackAnswerInThread(answer, thread: thread) }
                }
            }
            return Self.acknowledged
        case .press(let value, let user, let conversation, let ts, let answerURL):
            let outcome = try await press(value, channel: channel, user: user, text: .asked)
            var message = outcome.message
            if let prompt = outcome.wantsText, let ts {
                // The message's thread is where the text will come: remember whose it is.
                let now = clock()
                try await Self.blocking { [desk] in try desk.store.rememberThread(channel: channel, thread: Self.slackThread(conversation, ts), token: value, at: now) }
                message = desk.ask(prompt, .thread)
            }
            let answer: [String: Any] = ["response_type": "ephemeral", "replace_original": false, "text": ChatAnswer.slack(message), "mrkdwn": false]
            // Slack shows nothing of the body acknowledging a button's press: the answer
            // goes to the press's response_url, the acknowledgement is empty.
            if let found = configuration.channel(channel), let url = answerURL.flatMap(found.slackResponseURL) {
                respondLater(answer, at: url, on: found)
                return Self.acknowledged
            }
            Logger(label: "chime.serve").warning("a Slack press on channel \"\(channel)\" came without a response_url on the channel's host: its answer is not shown")
            return Self.json(200, answer)
        case .malformed(let why):
            return Self.text(400, why)
        default:
            return Self.acknowledged
        }
    }

    /// Discord interactions: PING answered with PONG; a component's `custom_id` is the
    /// token and the action's number; the answer is an ephemeral message, or for a
    /// text-input action a modal dialog (type 9) whose submission (`MODAL_SUBMIT`, type 5)
    /// is the action's text.
    func discord(_ request: Request, channel: String) async throws -> Response {
        guard let key = secret(channel, .discord) else { return Self.text(404, "no such Discord channel") }
        let timestamp = request.headers[Self.name("X-Signature-Timestamp")] ?? ""
        guard ChatSignature.isFresh(timestamp, now: ChatSignature.realNow()) else { return Self.text(401, "invalid request signature") }
        let body = try await Self.body(request)
        guard ChatSignature.discord(publicKey: key, timestamp: timestamp, body: body, signature: request.headers[Self.name("X-Signature-Ed25519")] ?? "")
        else { return Self.text(401, "invalid request signature") }
        switch ChatCallback.discord(body) {
        case .ping:
            return Self.json(200, ["type": 1])
        case .press(let value, let user, _, _, _):
            let outcome = try await press(value, channel: channel, user: user, text: .asked)
            if let prompt = outcome.wantsText {
                // A text-input action: a modal dialog (type 9) asks for the text; its
                // submission comes back with the button's custom_id.
                return Self.json(200, ["type": 9, "data": Self.discordDialog(prompt, value: value, question: desk.ask(prompt, .page))])
            }
            return Self.json(200, ["type": 4, "data": Self.discordAnswer(outcome.message)])
        case .dialogText(let value, let text, let user):
            guard let button = ButtonValue(value) else { return Self.text(400, "not Chime's dialog") }
            let outcome = try await typed(text, token: button.token, action: button.action, channel: channel, user: user)
            return Self.json(200, ["type": 4, "data": Self.discordAnswer(outcome.message)])
        case .malformed(let why):
            return Self.text(400, why)
        default:
            return Self.text(400, "not an interaction")
        }
    }

    /// An ephemeral Discord message (flag 64, seen by the presser alone) answering with
    /// `text`, which pings no one.
    static func discordAnswer(_ text: String) -> [String: Any] {
        ["content": ChatAnswer.discord(text), "flags": 64, "allowed_mentions": ["parse": [String]()]]
    }

    /// Discord's modal dialog for a text-input action's text: titled with the action
    /// (45 characters), one paragraph field `text` (its label the question, 45; its
    /// placeholder, 100; at most ``longestDialogText`` characters).
    static func discordDialog(_ prompt: ClickDesk.TextPrompt, value: String, question: String) -> [String: Any] {
        var field: [String: Any] = ["type": 4, "custom_id": "text", "style": 2, "label": Self.prefix(question, 45),
                                    "required": true, "min_length": 1, "max_length": longestDialogText]
        if !prompt.placeholder.isEmpty { field["placeholder"] = Self.prefix(prompt.placeholder, 100) }
        return ["custom_id": value, "title": Self.prefix(prompt.title, 45), "components": [["type": 1, "components": [field]]]]
    }

    /// The most characters Discord's dialog takes: as many as the text's bound in bytes
    /// (``ClickDesk/maximumTextBytes``) always holds, four bytes of UTF-8 each. Discord's
    /// own bound, 4,000, let a person type 2,100 Cyrillic letters, refused once sent and
    /// lost.
    static let longestDialogText = ClickDesk.maximumTextBytes / 4

    /// The longest start of `text` of whole characters within `limit`, counted as the
    /// platform counts (Discord in code points, Telegram in UTF-16 units): `prefix(45)`
    /// counted characters, and a title with combining accents (e + ́, Devanagari, Thai)
    /// went past the limit, and the platform refused the dialog.
    static func prefix(_ text: String, _ limit: Int, _ unit: TextLimit.Unit = .scalars) -> String {
        TextLimit.fit(text, limit, unit, ellipsis: "")
    }

    /// Mattermost, both kinds of request: action callbacks, whose `context` (Chime's, in
    /// the button) carries the token (itself an HMAC, checked in constant time) and the
    /// action's number; and the outgoing webhook's messages (form or JSON, with the
    /// webhook's token, which is all Mattermost signs them with, checked against the
    /// channel's `secret`), which are a text-input action's text when they are in the
    /// thread of a message whose button asked for it. Which thread a message is in, the
    /// webhook does not say: the REST API does, with the channel's `apiToken`.
    func mattermost(_ request: Request, channel: String) async throws -> Response {
        guard let found = configuration.channel(channel), found.url.kind == .mattermost else {
            return Self.text(404, "no such Mattermost channel")
        }
        let body = try await Self.body(request)
        switch ChatCallback.mattermost(body) {
        case .webhookMessage(let token, let post, let text, let user):
            return try await mattermostMessage(token: token, post: post, text: text, user: user, channel: found)
        case .press(let value, let user, _, let post, _):
            // Text can come back only through the outgoing webhook and the API.
            let outcome = try await press(value, channel: channel, user: user, text: found.textEntry == .reply ? .asked : .none)
            var answer = ChatAnswer.mattermost(outcome.message)
            if let prompt = outcome.wantsText, let post, let button = ButtonValue(value) {
                let now = clock()
                try await Self.blocking { [desk] in try desk.store.rememberThread(channel: channel, thread: post, token: value, at: now) }
                // The action's title links to its page, where the text can be typed: in a
                // private channel or a direct message no outgoing webhook brings the
                // thread's messages (Mattermost's serve public channels only).
                answer = linkedPrompt(prompt, .thread, token: button.token, escape: ChatAnswer.mattermost, link: ChatAnswer.mattermostLink)
            }
            // Always 200: Mattermost drops the body of any other status and shows its own
            // integration error, where the person should read why ("someone else's").
            return Self.json(200, ["ephemeral_text": answer])
        case .malformed(let why):
            return Self.text(400, why)
        default:
            return Self.text(400, "no context token")
        }
    }

    /// A message Mattermost's outgoing webhook brings: the action's text when it is the
    /// recipient's, in a remembered thread; answered as a comment in that thread.
    func mattermostMessage(token: String, post: String, text: String, user: String, channel: Channel) async throws -> Response {
        guard let secret = channel.signingSecret, ChatSignature.sameSecret(secret, token) else {
            return Self.text(401, "bad token")
        }
        guard !user.isEmpty, channel.apiToken != nil else { return Self.json(200, [:]) }
        let root: String?
        do {
            root = try await Self.waitingOnNetwork { try channel.mattermostThreadRoot(ofPost: post) }
        } catch {
            // The API's failure is the operator's to see, not the person's.
            Logger(label: "chime.serve").error("Mattermost's API did not say which message this answers: \(configuration.redact("\(error)"))")
            return Self.json(200, ["text": "Chime could not read which message this answers.", "response_type": "comment"])
        }
        guard let root, let value = try await Self.blocking({ [desk] in try desk.store.threadToken(channel: channel.id, thread: root) }),
              let button = ButtonValue(value) else { return Self.json(200, [:]) }
        let outcome = try await typed(text, token: button.token, action: button.action, channel: channel.id, user: user)
        // Someone else's message in the thread (a colleague's comment) is left alone, as in
        // Slack: a public comment would answer each of them before the whole channel.
        guard outcome.verdict != .forged else { return Self.json(200, [:]) }
        return Self.json(200, ["text": ChatAnswer.mattermost(outcome.message), "response_type": "comment"])
    }

    /// Telegram updates: the secret token header first; a callback query's data is the
    /// token and the action's number; the answer is `answerCallbackQuery`, given as the
    /// webhook's reply (Telegram calls the method for it).
    func telegram(_ request: Request, channel: String) async throws -> Response {
        guard let secret = secret(channel, .telegram) else { return Self.text(404, "no such Telegram channel") }
        guard ChatSignature.sameSecret(secret, request.headers[Self.name("X-Telegram-Bot-Api-Secret-Token")] ?? "")
        else { return Self.text(401, "bad secret token") }
        let body = try await Self.body(request)
        switch ChatCallback.telegram(body) {
        case .reply(let text, let user, let chat, let message, let buttons, let links, let bot):
            // Only an answer to Chime's own bot's message (when the channel's URL names
            // the bot) carries tokens: another bot's message in a group could hold any link.
            if let ours = configuration.channel(channel)?.url.telegramBotID, ours != bot { return Self.json(200, [:]) }
            return try await telegramReply(text: text, user: user, chat: chat, message: message, buttons: buttons, links: links, channel: channel)
        case .callbackQuery(let id, let value, let user, let chat, let message):
            let outcome = try await press(value, channel: channel, user: user, text: .asked)
            if let prompt = outcome.wantsText, let chat, let button = ButtonValue(value) {
                // ForceReply: Telegram opens the reply field on a prompt whose link carries
                // the token and the action, so the reply to it finds them again.
                let text = linkedPrompt(prompt, .forceReply, token: button.token, escape: htmlEscaped) { title, url in
                    "<a href=\"\(htmlEscaped(url))\">\(title)</a>"
                }
                // The webhook's reply carries one method: the callback query is answered
                // beside it, or the button would show its progress until Telegram gives up.
                if let found = configuration.channel(channel) { answerLater(id, on: found) }
                // Not `selective`: that opens the field only for those the prompt mentions
                // or replies to, and it replies to the bot's own message, so in a group
                // no one would get it.
                var reply: [String: Any] = ["force_reply": true]
                // Telegram takes 1 to 64 characters.
                if !prompt.placeholder.isEmpty { reply["input_field_placeholder"] = Self.prefix(prompt.placeholder, 64, .utf16) }
                return Self.json(200, [
                    "method": "sendMessage", "chat_id": chat, "parse_mode": "HTML", "text": text,
                    "reply_to_message_id": message ?? 0, "reply_markup": reply,
                ])
            }
            return Self.json(200, ["method": "answerCallbackQuery", "callback_query_id": id, "text": ChatAnswer.telegramNotice(outcome.message)])
        case .malformed(let why):
            return Self.text(400, why)
        default:
            return Self.json(200, [:])
        }
    }

    /// Answers a Telegram callback query through the Bot API on a thread of its own; a
    /// failure is the operator's to see, in the log.
    func answerLater(_ query: String, on channel: Channel) {
        inBackground("Telegram's callback query was not answered") { try channel.telegramAnswerCallbackQuery(query) }
    }

    /// Posts the answer to a Slack press to its response URL on a thread of its own.
    func respondLater(_ answer: [String: Any], at url: URL, on channel: Channel) {
        nonisolated(unsafe) let answer = answer // JSON values, handed over and not kept
        inBackground("Slack's press was not answered") { try channel.slackRespond(answer, at: url) }
    }

    /// A request to a platform's API on a thread of its own (Swift's shared concurrency
    /// threads must not wait on it), counted with the actions in flight, which a SIGTERM
    /// waits for: the person pressing would see no answer. Its failure is the operator's
    /// to see, in the log.
    private func inBackground(_ failure: String, _ request: @escaping @Sendable () throws -> Void) {
        let configuration = configuration
        ActionsInFlight.start {
            do { try request() } catch {
                Logger(label: "chime.serve").error("\(failure): \(configuration.redact("\(error)"))")
            }
        }
    }

    /// A Telegram message that replies to one of Chime's: to the reminder itself (its
    /// buttons carry the token; the text is read as an email reply's), or to a ForceReply
    /// prompt (its link carries the token and the action, which takes the whole text).
    /// Answered in the chat with `sendMessage`, as the webhook's reply.
    func telegramReply(text: String, user: String, chat: Int64, message: Int, buttons: [String], links: [String],
                       channel: String) async throws -> Response {
        var found: (token: String, action: String?)?
        if let button = buttons.lazy.compactMap(ButtonValue.init).first { found = (button.token, nil) }
        for url in links where found == nil {
            if let link = MessageLinks.actionLink(url) { found = (link.token, link.action) }
        }
        guard let found else { return Self.json(200, [:]) }
        let outcome = try await typed(text, token: found.token, action: found.action, channel: channel, user: user)
        // Someone else's reply in a group is left alone, as in Slack's and Mattermost's
        // threads: a public answer would tell the whole chat, for each of them.
        guard outcome.verdict != .forged else { return Self.json(200, [:]) }
        return Self.json(200, ["method": "sendMessage", "chat_id": chat, "text": ChatAnswer.telegramMessage(outcome.message), "reply_to_message_id": message])
    }

    /// The key a Slack message's thread is remembered under: its conversation and `ts`.
    static func slackThread(_ conversation: String, _ ts: String) -> String { "\(conversation):\(ts)" }

    /// A button's `TOKEN.NUMBER` pressed: answered now, carried out after.
    /// - Parameter text: ``ClickDesk/TextSource/asked`` where the platform can send a
    ///   text-input action's text back (Slack's threads, Telegram's replies): ask for it
    ///   rather than record no text.
    func press(_ value: String, channel: String, user: String, text: ClickDesk.TextSource = .none) async throws -> ClickDesk.Outcome {
        guard let button = ButtonValue(value) else { return ClickDesk.Outcome(verdict: .malformed, message: "This button is not Chime's.") }
        let (desk, now) = (desk, clock())
        let outcome = try await Self.blocking {
            try desk.press(token: button.token, action: button.action, channel: channel,
                           responder: user.isEmpty ? channel : "\(channel):\(user)", chatUser: user, text: text, now: now)
        }
        Self.carryOut(outcome)
        return outcome
    }

    /// A text typed in a chat thread in answer to a reminder: answered now, carried out after.
    func typed(_ text: String, token: String, action: String?, channel: String, user: String) async throws -> ClickDesk.Outcome {
        let (desk, now) = (desk, clock())
        let outcome = try await Self.blocking {
            try desk.typed(text, token: token, action: action, channel: channel, responder: "\(channel):\(user)", chatUser: user, now: now)
        }
        Self.carryOut(outcome)
        return outcome
    }

    /// A text-input action's prompt (``ClickDesk/ask(_:_:title:)``) escaped for a platform
    /// by `escape`, the action's title in it a link to the action's page, written by
    /// `link` (the escaped title, the page's URL): the link goes in where a marker stood,
    /// once the text is escaped.
    func linkedPrompt(_ prompt: ClickDesk.TextPrompt, _ asking: ClickDesk.Asking, token: String, escape: (String) -> String,
                      link: (String, String) -> String) -> String {
        let page = MessageLinks.actionURL(base: configuration.replies.linkBase, token: token, identifier: "\(prompt.number)")
        let marker = "\u{1}"
        return escape(desk.ask(prompt, asking, title: marker)).replacingOccurrences(of: marker, with: link(escape(prompt.title), page))
    }

    /// Carries an answered press out on a thread of its own: its hooks may take their whole
    /// timeout, and Swift's shared concurrency threads (one per core) must not wait on them.
    /// Counted by ``ActionsInFlight``, which `chime serve` waits for before it exits.
    static func carryOut(_ outcome: ClickDesk.Outcome) {
        if let then = outcome.then { ActionsInFlight.start { _ = then() } }
    }
}

/// What a Chime button carries (`TOKEN.NUMBER`): the message's signed token and the
/// action's number in its menu.
struct ButtonValue {
    var token: String
    var action: String

    init?(_ value: String) {
        guard let dot = value.lastIndex(of: ".") else { return nil }
        token = String(value[..<dot])
        action = String(value[value.index(after: dot)...])
    }
}
