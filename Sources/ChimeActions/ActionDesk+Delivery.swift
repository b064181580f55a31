import ChimeCore
import Foundation

/// Deliver Quietly, Turn Off and Keep, answered by reply, in a chat thread or by link, as
/// the phone's notification settings and provisional notifications offer them, and the
/// confirmation of an opt-in (``OptIn``): stored for the recipient, and in force from
/// the next fire.
extension ActionDesk {
    /// Whether Deliver Quietly, Turn Off or Keep for the request's category would change
    /// what is stored for its recipient now (false for any other action): pressed again
    /// after the preferences page or another answer changed it.
    public func changesDelivery(_ action: String, request: NotificationRequest) throws -> Bool {
        guard let recipient = recipient(of: request) else { return false }
        // What is in force: chime.xml's, unless the recipient changed it.
        let now = recipient.preference(for: request.content.categoryIdentifier, stored: try store.preferences()[request.recipient])
        switch BuiltInAction(rawValue: action) {
        case .quietly?: return now != .quietly
        case .off?: return now != .off
        case .keep?:
            // Keep authorizes only a recipient chime.xml leaves undetermined or provisional.
            let configured = configuration.recipient(request.recipient)?.authorization
            return now != .prominently || ((configured == .notDetermined || configured == .provisional) && recipient.authorization != .authorized)
        default: return false
        }
    }

    /// Deliver Quietly, Turn Off or Keep set again for the request's recipient, outside any
    /// recorded response (``changesDelivery(_:request:)``).
    public func changeDelivery(_ action: String, request: NotificationRequest, now: Instant) throws -> Outcome {
        try changeDelivery(action, request: request, locale: locale(of: request), now: now)
    }

    func changeDelivery(_ action: String, request: NotificationRequest, locale: String, now: Instant) throws -> Outcome {
        let category = request.content.categoryIdentifier
        var outcome = Outcome()
        // The category as the preferences page names it (reminders of none, together).
        let name = categoryName(category, locale: locale)
        switch BuiltInAction(rawValue: action) {
        case .quietly?:
            try store.setPreference(recipient: request.recipient, category: category, .quietly, at: now)
            outcome.result = "\(category) delivered quietly"
            outcome.answer = try text("answer.quietly", [.string(name)], locale, fallback: "“\(name)” reminders will come quietly, in your digest.")
        case .off?:
            try store.setPreference(recipient: request.recipient, category: category, .off, at: now)
            outcome.result = "\(category) turned off"
            outcome.answer = try text("answer.off", [.string(name)], locale, fallback: "You will get no more “\(name)” reminders.")
        case .confirm?:
            try authorize(request.recipient, preferences: [:], now: now)
            outcome.result = "\(request.recipient) opted in (authorized)"
            outcome.answer = try text("answer.optedIn", [], locale, fallback: "Confirmed: your reminders will come to you from now on.")
        default:
            try authorize(request.recipient, preferences: try keptPreferences(request, category: category), now: now)
            outcome.result = "\(request.recipient) authorized, \(category) delivered prominently"
            outcome.answer = try text("answer.keep", [.string(name)], locale, fallback: "Kept: “\(name)” reminders will come to you directly.")
        }
        return outcome
    }

    /// What Keep stores: the category kept, prominent; for a recipient still provisional,
    /// every other category whose reminders go to the digest stored as quiet too, as the
    /// preferences page's Deliver Prominently does: keeping one kind of reminder brought
    /// every other kind out of the digest unasked.
    private func keptPreferences(_ request: NotificationRequest, category: String) throws -> [String: DeliveryPreference] {
        var kept = [category: DeliveryPreference.prominently]
        guard let recipient = recipient(of: request), recipient.authorization == .provisional else { return kept }
        let chosen = try store.preferences()[recipient.id]
        for other in configuration.categories where other.identifier != category
            && recipient.preference(for: other.identifier, stored: chosen) == .prominently {
            kept[other.identifier] = .quietly
        }
        return kept
    }

    /// Stores the recipient as authorized, with their other settings as they are (the
    /// store leaves the fields not given as stored, without this reading them first).
    private func authorize(_ recipient: String, preferences: [String: DeliveryPreference], now: Instant) throws {
        try store.saveSettings(recipient: recipient, RecipientSettings(authorization: .authorized), preferences: preferences, at: now)
    }
}
