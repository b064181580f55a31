import ChimeCore
import Crypto

/// The key that signs reply tokens and action links: `$CHIME_SECRET_KEY` when set, else
/// one made on first use and kept in the store, so the embedded default needs no setup
/// and every process sharing the store signs alike.
public struct SigningKey: @unchecked Sendable { // `inner` and `outer` are values, copied before each use
    /// HMAC-SHA256 (RFC 2104) as two SHA-256 states with the key's padded blocks already
    /// taken in, `key ⊕ ipad` and `key ⊕ opad`: a tag is the outer hash of the inner hash
    /// of the message, each started from a copy. Put together here from swift-crypto's
    /// SHA256 because its `HMAC` hashes the outer block again for every tag and, being
    /// generic, reaches SHA-256 through protocol witnesses: 16,500 instructions a token,
    /// four tokens an email, against 7,000 here (callgrind). A test holds every tag to
    /// swift-crypto's `HMAC<SHA256>`.
    private let inner: SHA256
    private let outer: SHA256

    public init(bytes: [UInt8]) {
        // A key longer than SHA-256's block is hashed first; a shorter one padded with zeros.
        var block = bytes.count > Self.blockSize ? Array(SHA256.hash(data: bytes)) : bytes
        block += [UInt8](repeating: 0, count: Self.blockSize - block.count)
        var inner = SHA256(), outer = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        outer.update(data: block.map { $0 ^ 0x5C })
        self.inner = inner
        self.outer = outer
    }

    /// SHA-256's block, in bytes.
    private static let blockSize = 64

    /// HMAC-SHA256 of `message` under this key.
    func authenticationCode(for message: [UInt8]) -> [UInt8] {
        var inner = self.inner, outer = self.outer
        message.withUnsafeBytes { inner.update(bufferPointer: $0) }
        inner.finalize().withUnsafeBytes { outer.update(bufferPointer: $0) }
        // Copied as a buffer: as a sequence, byte by byte, it was a ninth of signing a link.
        return outer.finalize().withUnsafeBytes { Array($0) }
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

    /// - Throws: ``TooShort`` when `$CHIME_SECRET_KEY` is set and shorter than ``shortest``.
    public static func checkEnvironment(_ environment: [String: String]) throws {
        if let given = environment["CHIME_SECRET_KEY"], !given.isEmpty, given.utf8.count < shortest {
            throw TooShort(length: given.utf8.count)
        }
    }

    /// The key from `$CHIME_SECRET_KEY`, else the store's.
    /// - Throws: ``TooShort`` for a key of fewer than 32 bytes; the store's errors.
    public static func load(store: any CoordinationStore, environment: [String: String]) throws -> SigningKey {
        try checkEnvironment(environment)
        if let given = environment["CHIME_SECRET_KEY"], !given.isEmpty {
            return SigningKey(bytes: Array(given.utf8))
        }
        var random = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        return SigningKey(bytes: try store.secretKey(keeping: candidate))
    }
}
