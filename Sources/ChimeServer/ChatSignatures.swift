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
    static func slack(secret: String, timestamp: String, body: [UInt8], signature: String, now: Int64 = realNow()) -> Bool {
        guard isFresh(timestamp, now: now) else { return false }
        let base = Array("v0:\(timestamp):".utf8) + body
        let mac = HMAC<SHA256>.authenticationCode(for: base, using: SymmetricKey(data: Array(secret.utf8)))
        return constantTimeEqual(Array(("v0=" + Hex.string(mac)).utf8), Array(signature.lowercased().utf8))
    }

    /// Discord's: `X-Signature-Ed25519` is the hex Ed25519 signature of
    /// `{X-Signature-Timestamp}{body}` under the application's public key (hex); the
    /// timestamp within five minutes of now, as Slack's (Discord sends each interaction
    /// once, at once: an old one signed is a replay).
    static func discord(publicKey: String, timestamp: String, body: [UInt8], signature: String, now: Int64 = realNow()) -> Bool {
        isFresh(timestamp, now: now) && ed25519(publicKey: publicKey, message: Array(timestamp.utf8) + body, signature: signature)
    }

    /// Whether `signature` (hex) is the Ed25519 signature of `message` under `publicKey` (hex).
    static func ed25519(publicKey: String, message: [UInt8], signature: String) -> Bool {
        guard let keyBytes = Hex.bytes(publicKey), let signatureBytes = Hex.bytes(signature),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: keyBytes) else { return false }
        return key.isValidSignature(signatureBytes, for: message)
    }

    /// The clock a callback's age is read by: real time, whatever instant `--now` replays.
    static func realNow() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// A callback's Unix-time stamp within five minutes of `now`, either way. Read before
    /// the signature is: a stamp as far from now as an `Int64` goes is refused, not
    /// subtracted past the type's range (which trapped and ended the server).
    static func isFresh(_ timestamp: String, now: Int64) -> Bool {
        guard let seconds = Int64(timestamp) else { return false }
        let (difference, overflow) = now.subtractingReportingOverflow(seconds)
        return !overflow && difference.magnitude <= 300
    }

    /// Telegram's and Mattermost's outgoing webhooks': a secret sent as it is (Telegram's
    /// `X-Telegram-Bot-Api-Secret-Token` header, the webhook's `token` field) equals the
    /// one it was set up with, compared in constant time. An empty secret matches
    /// nothing, not even an empty one. Their SHA-256 digests are compared, which are of
    /// one length: comparing the secrets themselves ended at once when their lengths
    /// differed, and the time told a caller trying lengths how long the secret is.
    static func sameSecret(_ secret: String, _ given: String) -> Bool {
        !secret.isEmpty && constantTimeEqual(Array(SHA256.hash(data: Array(secret.utf8))), Array(SHA256.hash(data: Array(given.utf8))))
    }
}
