import ChimeCore
import Foundation

/// Deliver Quietly, Turn Off and Keep, answered by reply, in a chat thread or by link, as
/// the phone's notification settings and provisional notifications offer them: stored
/// for the recipient, and in force from the next fire.
extension ActionDesk {
    func changeDelivery(_ action: String, request: NotificationRequest, locale: String, now: Instant) throws -> Outcome {
        let category = request.content.categoryIdentifier
        var outcome = Outcome()
        let name = category.isEmpty ? "these" : category
        switch BuiltInAction(rawValue: action) {
        case .quietly?:
            try store.setPreference(recipient: request.recipient, category: category, .quietly, at: now)
            outcome.result = "\(category) delivered quietly"
            outcome.answer = try text("answer.quietly", [.string(name)], locale, fallback: "“\(name)” reminders will come quietly, in your digest.")
        case .off?:
            try store.setPreference(recipient: request.recipient, category: category, .off, at: now)
            outcome.result = "\(category) turned off"
            outcome.answer = try text("answer.off", [.string(name)], locale, fallback: "You will get no more “\(name)” reminders.")
        default:
            var settings = try store.recipientSettings()[request.recipient] ?? RecipientSettings()
            settings.authorization = .authorized
            try store.saveSettings(recipient: request.recipient, settings, preferences: [category: .prominently], at: now)
            outcome.result = "\(request.recipient) authorized, \(category) delivered prominently"
            outcome.answer = try text("answer.keep", [.string(name)], locale, fallback: "Kept: “\(name)” reminders will come to you directly.")
        }
        return outcome
    }
}
