import ChimeCore
import ChimeCurl

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
            let outcome: (Bool, String)
            if channel.url.kind.isInbound {
                do {
                    let unseen = try IMAPClient(channel.mailServer, mailbox: channel.url.mailbox).probe()
                    outcome = (true, "\(channel.url.mailbox): \(unseen) unseen")
                } catch {
                    outcome = (false, "\(error)")
                }
            } else if channel.url.kind.isEmail {
                do {
                    outcome = (true, try SMTPClient(channel.mailServer).probe())
                } catch {
                    outcome = (false, "\(error)")
                }
            } else {
                do {
                    var request = channel.webhookRequest(body: [], idempotencyKey: "")
                    request.method = .head
                    let response = try HTTPPool().perform(request)
                    if let error = response.error {
                        outcome = (false, error.message)
                    } else {
                        outcome = (true, "HTTP \(response.status)" + (response.httpVersion == 2 ? " over HTTP/2" : ""))
                    }
                } catch {
                    outcome = (false, "\(error)")
                }
            }
            return Result(channel: channel.id, reachable: outcome.0, detail: configuration.redact(outcome.1))
        }
    }
}
