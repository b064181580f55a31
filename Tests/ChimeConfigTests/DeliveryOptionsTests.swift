import ChimeConfig
import ChimeCore
import Foundation
import Testing

@Suite("Channel delivery options")
struct DeliveryOptionsTests {
    @Test("every option is read over the kind's defaults; caFile is relative to chime.xml")
    func options() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/delivery-options.xml").path
        let configuration = try ConfigurationLoader(environment: [:]).load(path: path)
        #expect(configuration.concurrency == 12)
        let team = try #require(configuration.channel("team"))
        #expect(team.policy == DeliveryPolicy(connectTimeout: 3, timeout: 0.5, concurrency: 2, rate: 0.5, maxAttempts: 5,
                                              maxAge: 7_200, backoff: 10, maxBackoff: 300, maxWait: 20))
        #expect(team.caFile == URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("ca.pem").path)
        let chat = try #require(configuration.channel("chat"))
        #expect(chat.policy == DeliveryPolicy.defaults(for: .discord))
        #expect(chat.caFile == nil)
        // The webhook's token is a secret: redacted from anything printed.
        #expect(configuration.redact("POST /api/webhooks/1/TOKEN failed") == "POST (secret) failed")
    }

    @Test("what a server's error may quote of a channel's secrets is blanked: the password as AUTH PLAIN, LOGIN and Basic send it (base64), a token percent-encoded or with its slashes escaped; and Chime's own signed tokens; words, identifiers and digests stay")
    func echoedSecrets() throws {
        let xml = """
            <chime version="1">
              <channels>
                <channel id="mail" url="smtp://bot:S3CRETpassword@127.0.0.1:2525" from="bot@example.org"/>
                <channel id="tg" url="telegram://127.0.0.1:9/bot123456789:AAHsecretTOKENpart0123/sendMessage?chat_id=42"/>
                <channel id="hook" url="json://u:S3CRETbasic@127.0.0.1:9/hooks/abcdefghijklmnopqrstuvwx"/>
              </channels>
            </chime>
            """
        let configuration = try ConfigurationLoader(environment: [:]).load(bytes: Array(xml.utf8), path: "chime.xml")
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        #expect(configuration.redact("535 5.7.8 Authentication failed for \(base64("\0bot\0S3CRETpassword"))") == "535 5.7.8 Authentication failed for (secret)")
        #expect(configuration.redact("535 5.7.8 bad \(base64("S3CRETpassword"))") == "535 5.7.8 bad (secret)")
        #expect(configuration.redact("Authorization: Basic \(base64("u:S3CRETbasic"))") == "Authorization: Basic (secret)")
        for echoed in ["Cannot POST %2Fbot123456789%3AAAHsecretTOKENpart0123%2FsendMessage", "bad token bot123456789%3AAAHsecretTOKENpart0123",
                       "tgtoken=123456789:AAHsecretTOKENpart0123", "secret AAHsecretTOKENpart0123 refused",
                       #"{"path":"\/hooks\/abcdefghijklmnopqrstuvwx"}"#, "Cannot POST &#x2F;hooks&#x2F;abcdefghijklmnopqrstuvwx"] {
            let shown = configuration.redact(echoed)
            #expect(!shown.contains("AAHsecretTOKENpart0123") && !shown.contains("abcdefghijklmnopqrstuvwx") && shown.contains("(secret)"), "\(shown)")
        }
        let token = "ad7pjricszgeswnfn52icnlqpkfaa2ybj6avcsg7wc2mbactoozrdva"
        #expect(configuration.redact(#"HTTP 500: {"context":{"token":"\#(token).1"}}"#) == #"HTTP 500: {"context":{"token":"(token).1"}}"#)
        #expect(configuration.redact("553 5.7.1 <bounce+\(token)@example.org>: Sender address rejected")
                == "553 5.7.1 <bounce+(token)@example.org>: Sender address rejected")
        let ordinary = "req-2026-11-21 internationalization sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 A\(token) "
            + String(repeating: "x", count: 300)
        #expect(configuration.redact(ordinary) == ordinary)
    }

}
