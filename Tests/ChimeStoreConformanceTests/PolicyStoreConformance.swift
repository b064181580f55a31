import ChimeCore
import Foundation
import Testing

/// ``PolicyStore``: what recipients changed and what Chime concluded about them.
@Suite("Store conformance: preferences, settings, opt-in, undeliverable addresses")
struct PolicyStoreConformance {
    typealias F = Fixture

    @Test("a preference is stored per recipient and category, the last one winning", arguments: StoreKind.allCases)
    func preferences(kind: StoreKind) throws {
        let store = try kind.make().store
        #expect(try store.preferences().isEmpty)
        try store.setPreference(recipient: "alice", category: "reminder", .quietly, at: Instant(seconds: 1))
        try store.setPreference(recipient: "alice", category: "news", .off, at: Instant(seconds: 2))
        try store.setPreference(recipient: "alice", category: "reminder", .off, at: Instant(seconds: 3))
        try store.setPreference(recipient: "bob", category: "reminder", .prominently, at: Instant(seconds: 4))
        #expect(try store.preferences() == ["alice": ["reminder": .off, "news": .off], "bob": ["reminder": .prominently]])
    }

    @Test("settings are saved with their preferences, in one go: each field given replaces the stored one, each left out stays as stored", arguments: StoreKind.allCases)
    func settings(kind: StoreKind) throws {
        let store = try kind.make().store
        let settings = RecipientSettings(locale: "fr", showPreviews: .never, quietHours: "22:00-07:00", authorization: .authorized)
        try store.saveSettings(recipient: "alice", settings, preferences: ["reminder": .quietly], at: Instant(seconds: 1))
        #expect(try store.recipientSettings() == ["alice": settings])
        try store.saveSettings(recipient: "alice", RecipientSettings(locale: "de", quietHours: ""), preferences: [:], at: Instant(seconds: 2))
        #expect(try store.recipientSettings() == ["alice": RecipientSettings(locale: "de", showPreviews: .never, quietHours: "", authorization: .authorized)])
        #expect(try store.preferences() == ["alice": ["reminder": .quietly]])
    }

    @Test("a Keep and a preferences page saved at the same moment both hold: the page, read before the Keep, does not take the authorization back, nor the Keep the page's quiet hours", arguments: StoreKind.allCases)
    func keepBesidePage(kind: StoreKind) throws {
        let store = try kind.make().store
        let page = try store.recipientSettings()["bob"] ?? RecipientSettings()
        #expect(page.authorization == nil)
        // Keep, by reply, while the page is open.
        try store.saveSettings(recipient: "bob", RecipientSettings(authorization: .authorized), preferences: ["reminder": .prominently], at: Instant(seconds: 1))
        // The page's save: what its form gave.
        try store.saveSettings(recipient: "bob", RecipientSettings(showPreviews: .whenAuthenticated, quietHours: "22:00-07:00"), preferences: [:],
                               at: Instant(seconds: 2))
        #expect(try store.recipientSettings()["bob"] == RecipientSettings(showPreviews: .whenAuthenticated, quietHours: "22:00-07:00", authorization: .authorized))
        // And a confirmed opt-in after the page keeps the page's choices.
        try store.saveSettings(recipient: "bob", RecipientSettings(authorization: .authorized), preferences: [:], at: Instant(seconds: 3))
        #expect(try store.recipientSettings()["bob"]?.quietHours == "22:00-07:00")
        #expect(try store.preferences()["bob"] == ["reminder": .prominently])
    }

