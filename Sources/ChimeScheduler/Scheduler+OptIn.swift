import ChimeCore
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
    /// Maildirs under its delivery id (once, even when two runs write it, or a run repeats
    /// it after a failure), or queued for SMTP in the transaction that records the asking.
    func askToOptIn(_ recipient: Recipient, now: Instant, transports: TransportFactory, bounces: BounceMarks) throws -> Asking {
        let request = OptIn.request(for: recipient.id)
        // A new round's id after a reset: the old request's links confirm nothing.
        let last = try store.lastOptIn(recipient: recipient.id)
        if let last, !last.reset { return .askedBefore }
        let deliveryID = OptIn.deliveryID(recipient: recipient.id, after: last?.deliveryID)
        let addresses = recipient.addresses.compactMap { address in
            configuration.channel(address.channel).flatMap { $0.url.kind.isEmail ? (address, $0) : nil }
        }
        guard !addresses.isEmpty else {
            return .held("recipient \"\(recipient.id)\" has not opted in and has no email address to ask")
        }
        let deliverable = try addresses.filter { try !bounces.contains($0.0.value, on: $0.1) }
        guard !deliverable.isEmpty else { return .held(Self.allBounced(recipient)) }
        var queued: [QueuedDelivery] = []
        for (address, channel) in deliverable {
            let outgoing = OutgoingNotification(request: request, recipient: recipient, address: address, channel: channel,
                                                fireDate: now, deliveryID: deliveryID, coalesced: 0)
            do {
                queued += try place(try renderer.optInEmail(outgoing), named: deliveryID, channel: channel, address: address, transports: transports)
            } catch {
                return .held("channel \"\(channel.id)\": \(error)")
            }
        }
        return try store.recordOptIn(request, deliveryID: deliveryID, queued: queued, at: now) ? .asked : .askedBefore
    }
}
