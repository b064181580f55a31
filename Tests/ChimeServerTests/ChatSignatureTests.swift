import ChimeCore
@testable import ChimeServer
import Crypto
import Foundation
import Testing

/// The platforms' signature checks against their published vectors.
@Suite("Chat signatures")
struct ChatSignatureTests {
    // Slack's worked example from "Verifying requests from Slack".
    static let slackSecret = "8f742231b10e8888abcd99yyyzzz85a5"
    static let slackTimestamp = "1531420618"
    static let slackBody = Array("token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c".utf8)
    static let slackSignature = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"

    @Test("Slack's published example verifies; a changed body, another secret or a stale timestamp do not")
    func slack() {
        let at = Int64(Self.slackTimestamp)!
        #expect(ChatSignature.slack(secret: Self.slackSecret, timestamp: Self.slackTimestamp, body: Self.slackBody, signature: Self.slackSignature, now: at + 3))
        #expect(!ChatSignature.slack(secret: Self.slackSecret, timestamp: Self.slackTimestamp, body: Self.slackBody + [0x78], signature: Self.slackSignature, now: at))
        #expect(!ChatSignature.slack(secret: "another", timestamp: Self.slackTimestamp, body: Self.slackBody, signature: Self.slackSignature, now: at))
        #expect(!ChatSignature.slack(secret: Self.slackSecret, timestamp: Self.slackTimestamp, body: Self.slackBody, signature: Self.slackSignature, now: at + 301),
                "older than five minutes: a replay")
        #expect(!ChatSignature.slack(secret: Self.slackSecret, timestamp: "", body: Self.slackBody, signature: Self.slackSignature, now: at))
    }

    /// RFC 8032, section 7.1: tests 1 (empty message) and 2 (one byte, 0x72).
    static let rfc8032: [(publicKey: String, message: [UInt8], signature: String)] = [
        ("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", [],
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", [0x72],
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ]

    @Test("Discord's Ed25519 check passes RFC 8032's vectors and refuses a flipped bit, the wrong key and bad hex; a fresh timestamp is signed with the body, an old one refused")
    func discord() throws {
        for vector in Self.rfc8032 {
            #expect(ChatSignature.ed25519(publicKey: vector.publicKey, message: vector.message, signature: vector.signature))
            var flipped = Array(vector.signature)
            flipped[0] = flipped[0] == "e" ? "f" : "e"
            #expect(!ChatSignature.ed25519(publicKey: vector.publicKey, message: vector.message, signature: String(flipped)))
            #expect(!ChatSignature.ed25519(publicKey: vector.publicKey, message: vector.message + [0], signature: vector.signature))
        }
        #expect(!ChatSignature.ed25519(publicKey: Self.rfc8032[1].publicKey, message: [], signature: Self.rfc8032[0].signature))
        #expect(!ChatSignature.ed25519(publicKey: "zz", message: [], signature: Self.rfc8032[0].signature))
        // Discord signs timestamp + body.
        let key = Curve25519.Signing.PrivateKey()
        let publicKey = Hex.string(key.publicKey.rawRepresentation)
        let now: Int64 = 1_795_000_000
        func signed(_ timestamp: Int64) throws -> String { Hex.string(try key.signature(for: Array("\(timestamp){}".utf8))) }
        #expect(ChatSignature.discord(publicKey: publicKey, timestamp: "\(now - 60)", body: Array("{}".utf8), signature: try signed(now - 60), now: now))
        #expect(!ChatSignature.discord(publicKey: publicKey, timestamp: "\(now - 600)", body: Array("{}".utf8), signature: try signed(now - 600), now: now))
    }

    @Test("Telegram's secret token compares whole")
    func telegram() {
        #expect(ChatSignature.sameSecret("s3cr3t-token_A", "s3cr3t-token_A"))
        #expect(!ChatSignature.sameSecret("s3cr3t-token_A", "s3cr3t-token_"))
        #expect(!ChatSignature.sameSecret("s3cr3t-token_A", ""))
    }
}
