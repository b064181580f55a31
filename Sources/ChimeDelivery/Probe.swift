import ChimeCore
import ChimeCurl
import Foundation

/// `chime check --probe`: whether each network channel answers, without sending anything.
public enum Probe {
    public struct Result: Sendable {
        public var channel: String
        public var reachable: Bool
        /// The server's reply, or why it could not be reached (secrets removed).
        public var detail: String
    }

    /// Connects to each SMTP or webhook channel as a delivery would: SMTP greets, upgrades
    /// to TLS and logs in, then asks NOOP; a webhook gets an HTTP HEAD (any status means
    /// the server answered over a verified connection). An IMAP channel logs in and
    /// counts the unseen messages, as `chime fetch` starts. Local channels are not probed.
    public static func run(_ configuration: Configuration) -> [Result] {
        configuration.channels.filter { !$0.url.kind.isLocal }.map { channel in
            do {
                return Result(channel: channel.id, reachable: true, detail: oneLine(configuration.redact(try probe(channel))))
            } catch {
                return Result(channel: channel.id, reachable: false, detail: oneLine(configuration.redact("\(error)")))
            }
        }
    }

    /// What the channel's server answered.
    /// - Throws: why it could not be reached, in its own words.
    private static func probe(_ channel: Channel) throws -> String {
        if channel.url.kind.isInbound {
            return "\(channel.url.mailbox): \(try IMAPClient(channel.mailServer, mailbox: channel.url.mailbox).probe()) unseen"
        }
        if channel.url.kind.isEmail { return try SMTPClient(channel.mailServer).probe() }
        var request = channel.webhookRequest(body: [], idempotencyKey: "")
        request.method = .head
        let response = try HTTPPool().perform(request)
        if let error = response.error { throw Unanswered(description: error.message) }
        return "HTTP \(response.status)" + (response.httpVersion == 2 ? " over HTTP/2" : "")
    }

    /// A server's reply as one line: its CRLF ends, and those between the lines of a
    /// multi-line reply, are not printed (the lines are joined by a space).
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A webhook server that could not be reached, in libcurl's words.
    private struct Unanswered: Error, CustomStringConvertible {
        var description: String
    }
}
