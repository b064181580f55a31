import ChimeCore
import ChimeRendering
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// `chime serve`: chat callbacks verified before they are parsed, and signed action
/// links (GET shows a page and never acts; POST acts), over Hummingbird. Each callback is
/// answered at once; carrying the action out (hooks may take seconds) happens after.
public struct ChimeHTTPServer: Sendable {
    public let desk: ClickDesk
    /// The real time: tokens expire, Slack's timestamps age.
    public let clock: @Sendable () -> Instant

    public init(desk: ClickDesk, clock: @escaping @Sendable () -> Instant = { Instant(Date()) }) {
        self.desk = desk
        self.clock = clock
    }

    var configuration: Configuration { desk.configuration }

    /// Serves until SIGTERM or SIGINT; `onRunning` gets the port bound (for port 0).
    public func run(host: String, port: Int, onRunning: @escaping @Sendable (Int) -> Void) async throws {
        var logger = Logger(label: "chime.serve")
        logger.logLevel = .warning
        let app = Application(
            router: router(), configuration: .init(address: .hostname(host, port: port), serverName: "chime"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? port) }, logger: logger)
        try await app.runService()
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/health") { _, _ in "ok\n" }
        router.get("/a/:token/:action") { _, context in
            let (token, action) = (context.parameters.get("token") ?? "", context.parameters.get("action") ?? "")
            let (status, title) = try desk.describe(token: token, action: action, now: clock())
            guard let title else { return Self.page(status, "Chime", Self.refusal(status)) }
            // A form, not a link: scanners follow GETs, and a GET never acts.
            return Self.page(200, title, """
                <p>Do “\(htmlEscaped(title))”?</p>
                <form method="post"><button type="submit">\(htmlEscaped(title))</button></form>
                """)
        }
        router.post("/a/:token/:action") { _, context in
            let (token, action) = (context.parameters.get("token") ?? "", context.parameters.get("action") ?? "")
            let outcome = try desk.press(token: token, action: action, channel: "link", responder: "link", now: clock())
            // No platform waits here: the page says how it went.
            outcome.then?()
            return Self.page(outcome.status, "Chime", "<p>\(htmlEscaped(outcome.message))</p>")
        }
        router.post("/slack/:channel") { request, context in
            try await slack(request, channel: context.parameters.get("channel") ?? "")
        }
        router.post("/discord/:channel") { request, context in
            try await discord(request, channel: context.parameters.get("channel") ?? "")
        }
        router.post("/mattermost/:channel") { request, context in
            try await mattermost(request, channel: context.parameters.get("channel") ?? "")
        }
        router.post("/telegram/:channel") { request, context in
            try await telegram(request, channel: context.parameters.get("channel") ?? "")
        }
        return router
    }

    // MARK: Platforms

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
                                  signature: request.headers[Self.name("X-Slack-Signature")] ?? "", now: clock().seconds)
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
                try desk.store.rememberThread(channel: channel, thread: "\(conversation):\(ts)", token: value, at: clock())
                message = "Reply in this message’s thread with your text for “\(prompt.title)”."
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
        guard let value = try desk.store.threadToken(channel: channel, thread: "\(conversation):\(thread)"),
              let dot = value.lastIndex(of: ".") else { return Self.text(200, "") }
        let outcome = try desk.typed(text, token: String(value[..<dot]), action: String(value[value.index(after: dot)...]), channel: channel,
                                     responder: "\(channel):\(user)", chatUser: user, now: clock())
        if let then = outcome.then { Task.detached { then() } }
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

    /// Mattermost action callbacks: the `context` Chime put in the button carries the
    /// token (itself an HMAC, checked in constant time) and the action's number.
    func mattermost(_ request: Request, channel: String) async throws -> Response {
        let body = try await Self.body(request)
        guard configuration.channel(channel)?.url.kind == .mattermost else { return Self.text(404, "no such Mattermost channel") }
        guard let callback = Self.json(body), let value = (callback["context"] as? [String: Any])?["token"] as? String
        else { return Self.text(400, "no context token") }
        let outcome = try press(value, channel: channel, user: callback["user_id"] as? String ?? "")
        return Self.json(outcome.status, ["ephemeral_text": outcome.message])
    }

    /// Telegram updates: the secret token header first; a callback query's data is the
    /// token and the action's number; the answer is `answerCallbackQuery`, given as the
    /// webhook's reply (Telegram calls the method for it).
    func telegram(_ request: Request, channel: String) async throws -> Response {
        let body = try await Self.body(request)
        guard let secret = secret(channel, .telegram) else { return Self.text(404, "no such Telegram channel") }
        guard ChatSignature.telegram(secret: secret, header: request.headers[Self.name("X-Telegram-Bot-Api-Secret-Token")] ?? "")
        else { return Self.text(401, "bad secret token") }
        guard let update = Self.json(body) else { return Self.text(400, "not JSON") }
        if let message = update["message"] as? [String: Any] { return try telegramReply(message, channel: channel) }
        guard let query = update["callback_query"] as? [String: Any], let id = query["id"] as? String,
              let value = query["data"] as? String else { return Self.json(200, [:]) }
        let user = ((query["from"] as? [String: Any])?["id"]).map { "\($0)" } ?? ""
        let outcome = try press(value, channel: channel, user: user, asksForText: true)
        if let prompt = outcome.wantsText, let message = query["message"] as? [String: Any],
           let chat = (message["chat"] as? [String: Any])?["id"], let dot = value.lastIndex(of: ".") {
            // ForceReply: Telegram opens the reply field on a prompt whose link carries
            // the token and the action, so the reply to it finds them again.
            let link = MessageLinks.actionURL(base: configuration.replies.linkBase, token: String(value[..<dot]), identifier: "\(prompt.number)")
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
        if let data = rows.joined().compactMap({ $0["callback_data"] as? String }).first, let dot = data.lastIndex(of: ".") {
            found = (String(data[..<dot]), nil)
        }
        for entity in replied["entities"] as? [[String: Any]] ?? [] where found == nil {
            guard let url = entity["url"] as? String, let range = url.range(of: "/a/") else { continue }
            let parts = url[range.upperBound...].split(separator: "/")
            if parts.count == 2 { found = (String(parts[0]), parts[1].removingPercentEncoding) }
        }
        guard let found else { return Self.json(200, [:]) }
        let outcome = try desk.typed(text, token: found.token, action: found.action, channel: channel,
                                     responder: "\(channel):\(user)", chatUser: user, now: clock())
        if let then = outcome.then { Task.detached { then() } }
        return Self.json(200, ["method": "sendMessage", "chat_id": chat, "text": outcome.message,
                               "reply_to_message_id": message["message_id"] ?? 0])
    }

    /// A button's `TOKEN.NUMBER` pressed: answered now, carried out after.
    /// - Parameter asksForText: the platform can send a text-input action's text back
    ///   (Slack's threads, Telegram's replies): ask for it rather than record no text.
    func press(_ value: String, channel: String, user: String, asksForText: Bool = false) throws -> ClickDesk.Outcome {
        guard let dot = value.lastIndex(of: ".") else { return ClickDesk.Outcome(status: 400, message: "This button is not Chime's.") }
        let outcome = try desk.press(token: String(value[..<dot]), action: String(value[value.index(after: dot)...]), channel: channel,
                                     responder: user.isEmpty ? channel : "\(channel):\(user)", chatUser: user,
                                     asksForText: asksForText, now: clock())
        if let then = outcome.then { Task.detached { then() } }
        return outcome
    }

    // MARK: HTTP helpers

    static func name(_ text: String) -> HTTPField.Name { HTTPField.Name(text)! }

    static func body(_ request: Request) async throws -> [UInt8] {
        Array(try await request.body.collect(upTo: 1 << 20).readableBytesView)
    }

    static func json(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    static func form(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    static func json(_ status: Int, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ status: Int, _ text: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func page(_ status: Int, _ title: String, _ content: String) -> Response {
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>\(htmlEscaped(title))</title></head>
            <body>\(content)</body></html>

            """
        return Response(status: .init(code: status), headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func refusal(_ status: Int) -> String {
        switch status {
        case 404: "<p>There is no such action.</p>"
        case 410: "<p>This reminder is no longer open to answers.</p>"
        default: "<p>This link is not valid.</p>"
        }
    }
}
