import ChimeCore
import ChimeDelivery
import ChimeRendering
import Foundation
import Hummingbird

/// The chat platforms' callbacks: each verified before it is parsed, answered at once,
/// carried out after.
extension ChimeHTTPServer {
    /// The channel of a callback path, when it is of that kind and has its secret.
    func secret(_ channel: String, _ kind: ChannelKind) -> String? {
        guard let found = configuration.channel(channel), found.url.kind == kind else { return nil }
        return found.signingSecret
    }

    /// Slack, both kinds of request its app sends, signed alike: interactivity (a form with
    /// one `payload` field, a block_actions JSON whose button value is the token and the
    /// action's number), and the Events API (JSON): its URL check, and messages in the
    /// thread of a Chime message whose text-input button was pressed, which are that
    /// action's text.
    func slack(_ request: Request, channel: String) async throws -> Response {
        let body = try await Self.body(request)
        guard let secret = secret(channel, .slack) else { return Self.text(404, "no such Slack channel") }
        guard ChatSignature.slack(secret: secret, timestamp: request.headers[Self.name("X-Slack-Request-Timestamp")] ?? "", body: body,
                                  signature: request.headers[Self.name("X-Slack-Signature")] ?? "",
                                  // The request's age is real time, whatever instant --now replays.
                                  now: Int64(Date().timeIntervalSince1970))
        else { return Self.text(401, "bad signature") }
        if body.first == UInt8(ascii: "{") { return try slackEvent(body, channel: channel) }
        let form = Self.form(String(decoding: body, as: UTF8.self))
        guard let payload = form["payload"].flatMap({ Self.json(Array($0.utf8)) }),
              let action = (payload["actions"] as? [[String: Any]])?.first, let value = action["value"] as? String
        else { return Self.text(400, "not a block_actions payload") }
        let user = (payload["user"] as? [String: Any])?["id"] as? String ?? ""
        let outcome = try press(value, channel: channel, user: user, asksForText: true)
        var message = outcome.message
        if let prompt = outcome.wantsText {
            // The message's thread is where the text will come: remember whose it is.
            let container = payload["container"] as? [String: Any]
            let ts = container?["message_ts"] as? String ?? (payload["message"] as? [String: Any])?["ts"] as? String
            let conversation = container?["channel_id"] as? String ?? (payload["channel"] as? [String: Any])?["id"] as? String ?? ""
            if let ts {
                try desk.store.rememberThread(channel: channel, thread: Self.slackThread(conversation, ts), token: value, at: clock())
                message = Self.threadPrompt(prompt)
            }
        }
        return Self.json(200, ["response_type": "ephemeral", "replace_original": false, "text": message])
    }

    /// A Slack Events API request: `url_verification` answered with its challenge; a
    /// person's message in a remembered thread taken as text. Anything else is
    /// acknowledged and left alone (bots' messages included, Chime's own among them).
    func slackEvent(_ body: [UInt8], channel: String) throws -> Response {
        guard let envelope = Self.json(body) else { return Self.text(400, "not JSON") }
        if envelope["type"] as? String == "url_verification" {
            return Self.json(200, ["challenge": envelope["challenge"] as? String ?? ""])
        }
        guard envelope["type"] as? String == "event_callback", let event = envelope["event"] as? [String: Any],
              event["type"] as? String == "message", event["subtype"] == nil, event["bot_id"] == nil,
              let thread = event["thread_ts"] as? String, let text = event["text"] as? String, let user = event["user"] as? String,
              event["ts"] as? String != thread
        else { return Self.text(200, "") }
        let conversation = event["channel"] as? String ?? ""
        guard let value = try desk.store.threadToken(channel: channel, thread: Self.slackThread(conversation, thread)),
              let button = ButtonValue(value) else { return Self.text(200, "") }
        _ = try typed(text, token: button.token, action: button.action, channel: channel, user: user)
        return Self.text(200, "")
    }

    /// Discord interactions: PING answered with PONG; a component's `custom_id` is the
    /// token and the action's number; the answer is an ephemeral message.
    func discord(_ request: Request, channel: String) async throws -> Response {
        let body = try await Self.body(request)
        guard let key = secret(channel, .discord) else { return Self.text(404, "no such Discord channel") }
        guard ChatSignature.discord(publicKey: key, timestamp: request.headers[Self.name("X-Signature-Timestamp")] ?? "", body: body,
                                    signature: request.headers[Self.name("X-Signature-Ed25519")] ?? "")
        else { return Self.text(401, "invalid request signature") }
        guard let interaction = Self.json(body) else { return Self.text(400, "not JSON") }
        if interaction["type"] as? Int == 1 { return Self.json(200, ["type": 1]) }
        guard let value = (interaction["data"] as? [String: Any])?["custom_id"] as? String else { return Self.text(400, "no custom_id") }
        let member = (interaction["member"] as? [String: Any])?["user"] as? [String: Any]
        let user = (member ?? interaction["user"] as? [String: Any])?["id"] as? String ?? ""
        let outcome = try press(value, channel: channel, user: user)
        return Self.json(200, ["type": 4, "data": ["content": outcome.message, "flags": 64]])
    }

