import ChimeCore
import ChimeLocalization
import ChimeMIME
import ChimeRendering
import Foundation
import Testing

/// What the example categories look like on every channel kind, in every shipped
/// language and previews setting, kept as files beside this one. A change to rendering
/// shows as a diff of these files; `CHIME_UPDATE_GOLDEN=1 swift test` writes them anew.
@Suite("Golden files")
struct GoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let locales = ["en", "fr", "de", "es", "ru", "pl", "ar", "ja"]
    static let kinds: [ChannelKind] = [.smtp, .slack, .discord, .mattermost, .msteams, .telegram, .json]

    static let categories = [
        EmailComposerTests.shopping,
        NotificationCategory(
            identifier: "TimerFiredCategory",
            actions: [NotificationAction(identifier: "RestartTimer", title: "Restart"),
                      NotificationAction(identifier: "SnoozeTimer", title: "Snooze"),
                      NotificationAction(identifier: "EditTimer", title: "Edit", options: [.foreground])],
            minimalActionIdentifiers: ["RestartTimer", "SnoozeTimer"],
            hiddenPreviewsBodyPlaceholder: "timer.placeholder", categorySummaryFormat: "timer.summary"),
    ]

    private func render(kind: ChannelKind, category: NotificationCategory, locale: String, previews: Recipient.ShowPreviews) throws -> String {
        let templates = EmailComposerTests.templates
        let localizer = try Localizer(directory: templates)
        var content = NotificationContent(title: category.identifier == "TimerFiredCategory" ? "Tea" : "Shopping",
                                          body: category.identifier == "TimerFiredCategory" ? "Your tea is ready." : "Hey, you must go shopping, remember?",
                                          categoryIdentifier: category.identifier, threadIdentifier: "t")
        content.targetContentIdentifier = "https://example.org/open"
        let url = kind == .smtp ? "smtp://127.0.0.1:2525" : kind == .json ? "json://127.0.0.1:8080/hook" : "\(kind.rawValue)://hooks.example.org/path"
        let channel = Channel(id: "c", url: try ChannelURL(parsing: url), from: kind == .smtp ? "Reminders <bot@example.org>" : nil,
                              replyTo: kind == .smtp ? "bot+{token}@reply.example.org" : nil)
        let notification = OutgoingNotification(
            request: NotificationRequest(identifier: "golden", recipient: "r", content: content, trigger: .timeInterval(seconds: 60, repeats: false)),
            recipient: Recipient(id: "r", locale: locale, timeZone: "Europe/Paris", showPreviews: previews),
            address: .init(channel: "c", value: kind == .smtp ? "r@example.org" : ""), channel: channel,
            fireDate: Instant(rfc3339: "2026-11-24T08:00:00Z")!, deliveryID: "golden.1795507200", coalesced: 0)
        if kind == .smtp {
            let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: templates))
            return Self.normalizeBoundaries(MIMEComposer.compose(try composer.compose(notification, category: category)))
        }
        let message = try ChatComposer(localizer: localizer, templates: try TemplateSet(directory: templates)).compose(notification, category: category)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Discord as chime run sends it to this channel, a webhook without an application's
        // key (link buttons); the other kinds with their buttons interactive.
        let interactive = kind == .discord ? channel.takesPresses : true
        return String(decoding: try encoder.encode(ChatPayload.body(for: kind, message, interactive: interactive)), as: UTF8.self) + "\n"
    }

    /// GMime draws MIME boundaries at random; the files hold a fixed one.
    static func normalizeBoundaries(_ message: String) -> String {
        guard let range = message.range(of: #"boundary="([^"]+)""#, options: .regularExpression) else { return message }
        let boundary = message[range].dropFirst("boundary=\"".count).dropLast()
        return message.replacingOccurrences(of: String(boundary), with: "BOUNDARY")
    }

    @Test("each kind and category matches its golden file", arguments: kinds)
    func golden(kind: ChannelKind) throws {
        for category in Self.categories {
            var text = ""
            for locale in Self.locales {
                for previews in Recipient.ShowPreviews.allCases {
                    text += "=== \(locale) \(previews.rawValue) ===\n" + (try render(kind: kind, category: category, locale: locale, previews: previews)) + "\n"
                }
            }
            let file = Self.directory.appendingPathComponent("\(kind.rawValue).\(category.identifier).txt")
            if ProcessInfo.processInfo.environment["CHIME_UPDATE_GOLDEN"] == "1" {
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
            let expected = try String(contentsOf: file, encoding: .utf8)
            #expect(text == expected, "\(file.lastPathComponent) differs; CHIME_UPDATE_GOLDEN=1 writes it anew")
        }
    }
}
