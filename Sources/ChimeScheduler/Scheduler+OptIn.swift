import ChimeCore
import ChimeCurl
import ChimeTransport

/// Double opt-in (``OptIn``): what a `notDetermined` recipient gets instead of their
/// first reminder.
extension Scheduler {
    /// What asking a recipient to opt in came to.
    enum Asking {
        case asked
        /// Another run asked them first.
        case askedBefore
        /// Nothing could be sent (why): the notification waits for the next run.
        case held(String)
    }

    /// Sends a recipient's opt-in request to each of their email addresses: written into
    /// Maildirs under its delivery id (once, even when two runs write it), or queued for
    /// SMTP in the transaction that records the asking.
    func askToOptIn(_ recipient: Recipient, now: Instant, transports: TransportFactory) throws -> Asking {
        let request = OptIn.request(for: recipient.id)
        let deliveryID = OptIn.deliveryID(recipient: recipient.id)
        var local: [(MaildirFolder, [UInt8], String)] = []
        var queued: [QueuedDelivery] = []
        for address in recipient.addresses {
            guard let channel = configuration.channel(address.channel), channel.url.kind.isEmail else { continue }
            let outgoing = OutgoingNotification(request: request, recipient: recipient, address: address, channel: channel,
                                                fireDate: now, deliveryID: deliveryID, coalesced: 0)
            do {
                let message = Array(try renderer.optInEmail(outgoing).utf8)
                if let folder = try transports.maildir(for: channel) {
                    local.append((folder, message, "\(deliveryID).\(channel.id).chime"))
                } else {
                    queued.append(QueuedDelivery(channel: channel.id, address: address.value, body: SMTPClient.crlf(message)))
                }
            } catch {
                return .held("channel \"\(channel.id)\": \(error)")
            }
        }
        guard !local.isEmpty || !queued.isEmpty else {
            return .held("recipient \"\(recipient.id)\" has not opted in and has no email address to ask")
        }
        for (folder, message, name) in local {
            do {
                _ = try folder.add(message, name: name)
            } catch {
                return .held("\(error)")
            }
        }
        return try store.recordOptIn(request, deliveryID: deliveryID, queued: queued, at: now) ? .asked : .askedBefore
    }
}
