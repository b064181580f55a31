import ChimeCore
import ChimeTestSupport
import Testing

@Suite("Hidden previews")
struct PreviewSurfacesTests {
    private func surfaces(_ setting: Recipient.ShowPreviews, options: NotificationCategory.Options = [],
                          placeholder: String = "%u reminders") -> PreviewSurfaces {
        PreviewSurfaces(title: "Shopping", subtitle: "Groceries", body: "Milk and eggs", showPreviews: setting,
                        options: options, placeholder: placeholder, threadCount: 3)
    }

    @Test("always: everything shows")
    func always() {
        let s = surfaces(.always)
        #expect(s.subject == "Shopping")
        #expect(s.preheader == "Groceries — Milk and eggs")
        #expect(s.notificationText == "Shopping: Groceries: Milk and eggs")
        #expect(s.bodyShowsContent)
    }

    @Test("without a title, the subject is the body's first line with words in it, cut at 200 characters; the preheader and notification text keep the body whole")
    func headlineFromBody() {
        func subject(_ body: String) -> String {
            PreviewSurfaces(title: "", subtitle: "", body: body, showPreviews: .always, options: [], placeholder: "Notification", threadCount: 1).subject
        }
        #expect(subject("Buy milk\nBuy eggs") == "Buy milk")
        #expect(subject("\n  \r\n  Call Anna  \nabout the keys") == "Call Anna")
        let long = subject(String(repeating: "é ", count: 1_000))
        #expect(long.count == 200 && long.hasSuffix("…") && !long.contains("\n"))
        let whole = PreviewSurfaces(title: "", subtitle: "", body: "Buy milk\nBuy eggs", showPreviews: .always, options: [], placeholder: "N", threadCount: 1)
        #expect(whole.notificationText == "Buy milk\nBuy eggs")
    }

    @Test("when authenticated: the placeholder outside, the title and subtitle only where the category allows")
    func whenAuthenticated() {
        let hidden = surfaces(.whenAuthenticated)
        #expect(hidden.subject == "3 reminders")
        #expect(hidden.preheader == "3 reminders")
        #expect(hidden.notificationText == "3 reminders")
        #expect(hidden.bodyShowsContent)
        let titled = surfaces(.whenAuthenticated, options: [.hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle])
        #expect(titled.subject == "Shopping")
        #expect(titled.preheader == "Groceries — 3 reminders")
        #expect(titled.notificationText == "Shopping: Groceries: 3 reminders")
    }

    @Test("never: no word of the content on any surface nor in the body, whatever the category allows (random content)")
    func never() {
        var generator = SplitMix(seed: 2026)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzäöüéèçñжщ日本")
        func word() -> String {
            String((0..<(4 + Int(generator.next() % 6))).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        for _ in 0..<500 {
            let title = (0..<3).map { _ in word() }.joined(separator: " ")
            let subtitle = word()
            let body = (0..<8).map { _ in word() }.joined(separator: " ")
            let s = PreviewSurfaces(title: title, subtitle: subtitle, body: body, showPreviews: .never,
                                    options: [.hiddenPreviewsShowTitle, .hiddenPreviewsShowSubtitle],
                                    placeholder: "Notification", threadCount: Int(generator.next() % 9))
            #expect(!s.bodyShowsContent)
            for text in (title + " " + subtitle + " " + body).split(separator: " ") {
                for surface in [s.subject, s.preheader, s.notificationText] {
                    #expect(!surface.contains(text), "\(text) leaked into \(surface)")
                }
            }
        }
    }
}