    @Test("a recipient is asked to opt in once, its request's deliveries queued that once, even when eight ask together; once again after a reset (100 recipients so asked)",
          arguments: StoreKind.allCases)
    func optIn(kind: StoreKind) throws {
        let made = try kind.make()
        let stores = try (0..<8).map { _ in try made.another() }
        // Many rounds: two workers inserting one recipient's row at the very same moment
        // is a window of microseconds (PostgreSQL once failed 1 or 2 rounds in 40 with a
        // duplicate key on the delivery id, the row's second unique index).
        let recipients = (0..<100).map { "alice\($0)" }
        /// Each recipient asked by the eight stores at once, under `round`'s delivery id:
        /// every call answers, one of them true.
        func askTogether(round: String) {
            for recipient in recipients {
                let request = F.pending("optin-\(recipient)", fires: 100, recipient: recipient).request
                let asked = concurrently(8) {
                    try stores[$0].recordOptIn(request, deliveryID: "optin.\(recipient)\(round)", queued: [Fixture.mail("\(recipient)@example.org")],
                                               at: Instant(seconds: 5))
                }
                #expect(asked.compactMap { try? $0.get() }.count == 8, "\(recipient): \(asked)")
                #expect(asked.filter { (try? $0.get()) == true }.count == 1, "\(recipient)")
            }
        }
        askTogether(round: "")
        #expect(try made.store.askedToOptIn() == Set(recipients))
        #expect(try made.store.deliveries(state: .queued).map(\.deliveryID).sorted() == recipients.map { "optin.\($0)" }.sorted())
        #expect(try made.store.request(ofDelivery: "optin.alice7")?.identifier == "optin-alice7")
        // Reset, then asked again together: the row marked reset is taken once.
        for recipient in recipients { _ = try made.store.resetRecipientPolicy(recipient, [.optIn], addresses: []) }
        #expect(try made.store.askedToOptIn().isEmpty)
        askTogether(round: ".again")
        #expect(try made.store.askedToOptIn() == Set(recipients))
        #expect(try made.store.deliveries(state: .queued).map(\.deliveryID).sorted() == recipients.map { "optin.\($0).again" }.sorted(),
                "the first round's deliveries went with the reset; the new round's queued once each")
    }

    @Test("addresses marked undeliverable, lower case, with when and why; cleared saying which were marked", arguments: StoreKind.allCases)
    func undeliverable(kind: StoreKind) throws {
        let store = try kind.make().store
        try store.markUndeliverable(["Bob@Example.org", "carol@example.org"], reason: "550 no such user", at: Instant(seconds: 10))
        try store.markUndeliverable(["carol@example.org"], reason: "551 moved", at: Instant(seconds: 20))
        #expect(try store.undeliverable() == ["bob@example.org", "carol@example.org"])
        #expect(try store.undeliverableMarks() == [
            UndeliverableMark(address: "bob@example.org", at: Instant(seconds: 10), reason: "550 no such user"),
            UndeliverableMark(address: "carol@example.org", at: Instant(seconds: 20), reason: "551 moved"),
        ])
        #expect(try store.clearUndeliverable(["BOB@example.org", "dave@example.org"]) == ["bob@example.org"])
        #expect(try store.undeliverable() == ["carol@example.org"])
    }

    @Test("one recipient's policy read whole, and forgotten part by part: settings keep the authorization, other recipients and addresses untouched", arguments: StoreKind.allCases)
    func recipientPolicy(kind: StoreKind) throws {
        let store = try kind.make().store
        let addresses = ["alice@example.org", "alice@work.example"]
        #expect(try store.recipientPolicy("alice", addresses: addresses) == RecipientPolicy(), "nothing stored for a new recipient")
        let settings = RecipientSettings(locale: "fr", showPreviews: .never, quietHours: "22:00-07:00", authorization: .authorized)
        try store.saveSettings(recipient: "alice", settings, preferences: ["reminder": .quietly], at: Instant(seconds: 1))
        try store.setPreference(recipient: "alice", category: "news", .off, at: Instant(seconds: 2))
        try store.setPreference(recipient: "bob", category: "news", .off, at: Instant(seconds: 2))
        try store.markUndeliverable(["Alice@Example.org", "bob@example.org"], reason: "550 no such user", at: Instant(seconds: 3))
        #expect(try store.recordOptIn(F.pending("optin-alice", fires: 100).request, deliveryID: "optin.alice", queued: [], at: Instant(seconds: 4)))

        let read = try store.recipientPolicy("alice", addresses: addresses)
        #expect(read.settings == settings)
        #expect(read.settingsChangedAt == Instant(seconds: 1))
        #expect(read.preferences == ["reminder": .init(deliver: .quietly, at: Instant(seconds: 1)), "news": .init(deliver: .off, at: Instant(seconds: 2))])
        #expect(read.undeliverable == [UndeliverableMark(address: "alice@example.org", at: Instant(seconds: 3), reason: "550 no such user")],
                "only the marks of the addresses asked about")
        #expect(read.askedToOptInAt == Instant(seconds: 4))
        #expect(try store.resetRecipientPolicy("alice", [], addresses: addresses) == read, "no parts: only a read")

        let afterSettings = try store.resetRecipientPolicy("alice", [.settings, .undeliverable], addresses: addresses)
        #expect(afterSettings.settings?.locale == nil && afterSettings.settings?.quietHours == nil)
        #expect(afterSettings.settings?.authorization == .authorized, "the authorization is the opt-in part's")
        #expect(afterSettings.undeliverable.isEmpty)
        #expect(afterSettings.preferences.count == 2)
        #expect(try store.undeliverable() == ["bob@example.org"], "another recipient's mark stays")

        let afterAll = try store.resetRecipientPolicy("alice", .all, addresses: addresses)
        #expect(afterAll == RecipientPolicy())
        #expect(try store.askedToOptIn().isEmpty, "asked again at the next fire")
        #expect(try store.preferences() == ["bob": ["news": .off]], "another recipient's preference stays")

        // Asked again under a new round's id: the old one names nothing, then or ever.
        let reset = try #require(try store.lastOptIn(recipient: "alice"))
        #expect(reset.deliveryID == "optin.alice" && reset.reset)
        #expect(try store.request(ofDelivery: "optin.alice") == nil)
        // An asker that read the row before the reset comes with the round it ended: not asked.
        #expect(try !store.recordOptIn(F.pending("optin-alice", fires: 100).request, deliveryID: "optin.alice", queued: [], at: Instant(seconds: 5)))
        #expect(try store.askedToOptIn().isEmpty)
        #expect(try store.request(ofDelivery: "optin.alice") == nil, "the old round's links still confirm nothing")
        #expect(try store.recordOptIn(F.pending("optin-alice", fires: 100).request, deliveryID: "optin.alice2", queued: [], at: Instant(seconds: 6)))
        #expect(try store.askedToOptIn() == ["alice"])
        let asked = try #require(try store.lastOptIn(recipient: "alice"))
        #expect(asked.deliveryID == "optin.alice2" && !asked.reset)
        #expect(try store.request(ofDelivery: "optin.alice") == nil && store.request(ofDelivery: "optin.alice2") != nil)
        #expect(try !store.recordOptIn(F.pending("optin-alice", fires: 100).request, deliveryID: "optin.alice3", queued: [], at: Instant(seconds: 7)),
                "asked already: once a round")
        #expect(try store.recipientPolicy("alice", addresses: addresses).askedToOptInAt == Instant(seconds: 6))
    }
}