    /// Mattermost, both kinds of request: action callbacks, whose `context` (Chime's, in
    /// the button) carries the token (itself an HMAC, checked in constant time) and the
    /// action's number; and the outgoing webhook's messages (form or JSON, with the
    /// webhook's token, which is all Mattermost signs them with, checked against the
    /// channel's `secret`), which are a text-input action's text when they are in the
    /// thread of a message whose button asked for it. Which thread a message is in, the
    /// webhook does not say: the REST API does, with the channel's `apiToken`.
    func mattermost(_ request: Request, channel: String) async throws -> Response {
        let body = try await Self.body(request)
        guard let found = configuration.channel(channel), found.url.kind == .mattermost else {
            return Self.text(404, "no such Mattermost channel")
        }
        let isJSON = body.first == UInt8(ascii: "{")
        let fields: [String: Any]? = isJSON ? Self.json(body) : Self.form(String(decoding: body, as: UTF8.self))
        guard let fields else {
            return Self.text(400, "neither a form nor JSON")
        }
        if fields["context"] == nil, fields["post_id"] != nil { return try await mattermostMessage(fields, channel: found) }
        guard let value = (fields["context"] as? [String: Any])?["token"] as? String else { return Self.text(400, "no context token") }
        // Text can come back only through the outgoing webhook and the API.
        let readsThreads = found.signingSecret != nil && found.apiToken != nil
        let outcome = try press(value, channel: channel, user: fields["user_id"] as? String ?? "", asksForText: readsThreads)
        var message = outcome.message
        if let prompt = outcome.wantsText, let post = fields["post_id"] as? String, !post.isEmpty {
            try desk.store.rememberThread(channel: channel, thread: post, token: value, at: clock())
            message = Self.threadPrompt(prompt)
        }
        return Self.json(outcome.status, ["ephemeral_text": message])
    }

    /// A message Mattermost's outgoing webhook brings: the action's text when it is the
    /// recipient's, in a remembered thread; answered as a comment in that thread.
    func mattermostMessage(_ fields: [String: Any], channel: Channel) async throws -> Response {
        guard let secret = channel.signingSecret, ChatSignature.sameSecret(secret, fields["token"] as? String ?? "") else {
            return Self.text(401, "bad token")
        }
        guard let post = fields["post_id"] as? String, let text = fields["text"] as? String,
              let user = fields["user_id"] as? String, channel.apiToken != nil else { return Self.json(200, [:]) }
        let root: String?
        do {
            root = try await Self.blocking { try channel.mattermostThreadRoot(ofPost: post) }
        } catch {
            // The API's failure is the operator's to see, not the person's.
            FileHandle.standardError.write(Data("chime serve: \(error)\n".utf8))
            return Self.json(200, ["text": "Chime could not read which message this answers.", "response_type": "comment"])
        }
        guard let root, let value = try desk.store.threadToken(channel: channel.id, thread: root),
              let button = ButtonValue(value) else { return Self.json(200, [:]) }
        let outcome = try typed(text, token: button.token, action: button.action, channel: channel.id, user: user)
        return Self.json(200, ["text": outcome.message, "response_type": "comment"])
    }

