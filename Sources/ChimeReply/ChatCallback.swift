import Foundation

/// What a chat platform's callback body says, read without acting on it: the parsing half
/// of `chime serve`'s chat routes, kept apart so that it can be tested and fuzzed on
/// bytes alone. Each body is read once (JSON by Foundation, forms by hand), and every
/// field is optional: a body of the wrong shape is `.malformed`, never a crash.
public enum ChatCallback: Equatable, Sendable {
    /// A button pressed: its value (`TOKEN.NUMBER`), the platform's user, where its
    /// message is (Slack's conversation and `ts`, Mattermost's post, Telegram's chat and
    /// message), for a text prompt, and where the answer goes when the platform shows
    /// nothing of the acknowledgement's body (Slack's `response_url`).
    case press(value: String, user: String, conversation: String, message: String?, answerURL: String? = nil)
    /// A person's message in a thread (Slack's Events API): the thread's conversation and
    /// `ts`, the text as typed (``SlackText/plain(_:)``) and its author.
    case threadMessage(conversation: String, thread: String, text: String, user: String)
    /// A Mattermost outgoing webhook's message: its token, post, text and author.
    case webhookMessage(token: String, post: String, text: String, user: String)
    /// A Telegram button: its callback query's id, value and user, and its message's
    /// chat and id (where a text prompt goes).
    case callbackQuery(id: String, value: String, user: String, chat: Int64?, message: Int?)
    /// A Telegram message answering a bot's: its text, author, chat and id, and the
    /// button values and links of the message it answers, and that bot's id.
    case reply(text: String, user: String, chat: Int64, message: Int, buttons: [String], links: [String], bot: String)
    /// Slack's `url_verification`: answered with its challenge.
    case challenge(String)
    /// Discord's modal dialog submitted (`MODAL_SUBMIT`): the dialog's `custom_id` (the
    /// pressed button's) and the text typed in its field.
    case dialogText(value: String, text: String, user: String)
    /// Discord's PING.
    case ping
    /// Well-formed, but nothing to act on (a bot's message, an edit, another event).
    case ignored
    /// Not the platform's shape at all, with what is wrong.
    case malformed(String)

    /// Slack: interactivity (a form with a `payload` field of block_actions JSON) or the
    /// Events API (JSON).
    public static func slack(_ body: [UInt8]) -> ChatCallback {
        if body.first == UInt8(ascii: "{") {
            guard let envelope = json(body) else { return .malformed("not JSON") }
            if envelope["type"] as? String == "url_verification" { return .challenge(envelope["challenge"] as? String ?? "") }
            guard envelope["type"] as? String == "event_callback", let event = envelope["event"] as? [String: Any],
                  // A reply also sent to the channel ("Also send to #channel") is a
                  // `thread_broadcast`, a person's message all the same.
                  event["type"] as? String == "message", event["subtype"] == nil || event["subtype"] as? String == "thread_broadcast",
                  event["bot_id"] == nil,
                  let thread = event["thread_ts"] as? String, let text = event["text"] as? String, let user = event["user"] as? String,
                  event["ts"] as? String != thread
            else { return .ignored }
            return .threadMessage(conversation: event["channel"] as? String ?? "", thread: thread, text: SlackText.plain(text), user: user)
        }
        guard let payload = form(body)["payload"].flatMap({ json(Array($0.utf8)) }),
              let action = (payload["actions"] as? [[String: Any]])?.first
        else { return .malformed("not a block_actions payload") }
        // A link button (the View button) has no value: Slack tells of its press all the
        // same, and shows a warning by the button unless it is acknowledged.
        guard let value = action["value"] as? String else { return action["url"] is String ? .ignored : .malformed("a button without a value") }
        let container = payload["container"] as? [String: Any]
        let ts = container?["message_ts"] as? String ?? (payload["message"] as? [String: Any])?["ts"] as? String
        let conversation = container?["channel_id"] as? String ?? (payload["channel"] as? [String: Any])?["id"] as? String ?? ""
        return .press(value: value, user: (payload["user"] as? [String: Any])?["id"] as? String ?? "", conversation: conversation, message: ts,
                      answerURL: payload["response_url"] as? String)
    }

