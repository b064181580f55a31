import ChimeCore
import Foundation
import Testing

@Suite("Quiet hours as configuration and the preferences page write them")
struct QuietHoursTests {
    @Test("HH:MM-HH:MM, across midnight or not, an en dash taken for the hyphen; anything else refused")
    func parsing() {
        #expect(QuietHours(parsing: "22:00-07:00")?.text == "22:00-07:00")
        #expect(QuietHours(parsing: "12:30 – 13:30")?.text == "12:30-13:30")
        for text in ["-22:00-07:00", "22:00--07:00", "22:00-07:00-", "+1:00-07:00", "22:00-7:00", "22:00-22:00", "24:00-07:00", "22:00", ""] {
            #expect(QuietHours(parsing: text) == nil, "\(text)")
        }
    }

    @Test("waiting quiet hours end at the next reading of their end on the wall clock, the repeated hour of a fall-back included", arguments: [
        // 01:15 EST, the second 01:xx of the night: ends at 01:30 EST, not the next day.
        ("2026-11-01T06:15:00Z", "2026-11-01T06:30:00Z"),
        // 01:15 EDT, the first: ends at the first 01:30.
        ("2026-11-01T05:15:00Z", "2026-11-01T05:30:00Z"),
        // 23:00 EDT the evening before: the first 01:30.
        ("2026-11-01T03:00:00Z", "2026-11-01T05:30:00Z"),
        // Across the spring-forward night, 23:00 EST to 01:30 EST (before the 02:00 jump).
        ("2026-03-08T04:00:00Z", "2026-03-08T06:30:00Z"),
    ])
    func waitEndsInRepeatedHour(at: String, until: String) throws {
        let recipient = Recipient(id: "w", timeZone: "America/New_York", quietHours: QuietHours(parsing: "22:00-01:30"), quietHoursMode: .wait)
        let route = DeliveryRoute.of(level: .active, recipient: recipient, preference: .prominently, at: try #require(Instant(rfc3339: at)),
                                     zone: try #require(TimeZone(identifier: "America/New_York")))
        #expect(route == .wait(until: try #require(Instant(rfc3339: until))), "\(route)")
    }
}
