import ChimeCore
import Testing

@Suite("Category rules")
struct CategoryRulesTests {
    private func action(_ id: String) -> NotificationAction {
        NotificationAction(identifier: id, title: id.uppercased())
    }

    @Test("a sound configuration has no problems")
    func sound() {
        let configuration = Configuration(categories: [
            NotificationCategory(identifier: "c", actions: ["a", "b", "c", "d"].map(action), minimalActionIdentifiers: ["d", "a"]),
        ])
        #expect(configuration.problems().isEmpty)
    }

    @Test("identifiers must not be empty")
    func emptyIdentifiers() {
        let configuration = Configuration(categories: [NotificationCategory(identifier: "", actions: [action("")])])
        #expect(configuration.problems().map(\.message) == [
            "category identifier must not be empty",
            "action identifier must not be empty",
        ])
    }

    @Test("action identifiers are unique across categories, and within one")
    func uniqueActions() {
        let configuration = Configuration(categories: [
            NotificationCategory(identifier: "one", actions: [action("done"), action("done")]),
            NotificationCategory(identifier: "two", actions: [action("done")]),
        ])
        #expect(configuration.problems().map(\.message) == [
            "duplicate action identifier \"done\" (already used in this category); action identifiers are unique across all categories",
            "duplicate action identifier \"done\" (already used in category \"one\"); action identifiers are unique across all categories",
        ])
        #expect(configuration.problems().map(\.element) == [.action(category: 0, action: 1), .action(category: 1, action: 0)])
    }

    @Test("five actions do not fit the default context, three do not fit the minimal one")
    func contextLimits() {
        let configuration = Configuration(categories: [
            NotificationCategory(identifier: "c", actions: ["a", "b", "c", "d", "e"].map(action), minimalActionIdentifiers: ["a", "b", "c"]),
        ])
        #expect(configuration.problems().map(\.message) == [
            "category \"c\" has 5 actions; at most 4 fit the default context",
            "category \"c\" has 3 minimal actions; at most 2 fit the minimal context",
        ])
    }

    @Test("reserved identifiers", arguments: [
        ("default", "default"), ("dismiss", "dismiss"),
        ("com.apple.UNNotificationDefaultActionIdentifier", "default"),
        ("com.apple.UNNotificationDismissActionIdentifier", "dismiss"),
    ])
    func reserved(identifier: String, builtIn: String) {
        let configuration = Configuration(categories: [NotificationCategory(identifier: "c", actions: [action(identifier)])])
        #expect(configuration.problems().map(\.message) == ["action identifier \"\(identifier)\" is reserved for the built-in \(builtIn) action"])
    }

    @Test("minimal actions default to the first two, as iOS does")
    func minimalDefault() {
        let category = NotificationCategory(identifier: "c", actions: ["a", "b", "c"].map(action))
        #expect(category.minimalActions.map(\.identifier) == ["a", "b"])
    }

    @Test("an address must name a defined channel")
    func undefinedChannel() throws {
        let configuration = Configuration(
            channels: [Channel(id: "mail", url: try ChannelURL(parsing: "smtp://127.0.0.1:2525"), from: "bot@example.org")],
            recipients: [Recipient(id: "alice", addresses: [.init(channel: "pager"), .init(channel: "mail", value: "not an address")])]
        )
        #expect(configuration.problems().map(\.message) == [
            "recipient \"alice\" names channel \"pager\", which is not defined",
            "recipient \"alice\": \"not an address\" is not an email address (write alice@example.org or Alice <alice@example.org>)",
        ])
    }

    @Test("time zones and locales are checked")
    func zonesAndLocales() {
        let configuration = Configuration(recipients: [Recipient(id: "bob", locale: "french", timeZone: "Mars/Olympus")])
        #expect(configuration.problems().map(\.message) == [
            "unknown time zone \"Mars/Olympus\" (use an IANA name such as Europe/Paris)",
            "\"french\" is not a BCP 47 language tag such as fr-FR; did you mean fr?",
        ])
    }

    @Test("the summary counts in words")
    func summary() {
        let configuration = Configuration(categories: [NotificationCategory(identifier: "c", actions: [action("a")])])
        #expect(configuration.summary == "1 category, 1 action, 0 channels, 0 recipients")
    }
}
