import ChimeCore
import Foundation

/// What `chime serve` sends Slack beside a press's acknowledgement: Slack shows nothing
/// of the body that acknowledges a `block_actions` payload, so the answer to the person
/// who pressed goes to the payload's `response_url` (an ephemeral message, seen by them
/// alone).
extension Channel {
    /// The press's `response_url` when it is the channel's own webhook host (Slack's
    /// `hooks.slack.com`, where incoming webhooks and response URLs both live), over
    /// https on the same port: the payload is signed, but an answer is never sent where a
    /// leaked signing secret could point it, inside the network Chime runs in. Else nil.
    public func slackResponseURL(_ text: String) -> URL? {
        guard url.kind == .slack, text.utf8.count <= 2048, let endpoint = url.endpoint,
              let components = URLComponents(string: text), components.scheme?.lowercased() == "https",
              components.user == nil, components.password == nil,
              let host = components.host?.lowercased(), host == endpoint.host?.lowercased(),
              (components.port ?? 443) == (endpoint.port ?? 443)
        else { return nil }
        return components.url
    }

    /// Posts `answer` (JSON) to a press's response URL (``slackResponseURL(_:)``), with
    /// the channel's timeouts and TLS settings. Blocks for one request.
    public func slackRespond(_ answer: [String: Any], at responseURL: URL) throws {
        try postToPlatform(answer, at: responseURL.absoluteString, platform: "Slack", call: "the press's answer")
    }

    /// Posts `text` into the thread whose parent message is `thread` (its `ts`) through
    /// the channel's own incoming webhook, which takes a `thread_ts`: the answer to a text
    /// written in a reminder's thread, seen there by whoever sees the thread. Blocks for
    /// one request.
    public func slackAnswerInThread(_ text: String, thread: String) throws {
        guard url.kind == .slack, let endpoint = url.endpoint else { return }
        try postToPlatform(["text": text, "thread_ts": thread, "mrkdwn": false], at: endpoint.absoluteString,
                           platform: "Slack", call: "the answer in a thread")
    }
}
