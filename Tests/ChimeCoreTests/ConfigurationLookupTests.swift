import ChimeCore
import Testing

@Suite("Configuration lookups")
struct ConfigurationLookupTests {
    @Test("a recipient is found by id among many, the first of a repeated id, and as the list is changed")
    func recipients() {
        var configuration = Configuration(recipients: (0..<10_000).map { Recipient(id: "user\($0)", timeZone: "UTC") }
            + [Recipient(id: "user7", timeZone: "Asia/Tokyo")])
        #expect(configuration.recipient("user9999")?.id == "user9999")
        #expect(configuration.recipient("user7")?.timeZone == "UTC")
        #expect(configuration.recipient("nobody") == nil)
        configuration.recipients[9_999].timeZone = "Europe/Paris"
        #expect(configuration.recipient("user9999")?.timeZone == "Europe/Paris")
        configuration.recipients.removeFirst(8)
        #expect(configuration.recipient("user7")?.timeZone == "Asia/Tokyo")
        #expect(configuration.recipient("user0") == nil)
        configuration.recipients.append(Recipient(id: "late"))
        #expect(configuration.recipient("late")?.id == "late")
    }
}
