import ChimeCore
import ChimeReply
import Crypto
import Foundation

/// How each chat platform proves a callback is its own, checked on the raw body before
/// anything is parsed. Each is a few lines over swift-crypto: no maintained Swift
/// package does these checks.
enum ChatSignature {
    /// Slack's v0 signature: `X-Slack-Signature` is `v0=` and the hex HMAC-SHA256 of
    /// `v0:{X-Slack-Request-Timestamp}:{body}` under the app's signing secret; the
    /// timestamp must be within five minutes of now (a replayed request is refused).
    static func slack(secret: String, timestamp: String, body: [UInt8], signature: String, now: Int64) -> Bool {
        guard let seconds = Int64(timestamp), abs(now - seconds) <= 300 else { return false }
        let base = Array("v0:\(timestamp):".utf8) + body
        let mac = HMAC<SHA256>.authenticationCode(for: base, using: SymmetricKey(data: Array(secret.utf8)))
        return constantTimeEqual(Array(("v0=" + Hex.string(mac)).utf8), Array(signature.lowercased().utf8))
    }

    /// Discord's: `X-Signature-Ed25519` is the hex Ed25519 signature of
    /// `{X-Signature-Timestamp}{body}` under the application's public key (hex).
    static func discord(publicKey: String, timestamp: String, body: [UInt8], signature: String) -> Bool {
        guard let keyBytes = Hex.bytes(publicKey), let signatureBytes = Hex.bytes(signature),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes) else { return false }
        return key.isValidSignature(signatureBytes, for: Array(timestamp.utf8) + body)
    }

    /// Telegram's and Mattermost's outgoing webhooks': a secret sent as it is (Telegram's
    /// `X-Telegram-Bot-Api-Secret-Token` header, the webhook's `token` field) equals the
    /// one it was set up with, compared in constant time. An empty secret matches
    /// nothing, not even an empty one.
    static func sameSecret(_ secret: String, _ given: String) -> Bool {
        !secret.isEmpty && constantTimeEqual(Array(secret.utf8), Array(given.utf8))
    }
}