    /// Discord interactions: PING, a component's `custom_id`, or a modal dialog's text.
    public static func discord(_ body: [UInt8]) -> ChatCallback {
        guard let interaction = json(body) else { return .malformed("not JSON") }
        if interaction["type"] as? Int == 1 { return .ping }
        guard let data = interaction["data"] as? [String: Any], let value = data["custom_id"] as? String else { return .malformed("no custom_id") }
        let member = (interaction["member"] as? [String: Any])?["user"] as? [String: Any]
        let user = (member ?? interaction["user"] as? [String: Any])?["id"] as? String ?? ""
        if interaction["type"] as? Int == 5 {
            // Action rows of text inputs: the one Chime's dialog has is its `text`.
            let inputs = (data["components"] as? [[String: Any]] ?? []).flatMap { $0["components"] as? [[String: Any]] ?? [] }
            guard let text = inputs.first(where: { $0["custom_id"] as? String == "text" })?["value"] as? String else {
                return .malformed("no text field")
            }
            return .dialogText(value: value, text: text, user: user)
        }
        return .press(value: value, user: user, conversation: "", message: nil)
    }

    /// Mattermost: an action callback (JSON whose `context` holds the button's token), or
    /// an outgoing webhook's message (a form or JSON, with `post_id` and no `context`).
    public static func mattermost(_ body: [UInt8]) -> ChatCallback {
        let fields: [String: Any]
        if body.first == UInt8(ascii: "{") {
            guard let object = json(body) else { return .malformed("neither a form nor JSON") }
            fields = object
        } else {
            fields = form(body)
        }
        if fields["context"] == nil, let post = fields["post_id"] as? String {
            guard let text = fields["text"] as? String, let user = fields["user_id"] as? String else {
                return .webhookMessage(token: fields["token"] as? String ?? "", post: post, text: "", user: "")
            }
            return .webhookMessage(token: fields["token"] as? String ?? "", post: post, text: text, user: user)
        }
        guard let value = (fields["context"] as? [String: Any])?["token"] as? String else { return .malformed("no context token") }
        let post = (fields["post_id"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return .press(value: value, user: fields["user_id"] as? String ?? "", conversation: fields["channel_id"] as? String ?? "", message: post)
    }

    /// Telegram updates: a callback query (a button), or a message answering another.
    public static func telegram(_ body: [UInt8]) -> ChatCallback {
        guard let update = json(body) else { return .malformed("not JSON") }
        if let message = update["message"] as? [String: Any] {
            guard let replied = message["reply_to_message"] as? [String: Any], let text = message["text"] as? String,
                  let chat = integer((message["chat"] as? [String: Any])?["id"]) else { return .ignored }
            // Tokens are read only from a bot's message (Chime's, when the caller checks
            // the bot's id): anyone can write a message with a link in it and answer that.
            let author = replied["from"] as? [String: Any]
            guard author?["is_bot"] as? Bool == true else { return .ignored }
            let bot = integer(author?["id"]).map { "\($0)" } ?? ""
            let rows = (replied["reply_markup"] as? [String: Any])?["inline_keyboard"] as? [[Any]] ?? []
            let buttons = rows.joined().compactMap { ($0 as? [String: Any])?["callback_data"] as? String }
            let links = (replied["entities"] as? [Any] ?? []).compactMap { ($0 as? [String: Any])?["url"] as? String }
            return .reply(text: text, user: ((message["from"] as? [String: Any])?["id"]).map { "\($0)" } ?? "", chat: chat,
                          message: integer(message["message_id"]).map { Int($0) } ?? 0, buttons: buttons, links: links, bot: bot)
        }
        guard let query = update["callback_query"] as? [String: Any], let id = query["id"] as? String,
              let value = query["data"] as? String else { return .ignored }
        let message = query["message"] as? [String: Any]
        return .callbackQuery(id: id, value: value, user: ((query["from"] as? [String: Any])?["id"]).map { "\($0)" } ?? "",
                              chat: integer((message?["chat"] as? [String: Any])?["id"]), message: integer(message?["message_id"]).map { Int($0) })
    }

    /// A JSON number that is a whole number in range, else nil.
    static func integer(_ value: Any?) -> Int64? {
        switch value {
        case let number as Int: return Int64(number)
        case let number as Int64: return number
        case let number as Double where number.rounded() == number && abs(number) < 9e15: return Int64(number)
        case let number as NSNumber: return Int64(exactly: number.doubleValue)
        default: return nil
        }
    }

    /// A JSON object, or nil.
    public static func json(_ bytes: [UInt8]) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    /// An `application/x-www-form-urlencoded` body's fields (the first of each name), as
    /// the WHATWG URL standard reads them: an empty value (`quietHours=`, a field a person
    /// emptied) is a field with the value "", and so is a name without `=`.
    public static func form(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            if fields[parts[0]] == nil { fields[parts[0]] = parts.count == 2 ? parts[1] : "" }
        }
        return fields
    }
}
