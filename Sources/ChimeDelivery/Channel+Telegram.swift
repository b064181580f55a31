import ChimeCore
import Foundation

/// What `chime serve` asks Telegram's Bot API beside a webhook's reply, which carries one
/// method only.
extension Channel {
    /// Answers a callback query (`answerCallbackQuery`, no text), which stops the
    /// progress indicator Telegram's clients show on a pressed button until it is called:
    /// for a text-input action's button, whose webhook reply is the ForceReply prompt.
    /// The bot's method URL is the channel's with its last path segment (`sendMessage`,
    /// written with a slash after it or not) changed. Blocks for one request.
    public func telegramAnswerCallbackQuery(_ id: String) throws {
        guard var components = url.endpoint.flatMap({ URLComponents(url: $0, resolvingAgainstBaseURL: false) }) else {
            throw APIError(description: "\(self.id): no Bot API URL to answer a callback query at")
        }
        var path = Substring(components.path)
        while path.hasSuffix("/") { path = path.dropLast() }
        guard let method = path.range(of: "/", options: .backwards) else {
            throw APIError(description: "\(self.id): no Bot API URL to answer a callback query at")
        }
        components.path = path[..<method.upperBound] + "answerCallbackQuery"
        components.query = nil
        try postToPlatform(["callback_query_id": id], at: components.url?.absoluteString ?? "", platform: "Telegram", call: "answerCallbackQuery")
    }
}
