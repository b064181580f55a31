import ChimeCore
import ChimeCurl
import ChimeDelivery
import ChimeTransport
import Foundation

/// Grouped messages, digests and thread groups alike: each notification parked for one
/// goes out in exactly one, even when runs overlap (the store hands each batch to one
/// run) or one is killed (its batch is finished by a later run under the same id, which
/// replaces rather than repeats it).
extension Scheduler {
    /// What became of the batches a run sent.
    struct BatchResult {
        /// Each batch sent with something in it: its recipient and size.
        var sent: [(recipient: String, count: Int)] = []
        /// Each batch that could not go (why), kept for the next run.
        var held: [String] = []
    }

    /// Finishes the batches of the given kind that runs left unfinished: those of dead
    /// processes, and those of live ones past their lease.
    func finishUnfinished(_ kind: GroupKind, only: String? = nil, now: Instant, claimer: Claimer,
                          transports: TransportFactory, bounces: BounceMarks, turnedOff: TurnedOff, into result: inout BatchResult) throws {
        for unfinished in try store.unfinishedBatches(digests: kind == .digest) {
            if let only, unfinished.recipient != only { continue }
            // A recipient no longer in the configuration: the batch stays in the store, as
            // that recipient's notifications not yet in a batch do, to go if they come
            // back. Taken over, it was held at every run, an exit 75 nothing could clear.
            guard configuration.recipient(unfinished.recipient) != nil else { continue }
            // Another run's, still going: its own to finish.
            if let owner = unfinished.claimer, owner != claimer, !ProcessIdentity.isDead(owner),
               now.seconds - unfinished.createdAt.seconds < Int64(lease) { continue }
            try sendAndRecord(try store.takeOver(unfinished, claimer: claimer), now: now, transports: transports, bounces: bounces,
                              turnedOff: turnedOff, into: &result)
        }
    }

    /// Starts a recipient's batch (see ``NotificationStore/claimBatch(id:recipient:thread:slot:claimer:at:)``)
    /// and sends it, unless another run has it.
    func claimAndSend(id: String, recipient: String, thread: String?, slot: Instant, now: Instant, claimer: Claimer,
                      transports: TransportFactory, bounces: BounceMarks, turnedOff: TurnedOff, into result: inout BatchResult) throws {
        let batch = try store.claimBatch(id: id, recipient: recipient, thread: thread, slot: slot, claimer: claimer, at: now)
        try sendAndRecord(batch, now: now, transports: transports, bounces: bounces, turnedOff: turnedOff, into: &result)
    }

    /// Sends a batch this run holds (nil: none), and notes in `result` what became of it.
    private func sendAndRecord(_ batch: MessageBatch?, now: Instant, transports: TransportFactory, bounces: BounceMarks,
                               turnedOff: TurnedOff, into result: inout BatchResult) throws {
        guard let batch else { return }
        // The batch takes every item it holds; a replaced one is not shown, nor one whose
        // category its recipient has turned off since it was kept.
        let shown = try turnedOff.wanted(batch.items.latestPerRequest, by: batch.recipient)
        if let problem = try send(batch, showing: shown, now: now, transports: transports, bounces: bounces) {
            result.held.append(problem)
        } else if !shown.isEmpty {
            result.sent.append((batch.recipient, shown.count))
        }
    }

    /// Sends, as one message per address, each thread whose recipient's group wait has
    /// passed since its first notification fired.
    func sendWaitingGroups(now: Instant, claimer: Claimer, transports: TransportFactory) throws -> BatchResult {
        var result = BatchResult()
        let (bounces, turnedOff) = (BounceMarks(read: store.undeliverable), TurnedOff(read: store.preferences))
        try finishUnfinished(.thread, now: now, claimer: claimer, transports: transports, bounces: bounces, turnedOff: turnedOff, into: &result)
        for group in try store.waitingGroups() {
            guard let recipient = configuration.recipient(group.recipient), group.first.seconds + recipient.groupWait <= now.seconds else { continue }
            // Named after its first notification: one group per first, whichever run sends it.
            let id = "group-\(group.first.seconds)-" + stableHash("\(group.recipient)\u{0}\(group.firstDeliveryID)")
            try claimAndSend(id: id, recipient: group.recipient, thread: group.thread, slot: group.first, now: now, claimer: claimer,
                             transports: transports, bounces: bounces, turnedOff: turnedOff, into: &result)
        }
        return result
    }

