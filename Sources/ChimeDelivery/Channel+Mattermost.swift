import ChimeCore
import ChimeCurl
import Foundation

/// What `chime serve` asks Mattermost's REST API (with the channel's `apiToken`, a bot's
/// access token): the thread a post is in. Mattermost's outgoing webhooks bring a
/// message's `post_id` but not its `root_id`.
extension Channel {
    /// The id of the thread's first post when post `id` is a reply in a thread; nil when
    /// it starts none. Blocks for one request.
    public func mattermostThreadRoot(ofPost id: String) throws -> String? {
        // Mattermost's ids are 26 characters of [a-z0-9]; anything else stays out of the URL.
        guard id.count == 26, id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else {
            throw APIError(description: "\(self.id): \"\(id.prefix(40))\" is not a Mattermost post id")
        }
        guard let apiToken, var components = url.endpoint.flatMap({ URLComponents(url: $0, resolvingAgainstBaseURL: false) }) else {
            throw APIError(description: "\(self.id): no apiToken to read threads with")
        }
        // The REST API is under the path the server is served from, as the webhook's
        // `/hooks/KEY` is (`https://example.org/chat/hooks/KEY`: `/chat/api/v4/…`).
        let served = components.path.range(of: "/hooks/", options: .backwards).map { String(components.path[..<$0.lowerBound]) } ?? ""
        components.path = served + "/api/v4/posts/\(id)"
        components.query = nil
        components.user = nil
        components.password = nil
        let request = HTTPPool.Request(url: components.url?.absoluteString ?? "", method: .get,
                                       headers: ["Authorization: Bearer \(apiToken)", "User-Agent: chime"],
                                       timeouts: timeouts, caFile: caFile, verifyTLS: !url.insecure)
        let response = try HTTPPool(bodyLimit: 1 << 20).perform(request)
        if let error = response.error { throw APIError(description: "\(self.id): \(error.message)") }
        guard response.status == 200,
              let post = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] else {
            throw APIError(description: "\(self.id): Mattermost answered \(response.status) for post \(id)")
        }
        let root = post["root_id"] as? String ?? ""
        return root.isEmpty ? nil : root
    }
}
