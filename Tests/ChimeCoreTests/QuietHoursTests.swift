import ChimeCore
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
}
