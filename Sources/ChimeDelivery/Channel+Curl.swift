import ChimeCore
import ChimeCurl
import Crypto

/// What libcurl needs from a channel: the SMTP or IMAP server, or the webhook request.
extension Channel {
    var timeouts: CurlEasy.Timeouts {
        CurlEasy.Timeouts(connect: Int(policy.connectTimeout * 1_000), total: Int(policy.timeout * 1_000))
    }

    /// The server of an `smtp(s)://` or `imap(s)://` channel, with its credentials.
    public var mailServer: MailServer {
        let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        let port = url.port ?? url.kind.defaultPort ?? 0
        return MailServer(
            url: "\(url.kind.rawValue)://\(host):\(port)", username: url.user, password: url.password,
            startTLS: url.startTLS == .required ? .required : .whenOffered,
            caFile: caFile, verifyTLS: !url.insecure, timeouts: timeouts, pipelining: url.pipelining)
    }

    /// The POST of a webhook payload. Generic webhooks also get an `Idempotency-Key`, the
    /// same on every resend of one delivery, so a receiver can drop a duplicate.
    func webhookRequest(body: [UInt8], idempotencyKey: String) -> HTTPPool.Request {
        var headers = ["Content-Type: application/json; charset=utf-8", "User-Agent: chime"]
        if url.kind == .json || url.kind == .jsons {
            headers.append("Idempotency-Key: \(idempotencyKey)")
            if let signingSecret {
                let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Array(signingSecret.utf8)))
                headers.append("X-Chime-Signature: sha256=" + Hex.string(mac))
            }
        }
        return HTTPPool.Request(url: url.endpoint?.absoluteString ?? "", method: .post, body: body, headers: headers,
                                timeouts: timeouts, caFile: caFile, verifyTLS: !url.insecure)
    }
}

extension OutboxDelivery {
    /// The delivery id, and the address when there is one: one key per destination,
    /// the same on every resend.
    var idempotencyKey: String { address.isEmpty ? deliveryID : "\(deliveryID):\(address)" }
}
