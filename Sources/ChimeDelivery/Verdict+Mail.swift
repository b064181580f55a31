import ChimeCore
import ChimeCurl

extension Verdict {
    /// How an email to `address` went: delivered when the server took it for that
    /// address; a refused RCPT is final for 5xx, worth another try for 4xx; a failure
    /// as the ``SMTPClient/Failure`` classified it.
    init(_ result: Result<SMTPClient.Sent, SMTPClient.Failure>, address: String) {
        switch result {
        case .success(let sent):
            if let refusal = sent.refused.first(where: { $0.recipient == address }) {
                self.init(refusal)
            } else {
                self.init(outcome: .delivered, code: Int(sent.reply.prefix(3)) ?? 250, message: sent.reply)
            }
        case .failure(let failure):
            if let refusal = failure.refused.first(where: { $0.recipient == address }) {
                self.init(refusal)
            } else {
                self.init(outcome: failure.temporary ? .temporary : .permanent, code: failure.code,
                          message: failure.message, unreachable: failure.unreachable)
            }
        }
    }

    /// A refused RCPT: 5xx is final for that address, 4xx worth another try.
    private init(_ refusal: SMTPClient.Refusal) {
        self.init(outcome: refusal.code >= 500 ? .permanent : .temporary, code: refusal.code, message: refusal.reply)
    }
}
