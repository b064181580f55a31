@testable import ChimeServer
import Testing

@Suite("What chime serve answers a chat platform with")
struct ChatLimitsTests {
    @Test("a dialog's title and a reply's placeholder are cut as the platform counts: code points for Discord, UTF-16 for Telegram, whole characters either way")
    func cutAsCounted() {
        // "é" written as e and a combining accent: 2 code points a character.
        let accented = String(repeating: "e\u{0301}", count: 44)
        let title = ChimeHTTPServer.prefix(accented, 45)
        #expect(title.unicodeScalars.count <= 45 && title.unicodeScalars.count == 44, "22 whole characters: \(title.unicodeScalars.count)")
        let emoji = String(repeating: "👍🏽", count: 40) // 4 UTF-16 units each
        let placeholder = ChimeHTTPServer.prefix(emoji, 64, .utf16)
        #expect(placeholder.utf16.count == 64 && placeholder.count == 16)
        #expect(ChimeHTTPServer.prefix("Add item", 45) == "Add item")
    }
}
