import ChimeCore

extension Channel {
    /// Why a chat platform's API, asked by `chime serve` beside a callback's answer
    /// (Mattermost's threads, Telegram's callback queries), gave no answer.
    public struct APIError: Error, CustomStringConvertible {
        public var description: String
    }
}