    /// Telegram updates: the secret token header first; a callback query's data is the
    /// token and the action's number; the answer is `answerCallbackQuery`, given as the
    /// webhook's reply (Telegram calls the method for it).
    func telegram(_ request: Request, channel: String) async throws -> Response {
        let body = try await Self.body(request)
        guard let secret = secret(channel, .telegram) else { return Self.text(404, "no such Telegram channel") }
        guard ChatSignature.sameSecret(secret, request.headers[Self.name("X-Telegram-Bot-Api-Secret-Token")] ?? "")
        else { return Self.text(401, "bad secret token") }
        guard let update = Self.json(body) else { return Self.text(400, "not JSON") }
        if let message = update["message"] as? [String: Any] { return try telegramReply(message, channel: channel) }
        guard let query = update["callback_query"] as? [String: Any], let id = query["id"] as? String,
              let value = query["data"] as? String else { return Self.json(200, [:]) }
        let user = ((query["from"] as? [String: Any])?["id"]).map { "\($0)" } ?? ""
        let outcome = try press(value, channel: channel, user: user, asksForText: true)
        if let prompt = outcome.wantsText, let message = query["message"] as? [String: Any],
           let chat = (message["chat"] as? [String: Any])?["id"], let button = ButtonValue(value) {
            // ForceReply: Telegram opens the reply field on a prompt whose link carries
            // the token and the action, so the reply to it finds them again.
            let link = MessageLinks.actionURL(base: configuration.replies.linkBase, token: button.token, identifier: "\(prompt.number)")
            return Self.json(200, [
                "method": "sendMessage", "chat_id": chat, "parse_mode": "HTML",
                "text": "<a href=\"\(htmlEscaped(link))\">\(htmlEscaped(prompt.title))</a>: reply to this message with your text.",
                "reply_to_message_id": message["message_id"] ?? 0,
                "reply_markup": ["force_reply": true, "selective": true, "input_field_placeholder": String(prompt.placeholder.prefix(64))],
            ])
        }
        return Self.json(200, ["method": "answerCallbackQuery", "callback_query_id": id, "text": outcome.message])
    }

    /// A Telegram message that replies to one of Chime's: to the reminder itself (its
    /// buttons carry the token; the text is read as an email reply's), or to a ForceReply
    /// prompt (its link carries the token and the action, which takes the whole text).
    /// Answered in the chat with `sendMessage`, as the webhook's reply.
    func telegramReply(_ message: [String: Any], channel: String) throws -> Response {
        guard let replied = message["reply_to_message"] as? [String: Any], let text = message["text"] as? String,
              let chat = (message["chat"] as? [String: Any])?["id"] else { return Self.json(200, [:]) }
        let user = ((message["from"] as? [String: Any])?["id"]).map { "\($0)" } ?? ""
        var found: (token: String, action: String?)?
        let rows = (replied["reply_markup"] as? [String: Any])?["inline_keyboard"] as? [[[String: Any]]] ?? []
        if let button = rows.joined().compactMap({ ($0["callback_data"] as? String).flatMap(ButtonValue.init) }).first {
            found = (button.token, nil)
        }
        for entity in replied["entities"] as? [[String: Any]] ?? [] where found == nil {
            if let link = (entity["url"] as? String).flatMap(MessageLinks.actionLink) { found = (link.token, link.action) }
        }
        guard let found else { return Self.json(200, [:]) }
        let outcome = try typed(text, token: found.token, action: found.action, channel: channel, user: user)
        return Self.json(200, ["method": "sendMessage", "chat_id": chat, "text": outcome.message,
                               "reply_to_message_id": message["message_id"] ?? 0])
    }

    /// What a press on a text-input button answers where the text comes in the message's
    /// thread.
    static func threadPrompt(_ prompt: ClickDesk.TextPrompt) -> String {
        "Reply in this message’s thread with your text for “\(prompt.title)”."
    }

    /// Runs blocking work (a libcurl request) off the server's event loops.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The key a Slack message's thread is remembered under: its conversation and `ts`.
    static func slackThread(_ conversation: String, _ ts: String) -> String { "\(conversation):\(ts)" }

    /// A button's `TOKEN.NUMBER` pressed: answered now, carried out after.
    /// - Parameter asksForText: the platform can send a text-input action's text back
    ///   (Slack's threads, Telegram's replies): ask for it rather than record no text.
    func press(_ value: String, channel: String, user: String, asksForText: Bool = false) throws -> ClickDesk.Outcome {
        guard let button = ButtonValue(value) else { return ClickDesk.Outcome(status: 400, message: "This button is not Chime's.") }
        let outcome = try desk.press(token: button.token, action: button.action, channel: channel,
                                     responder: user.isEmpty ? channel : "\(channel):\(user)", chatUser: user,
                                     asksForText: asksForText, now: clock())
        Self.carryOut(outcome)
        return outcome
    }

    /// A text typed in a chat thread in answer to a reminder: answered now, carried out after.
    func typed(_ text: String, token: String, action: String?, channel: String, user: String) throws -> ClickDesk.Outcome {
        let outcome = try desk.typed(text, token: token, action: action, channel: channel, responder: "\(channel):\(user)",
                                     chatUser: user, now: clock())
        Self.carryOut(outcome)
        return outcome
    }

    /// Carries an answered press out on a thread of its own: its hooks may take their whole
    /// timeout, and Swift's shared concurrency threads (one per core) must not wait on them.
    static func carryOut(_ outcome: ClickDesk.Outcome) {
        if let then = outcome.then { DispatchQueue.global().async { then() } }
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
