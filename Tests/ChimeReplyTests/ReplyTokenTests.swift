import ChimeCore
@testable import ChimeReply
import Crypto
import Foundation
import Testing

@Suite("Reply tokens")
struct ReplyTokenTests {
    @Test("a generation is read as a UUID's 16 bytes exactly when Foundation's UUID reads it and writes it back the same in lower case")
    func lowercaseUUID() {
        for _ in 0..<200 {
            let uuid = UUID()
            let text = uuid.uuidString.lowercased()
            #expect(ReplyToken.lowercaseUUID(text) == withUnsafeBytes(of: uuid.uuid) { Array($0) }, "\(text)")
            #expect(ReplyToken.lowercaseUUID(uuid.uuidString) == nil, "upper case is not the form a store writes")
        }
        for text in ["", "g-a-2", "0123456789abcdef0123456789abcdef0123", "01234567-89ab-cdef-0123-456789abcdeg",
                     "01234567-89ab-cdef-0123_456789abcdef", "01234567-89ab-cdef-0123-456789abcdef0", "01234567-89ab-cdef-0123-456789abcde"] {
            #expect(ReplyToken.lowercaseUUID(text) == nil, "\(text)")
            #expect(UUID(uuidString: text).map { $0.uuidString.lowercased() == text } != true)
        }
    }

    let key = SigningKey(bytes: Array("a test key, not a secret of anyone's".utf8))
    let fired = Instant(rfc3339: "2026-11-21T09:00:00Z")!

    @Test("a token whose generation holds what Chime never writes (a NUL, a control character, bytes that are not UTF-8) is not a token")
    func generationsChimeNeverWrites() throws {
        // Kind 1, then the generation's length and bytes, the fire instant (5 bytes), the
        // expiry's day (2 bytes), and a tag (anything: it is not checked by read).
        func token(_ generation: [UInt8]) -> Substring {
            Base32.encode([1, UInt8(generation.count)] + generation + [0, 0x6A, 0xFF, 0, 0] + [0x50, 0x00] + Array(repeating: 7, count: ReplyToken.tagLength))[...]
        }
        #expect(ReplyToken.read(token(Array("g12".utf8)))?.token.deliveryID.hasPrefix("g12.") == true)
        for generation: [UInt8] in [[0], [0x67, 0, 0x31], [0x67, 0x0A], [0x7F], [0xFF, 0xFE]] {
            #expect(ReplyToken.read(token(generation)) == nil, "\(generation)")
        }
    }

    @Test("a token reads back as its delivery, fits an address's local part, and verifies for its recipient only")
    func roundTrip() throws {
        for delivery in ["0f8fad5b-d9cb-469f-a165-70867728950e.1795251600", "g12.1795251600"] {
            let text = ReplyToken(deliveryID: delivery, fireDate: fired).signed(for: "alice", key: key)
            #expect(("bot+" + text).count <= 64, "\(text.count) characters")
            #expect(text.allSatisfy { "abcdefghijklmnopqrstuvwxyz234567".contains($0) })
            let verified = try ReplyToken.verify(text[...], recipient: "alice", key: key, now: fired).get()
            #expect(verified.deliveryID == delivery)
            // Case folded by a mail system on the way back still verifies.
            #expect((try? ReplyToken.verify(text.uppercased()[...], recipient: "alice", key: key, now: fired).get()) != nil)
            #expect(ReplyToken.verify(text[...], recipient: "bob", key: key, now: fired) == .failure(.forged))
            let otherKey = SigningKey(bytes: Array("another key".utf8))
            #expect(ReplyToken.verify(text[...], recipient: "alice", key: otherKey, now: fired) == .failure(.forged))
        }
    }

    @Test("one changed character, a truncated token or noise is forged; past 30 days it is expired")
    func refusals() {
        let text = ReplyToken(deliveryID: "g1.1795251600", fireDate: fired).signed(for: "alice", key: key)
        var chars = Array(text)
        chars[chars.count / 2] = chars[chars.count / 2] == "a" ? "b" : "a"
        #expect(ReplyToken.verify(String(chars)[...], recipient: "alice", key: key, now: fired) == .failure(.forged))
        #expect(ReplyToken.verify(text.dropLast(2), recipient: "alice", key: key, now: fired) == .failure(.forged))
        #expect(ReplyToken.verify("hello-world"[...], recipient: "alice", key: key, now: fired) == .failure(.forged))
        #expect(ReplyToken.verify(text[...], recipient: "alice", key: key, now: fired + 29 * 86_400) != .failure(.expired))
        #expect(ReplyToken.verify(text[...], recipient: "alice", key: key, now: fired + 32 * 86_400) == .failure(.expired))
    }

    @Test("base32 round-trips every length", arguments: 0..<12)
    func base32(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
        #expect(Base32.decode(Base32.encode(bytes)[...]) == bytes)
        #expect(Base32.decode(Base32.encode(bytes).uppercased()[...]) == bytes)
    }

    @Test("a signing key's tags are swift-crypto's HMAC-SHA256, keys shorter and longer than a block, messages of any length")
    func tagsAreHMAC() {
        var random = SystemRandomNumberGenerator()
        for keyLength in [0, 1, 31, 32, 33, 63, 64, 65, 100, 128, 200] {
            let key = (0..<keyLength).map { _ in UInt8.random(in: 0...255, using: &random) }
            let signing = SigningKey(bytes: key)
            for messageLength in [0, 1, 40, 55, 56, 63, 64, 65, 119, 120, 200] {
                let message = (0..<messageLength).map { _ in UInt8.random(in: 0...255, using: &random) }
                let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
                // Twice: a tag leaves the key's states as they were.
                #expect(signing.authenticationCode(for: message) == expected)
                #expect(signing.authenticationCode(for: message) == expected)
            }
        }
        // RFC 4231, test case 2: key "Jefe".
        let tag = SigningKey(bytes: Array("Jefe".utf8)).authenticationCode(for: Array("what do ya want for nothing?".utf8))
        #expect(tag.map { String(format: "%02x", $0) }.joined() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("base32 is RFC 4648's alphabet in lower case, without padding")
    func base32Vectors() {
        // RFC 4648, section 10, with the padding left out.
        let vectors = ["": "", "f": "my", "fo": "mzxq", "foo": "mzxw6", "foob": "mzxw6yq", "fooba": "mzxw6ytb", "foobar": "mzxw6ytboi"]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
        }
        #expect(Base32.encode([0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == "77777777")
        #expect(Base32.encode([0, 0, 0, 0, 0]) == "aaaaaaaa")
        // One spelling per token but for case: "f" is "my"; the seven other last symbols
        // that carry the same byte ("mz", …) and a symbol carrying no byte are not it.
        #expect(Base32.decode("my"[...]) == Array("f".utf8))
        #expect(Base32.decode("mz"[...]) == nil)
        #expect(Base32.decode("mzxq"[...]) == Array("fo".utf8))
        #expect(Base32.decode("mzxr"[...]) == nil)
        #expect(Base32.decode("mzxw6a"[...]) == nil)
    }
}
