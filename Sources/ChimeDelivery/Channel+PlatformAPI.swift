import ChimeCore
import ChimeCurl
import Foundation

extension Channel {
    /// Why a chat platform's API, asked by `chime serve` beside a callback's answer
    /// (Mattermost's threads, Telegram's callback queries), gave no answer.
    public struct APIError: Error, CustomStringConvertible {
        public var description: String
    }
}

extension Channel {
    /// POSTs `object` as JSON to a platform's API at `url`, with the channel's timeouts
    /// and TLS settings; a refusal is said as "`platform` answered 400 to `call`". Blocks
    /// for one request.
    func postToPlatform(_ object: [String: Any], at url: String, platform: String, call: String) throws {
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        let request = HTTPPool.Request(url: url, body: Array(body), headers: ["Content-Type: application/json", "User-Agent: chime"],
                                       timeouts: timeouts, caFile: caFile, verifyTLS: !self.url.insecure)
        let response = try HTTPPool(bodyLimit: 1 << 16).perform(request)
        if let error = response.error { throw APIError(description: "\(id): \(error.message)") }
        guard (200..<300).contains(response.status) else {
            throw APIError(description: "\(id): \(platform) answered \(response.status) to \(call)")
        }
    }
}
