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
}
