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
        // Copied as a buffer: as a sequence, byte by byte, it was a ninth of signing a link.
        return mac.finalize().withUnsafeBytes { Array($0) }
    }

    /// The fewest bytes `$CHIME_SECRET_KEY` may have: HMAC-SHA256's own strength.
    public static let shortest = 32

    /// `$CHIME_SECRET_KEY` is set but shorter than ``shortest`` bytes.
    public struct TooShort: Error, CustomStringConvertible {
        public var length: Int
        public init(length: Int) { self.length = length }
        public var description: String {
            "CHIME_SECRET_KEY is \(length) bytes; it needs at least \(SigningKey.shortest) (make one with: openssl rand -hex 32)"
        }
    }

    /// The key from `$CHIME_SECRET_KEY`, else the store's.
    /// - Throws: ``TooShort`` for a key of fewer than 32 bytes; the store's errors.
    public static func load(store: any CoordinationStore, environment: [String: String]) throws -> SigningKey {
        if let given = environment["CHIME_SECRET_KEY"], !given.isEmpty {
            guard given.utf8.count >= shortest else { throw TooShort(length: given.utf8.count) }
            return SigningKey(bytes: Array(given.utf8))
        }
        var random = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        return SigningKey(bytes: try store.secretKey(keeping: candidate))
    }
}
