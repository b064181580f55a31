import ChimeCore
import Crypto

/// The key that signs reply tokens and action links: `$CHIME_SECRET_KEY` when set, else
/// one made on first use and kept in the store, so the embedded default needs no setup
/// and every process sharing the store signs alike.
public struct SigningKey: @unchecked Sendable { // `keyed` is a value, copied before each use
    /// HMAC-SHA256 with the key already taken in: each signature starts from a copy, so
    /// the key's padding is not hashed again for every message.
    private let keyed: HMAC<SHA256>

    public init(bytes: [UInt8]) {
        keyed = HMAC<SHA256>(key: SymmetricKey(data: bytes))
    }

    /// HMAC-SHA256 of `message` under this key.
    func authenticationCode(for message: [UInt8]) -> [UInt8] {
        var mac = keyed
        mac.update(data: message)
        return Array(mac.finalize())
    }

    public static func load(store: any NotificationStore, environment: [String: String]) throws -> SigningKey {
        if let given = environment["CHIME_SECRET_KEY"], !given.isEmpty {
            return SigningKey(bytes: Array(given.utf8))
        }
        var random = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        return SigningKey(bytes: try store.secretKey(keeping: candidate))
    }
}