    /// Renders and delivers one batch (`shown`: its items, each request's latest) to each
    /// email and chat address of its recipient
    /// (a thread group of one as the single message it is), then marks it sent, queuing
    /// the network deliveries in the same transaction; returns why it could not. `file:`
    /// channels, feeds for programs, take each notification as it fires and no batches.
    private func send(_ batch: MessageBatch, showing shown: [ParkedNotification], now: Instant, transports: TransportFactory,
                      bounces: BounceMarks) throws -> String? {
        // Nothing left to show (every item turned off since): finished, nothing sent.
        guard !shown.isEmpty else {
            try store.finishBatch(batch, queued: [], at: now)
            return nil
        }
        guard let recipient = configuration.recipient(batch.recipient) else {
            return "\(batch.recipient): not in the configuration"
        }
        let kind: GroupKind = batch.thread == nil ? .digest : .thread
        let single = kind == .thread && shown.count == 1
        var queued: [QueuedDelivery] = []
        // Addresses a hard bounce marked get none; with no other address, the batch waits.
        let takers = recipient.addresses.compactMap { address in
            configuration.channel(address.channel).flatMap { $0.takesBatches ? (address, $0) : nil }
        }
        // None at all (the configuration changed since they were kept: `fire` keeps none
        // for a recipient without one): held until one takes them, never marked sent.
        if takers.isEmpty { return Self.noTakers(recipient, count: shown.count) }
        let addresses = try takers.filter { try !bounces.contains($0.0.value, on: $0.1) }
        if addresses.isEmpty { return Self.allBounced(recipient) }
        for (address, channel) in addresses {
            let items = shown.map {
                OutgoingNotification(request: $0.request, recipient: recipient, address: address, channel: channel,
                                     fireDate: $0.fireDate, deliveryID: $0.deliveryID, coalesced: 0)
            }
            do {
                guard channel.url.kind.isEmail else {
                    let body = single ? try renderer.payload(items[0]) : try renderer.groupPayload(items, kind: kind)
                    queued.append(QueuedDelivery(channel: channel.id, address: address.value, body: body))
                    continue
                }
                let message = single ? try renderer.email(items[0]) : try renderer.groupEmail(items, id: batch.id, date: now, kind: kind)
                queued += try place(message, named: batch.id, channel: channel, address: address, transports: transports)
            } catch {
                return configuration.redact("\(batch.recipient): channel \"\(channel.id)\": \(error)")
            }
        }
        try store.finishBatch(batch, queued: queued, at: now)
        return nil
    }

    /// Places an email that has a name of its own (a batch's, an opt-in request's): written
    /// into a Maildir channel's folder under that name and its address's, once however
    /// many runs write it (none returned); else returned, to be queued for SMTP with the
    /// store's record of it. (Named by the channel alone, the message to a recipient's
    /// second address on the same Maildir channel was taken for the first's, already
    /// written, and never written.)
    func place(_ message: String, named name: String, channel: Channel, address: Recipient.Address,
               transports: TransportFactory) throws -> [QueuedDelivery] {
        let bytes = Array(message.utf8)
        if let folder = try transports.maildir(for: channel) {
            _ = try folder.add(bytes, name: "\(name).\(channel.id).\(stableHash(address.value)).chime")
            return []
        }
        return [QueuedDelivery(channel: channel.id, address: address.value, body: SMTPClient.crlf(bytes))]
    }
}

extension Channel {
    /// Whether grouped messages and digests go to it: email and chat; `file:` feeds, for
    /// programs, take each notification as it fires.
    var takesBatches: Bool { url.kind.isEmail || url.kind.sendsOverNetwork }
}
