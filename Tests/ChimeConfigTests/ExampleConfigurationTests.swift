import ChimeConfig
import ChimeCore
import Foundation
import Testing

/// The repository's root, found from this file.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("The example configuration")
struct ExampleConfigurationTests {
    private let configuration: Configuration

    init() throws {
        configuration = try ConfigurationLoader(environment: [:]).load(path: repositoryRoot.appendingPathComponent("deploy/chime.example.xml").path)
    }

    @Test("has the shopping list category exactly as written")
    func shoppingList() throws {
        let category = try #require(configuration.category("shoppingListReminderCategory"))
        var expected = NotificationCategory(
            identifier: "shoppingListReminderCategory",
            actions: [
                NotificationAction(identifier: "justInform", title: "OK, got it"),
                NotificationAction(identifier: "editList", title: "Edit list", options: [.foreground, .authenticationRequired]),
                NotificationAction(identifier: "trashAction", title: "Delete list", options: [.destructive, .authenticationRequired],
                                   answer: "shopping.deleted", aliases: ["delete", "trash", "remove"],
                                   hooks: [ActionHook(.command("cat >> deleted-lists.jsonl"), timeout: 5)]),
            ],
            minimalActionIdentifiers: ["trashAction", "editList"],
            hiddenPreviewsBodyPlaceholder: "shopping.placeholder",
            categorySummaryFormat: "shopping.summary"
        )
        expected.confirmsDestructive = false
        #expect(category == expected)
        #expect(configuration.replies.trustedAuthServIDs.isEmpty, "no receiving server believed until one writes Authentication-Results and removes forged ones")
        #expect(configuration.replies.snooze == 600)
        #expect(category.minimalActions.map(\.identifier) == ["trashAction", "editList"])
    }

    @Test("has the timer category exactly as written")
    func timer() throws {
        let category = try #require(configuration.category("TimerFiredCategory"))
        #expect(category == NotificationCategory(
            identifier: "TimerFiredCategory",
            actions: [
                NotificationAction(identifier: "RestartTimer", title: "Restart"),
                NotificationAction(identifier: "SnoozeTimer", title: "Snooze"),
                NotificationAction(identifier: "EditTimer", title: "Edit", options: [.foreground]),
            ],
            minimalActionIdentifiers: ["RestartTimer", "SnoozeTimer"],
            hiddenPreviewsBodyPlaceholder: "timer.placeholder",
            categorySummaryFormat: "timer.summary"
        ))
    }

    @Test("has the two categories in order, a Maildir outbox and one recipient")
    func whole() throws {
        #expect(configuration.categories.map(\.identifier) == ["shoppingListReminderCategory", "TimerFiredCategory"])
        #expect(configuration.channels.count == 1)
        let outbox = try #require(configuration.channel("outbox"))
        #expect(outbox.url.kind == .maildir)
        #expect(outbox.url.path == "./outbox")
        #expect(configuration.recipients == [Recipient(
            id: "alice", locale: "en", timeZone: "Europe/Paris", showPreviews: .always, authorization: .authorized,
            addresses: [.init(channel: "outbox", value: "alice@example.org")]
        )])
        #expect(configuration.summary == "2 categories, 6 actions, 1 channel, 1 recipient")
    }
}
