import ChimeCore
import Crypto

/// The key that signs reply tokens and action links: `$CHIME_SECRET_KEY` when set, else
/// one made on first use and kept in the store, so the embedded default needs no setup
/// and every process sharing the store signs alike.
public struct SigningKey: Sendable {
    /// The key's bytes (swift-crypto's `SymmetricKey` is not `Sendable`; one is made from
    /// these for each signature).
    let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var symmetric: SymmetricKey { SymmetricKey(data: bytes) }

    public static func load(store: any NotificationStore, environment: [String: String]) throws -> SigningKey {
        if let given = environment["CHIME_SECRET_KEY"], !given.isEmpty {
            return SigningKey(bytes: Array(given.utf8))
        }
        var random = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        return SigningKey(bytes: try store.secretKey(keeping: candidate))
    }
}
