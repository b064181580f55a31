import ChimeCore
import ChimeCurl
import Foundation

extension Courier {
    /// Sends a channel's emails in order over its one connection; each outcome is recorded
    /// while the next message goes (``Recorder``).
    func sendMail(_ entries: [OutboxDelivery], channel: Channel, client: inout SMTPClient?) throws {
        guard let claimer else { return }
        var pace = Pace()
        let recorder = Recorder(store: store, claimer: claimer)
        var finished = false
        defer { if !finished { try? recorder.finish() } }
        for (index, entry) in entries.enumerated() {
            guard !unreachable.contains(channel.id) else {
                report.deferred += entries.count - index
                break
            }
            if let gate = pace.notBefore, gate > .now { Thread.sleep(forTimeInterval: Self.seconds(gate - .now)) }
            pace.started(rate: channel.policy.rate)
            let verdict: Verdict
            do {
                let smtp = try client ?? SMTPClient(channel.mailServer)
                client = smtp
                let sent = try smtp.send(from: envelopeSender(entry, channel: channel), to: [entry.address], message: entry.body)
                if let refusal = sent.refused.first(where: { $0.recipient == entry.address }) {
                    verdict = Self.verdict(refusal)
                } else {
                    verdict = Verdict(outcome: .delivered, code: Int(sent.reply.prefix(3)) ?? 250, message: sent.reply)
                }
            } catch let failure as SMTPClient.Failure {
                if let refusal = failure.refused.first(where: { $0.recipient == entry.address }) {
                    verdict = Self.verdict(refusal)
                } else {
                    verdict = Verdict(outcome: failure.temporary ? .temporary : .permanent, code: failure.code,
                                      message: failure.message, unreachable: failure.unreachable)
                }
            } catch {
                verdict = Verdict(outcome: .temporary, code: 0, message: "\(error)")
            }
            if verdict.unreachable { unreachable.insert(channel.id) }
            try recorder.add(settlement(entry, verdict, policy: channel.policy).record)
        }
        finished = true
        try recorder.finish()
    }

    /// The envelope sender of one email: the channel's return path with a token issued for
    /// its one address (VERP), so a delivery report about that address can be believed;
    /// the channel's own address when no token can be made.
    func envelopeSender(_ entry: OutboxDelivery, channel: Channel) -> String {
        guard let token = returnPathToken?(entry.deliveryID, entry.recipient, entry.address, now) else { return channel.envelopeFrom }
        return channel.returnPath(token: token)
    }

    /// A refused RCPT: 5xx is final for that address, 4xx worth another try.
    private static func verdict(_ refusal: SMTPClient.Refusal) -> Verdict {
        Verdict(outcome: refusal.code >= 500 ? .permanent : .temporary, code: refusal.code, message: refusal.reply)
    }
}
