import ChimeCore
import ChimeLocalization
import Foundation
import Testing

@Suite("Grouped summaries in the shipped languages")
struct ThreadSummaryTests {
    static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("templates").path

    private func summary() throws -> ThreadSummary {
        ThreadSummary(localizer: try Localizer(directory: Self.templates))
    }

    static let counts = [0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1000]

    @Test("the shopping summary for counts in Russian, Polish, Arabic, French and English", arguments: [
        ("en", ["0 more shopping reminders from Matt", "1 more shopping reminder from Matt", "2 more shopping reminders from Matt",
                "3 more shopping reminders from Matt", "5 more shopping reminders from Matt", "11 more shopping reminders from Matt",
                "21 more shopping reminders from Matt", "22 more shopping reminders from Matt", "25 more shopping reminders from Matt",
                "101 more shopping reminders from Matt", "1000 more shopping reminders from Matt"]),
        ("fr", ["0 autre rappel de courses de Matt", "1 autre rappel de courses de Matt", "2 autres rappels de courses de Matt",
                "3 autres rappels de courses de Matt", "5 autres rappels de courses de Matt", "11 autres rappels de courses de Matt",
                "21 autres rappels de courses de Matt", "22 autres rappels de courses de Matt", "25 autres rappels de courses de Matt",
                "101 autres rappels de courses de Matt", "1000 autres rappels de courses de Matt"]),
        ("ru", ["ещё 0 напоминаний о покупках от Matt", "ещё 1 напоминание о покупках от Matt", "ещё 2 напоминания о покупках от Matt",
                "ещё 3 напоминания о покупках от Matt", "ещё 5 напоминаний о покупках от Matt", "ещё 11 напоминаний о покупках от Matt",
                "ещё 21 напоминание о покупках от Matt", "ещё 22 напоминания о покупках от Matt", "ещё 25 напоминаний о покупках от Matt",
                "ещё 101 напоминание о покупках от Matt", "ещё 1000 напоминаний о покупках от Matt"]),
        ("pl", ["jeszcze 0 przypomnień o zakupach od Matt", "jeszcze 1 przypomnienie o zakupach od Matt", "jeszcze 2 przypomnienia o zakupach od Matt",
                "jeszcze 3 przypomnienia o zakupach od Matt", "jeszcze 5 przypomnień o zakupach od Matt", "jeszcze 11 przypomnień o zakupach od Matt",
                "jeszcze 21 przypomnień o zakupach od Matt", "jeszcze 22 przypomnienia o zakupach od Matt", "jeszcze 25 przypomnień o zakupach od Matt",
                "jeszcze 101 przypomnień o zakupach od Matt", "jeszcze 1000 przypomnień o zakupach od Matt"]),
        ("ar", ["لا تذكيرات تسوق أخرى (0) من Matt", "تذكير تسوق واحد آخر (1) من Matt", "تذكيران آخران للتسوق (2) من Matt",
                "3 تذكيرات تسوق أخرى من Matt", "5 تذكيرات تسوق أخرى من Matt", "11 تذكيرًا آخر للتسوق من Matt",
                "21 تذكيرًا آخر للتسوق من Matt", "22 تذكيرًا آخر للتسوق من Matt", "25 تذكيرًا آخر للتسوق من Matt",
                "101 تذكير تسوق آخر من Matt", "1000 تذكير تسوق آخر من Matt"]),
    ])
    func shopping(locale: String, expected: [String]) throws {
        let summary = try summary()
        let found = try Self.counts.map { try summary.text(format: "shopping.summary", count: $0, arguments: ["Matt"], locale: locale) }
        #expect(found == expected)
    }

    @Test("names join in the locale's words, repeats once", arguments: [
        ("en", ["Matt"], "Matt"),
        ("en", ["Matt", "Anna", "Matt"], "Matt and Anna"),
        ("en", ["Matt", "Anna", "Bob", "Eve"], "Matt, Anna and 2 others"),
        ("en", ["Matt", "Anna", "Bob"], "Matt, Anna and 1 other"),
        ("fr", ["Matt", "Anna", "Bob"], "Matt, Anna et 1 autre"),
        ("de-AT", ["Matt", "Anna"], "Matt und Anna"),
        ("ja", ["Matt", "Anna", "Bob"], "Matt、Anna、ほか1人"),
    ])
    func names(locale: String, names: [String], expected: String) throws {
        #expect(try summary().join(names, locale: locale) == expected)
    }

    @Test("a category without a summary format gets the localized default; Japanese puts the names first")
    func defaults() throws {
        let summary = try summary()
        #expect(try summary.text(format: nil, count: 3, arguments: [], locale: "en") == "3 more notifications")
        #expect(try summary.text(format: nil, count: 1, arguments: ["Matt"], locale: "en-GB") == "1 more notification from Matt")
        #expect(try summary.text(format: nil, count: 4, arguments: ["Matt", "Anna"], locale: "ja") == "MattとAnnaからほかに4件の通知")
        // No honorific after the names: さん after a joined list gave "ほか3人さん" and
        // honoured only the last of two names.
        #expect(try summary.text(format: "shopping.summary", count: 4, arguments: ["Matt"], locale: "ja") == "Mattから買い物リマインダーがあと4件")
        #expect(try summary.text(format: "shopping.summary", count: 22, arguments: ["Matt", "Anna"], locale: "ja") == "MattとAnnaから買い物リマインダーがあと22件")
        #expect(try summary.text(format: "shopping.summary", count: 5, arguments: ["Matt", "Anna", "Li", "Sam", "Kai"], locale: "ja") == "Matt、Anna、ほか3人から買い物リマインダーがあと5件")
        #expect(try summary.text(format: "%u new from %@", count: 2, arguments: ["Ops"], locale: "en") == "2 new from Ops")
    }

    @Test("without any summaryArgument, a format naming them gives way to the default, rather than end in \"from \"; one that names none stays")
    func noArguments() throws {
        let summary = try summary()
        #expect(try summary.text(format: "shopping.summary", count: 3, arguments: ["", ""], locale: "en") == "3 more notifications")
        #expect(try summary.text(format: "shopping.summary", count: 3, arguments: [], locale: "fr") == "3 autres notifications")
        #expect(try summary.text(format: "timer.summary", count: 3, arguments: [], locale: "en") == "3 more timers")
        #expect(try summary.text(format: "%u new", count: 2, arguments: [], locale: "en") == "2 new")
    }

    @Test("the count is the sum of summaryArgumentCounts when they are set")
    func count() {
        var a = NotificationContent()
        a.summaryArgumentCount = 3
        let b = NotificationContent()
        #expect(ThreadSummary.count(of: [a, b]) == 4)
        #expect(ThreadSummary.count(of: [b, b]) == 2)
    }

    @Test("dates in the recipient's language and zone, the hour as the locale writes it (12-hour in the United States, 24-hour in Britain)", arguments: [
        ("fr-FR", "mardi 24 novembre à 09:00"),
        ("en", "Tuesday, November 24 at 9:00\u{202F}AM"),
        ("en-US", "Tuesday, November 24 at 9:00\u{202F}AM"),
        ("en-GB", "Tuesday 24 November at 09:00"),
        ("de", "Dienstag, 24. November um 09:00"),
    ])
    func dates(locale: String, expected: String) {
        let instant = Instant(rfc3339: "2026-11-24T08:00:00Z")!
        #expect(DateText.dayAndTime(instant, locale: locale, zone: TimeZone(identifier: "Europe/Paris")!) == expected)
    }
}
