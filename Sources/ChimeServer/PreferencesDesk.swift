import ChimeCore
import ChimeLocalization
import Foundation

/// The preferences page's work (iOS's `openSettingsFor`), reached by the signed link in
/// every message's footer: the token names a notification, and so its recipient, whose
/// settings the page shows and changes. Changes are stored and take effect at the next
/// fire (`chime run` reads them over the configuration).
extension ClickDesk {
    /// A recipient's settings as the page shows them: the configuration's, with what the
    /// person changed over them.
    public struct Preferences: Sendable {
        public var recipient: Recipient
        /// What the person changed themselves, as stored.
        public var stored: RecipientSettings
        /// Each category of the configuration, in its order, with how it is delivered; then
        /// reminders without a category (identifier ""), when the person changed theirs.
        public var categories: [(identifier: String, deliver: DeliveryPreference)]
        /// The locales a person may choose: those the templates have.
        public var locales: [String]
        /// The language the page shows as chosen, and is written in: of ``locales``, the
        /// one the recipient's reminders are written in (the first of their locale's
        /// chain, down to the fallback language). A `pt-BR` reader of templates without
        /// Portuguese reads English, and English is chosen: with none chosen, a browser
        /// submits the list's first language, and saving quiet hours changed it.
        public var shownLocale: String
    }

    /// The preferences of the token's recipient, or the verdict saying why there are none
    /// (403 forged, 410 expired or gone, 404 a recipient no longer configured).
    public func preferences(token: String, now: Instant) throws -> (verdict: Verdict, preferences: Preferences?) {
        let (verdict, request) = try preferencesLink(token, now: now)
        guard let request else { return (verdict, nil) }
        guard let configured = configuration.recipient(request.recipient) else { return (.unknownRecipient, nil) }
        let stored = try store.recipientSettings()[configured.id] ?? RecipientSettings()
        let recipient = configured.applying(stored)
        let chosen = try store.preferences()[recipient.id]
        // As they come: a provisional recipient's reminders go to the digest (iOS's
        // "delivered quietly" trial) whatever the category says, until they Keep them.
        func shown(_ preference: DeliveryPreference) -> DeliveryPreference {
            recipient.authorization == .provisional && preference == .prominently ? .quietly : preference
        }
        var categories = configuration.categories.map { category in
            (identifier: category.identifier, deliver: shown(recipient.preference(for: category.identifier, stored: chosen)))
        }
        // Reminders without a category, once turned off or quieted together (by a reply,
        // a button or a one-click unsubscribe): listed, so that the page can undo it.
        if let uncategorized = chosen?[""] { categories.append((identifier: "", deliver: shown(uncategorized))) }
        let locales = actions.localizer?.languages ?? ["en"]
        let shown = actions.localizer?.chain(for: recipient.locale).first(where: locales.contains) ?? locales.first ?? "en"
        return (.answered, Preferences(recipient: recipient, stored: stored, categories: categories, locales: locales, shownLocale: shown))
    }

    /// A preferences token checked, recording nothing: its notification's request
    /// (answered), else the verdict saying why not (403 forged, 410 expired or gone).
    func preferencesLink(_ token: String, now: Instant) throws -> (verdict: Verdict, request: NotificationRequest?) {
        try notification(of: token, now: now) { _ in [.preferences] }
    }

    /// A submitted preferences form, checked; nil fields are left as they are.
    public struct PreferencesForm: Sendable {
        public var deliver: [String: String] = [:]
        public var quietHours: String?
        public var showPreviews: String?
        public var locale: String?
    }

    /// Why a form was refused: the field, and the localized message's key.
    public struct FormProblem: Error, Sendable {
        public var field: String
        public var key: String
    }

    /// Stores the form's changes for the token's recipient, all or none. Returns the
    /// verdict (as ``preferences(token:now:)``; malformed when a field is refused), the refused fields, and the preferences as
    /// they were (to show the form again with its problems).
    public func savePreferences(token: String, form: PreferencesForm, now: Instant) throws
        -> (verdict: Verdict, problems: [FormProblem], preferences: Preferences?) {
        let (verdict, current) = try preferences(token: token, now: now)
        guard let current else { return (verdict, [], nil) }
        var problems: [FormProblem] = []
        var changed: [String: DeliveryPreference] = [:]
        for (identifier, deliver) in current.categories {
            guard let given = form.deliver[identifier] else { continue }
            guard let preference = DeliveryPreference(rawValue: given) else {
                problems.append(FormProblem(field: "deliver.\(identifier)", key: "prefs.invalid"))
                continue
            }
            if preference != deliver { changed[identifier] = preference }
        }
        // Only what the form changes from what the page showed: the store keeps the rest
        // as it is then (a Keep answered while the page was open is not undone by it), and
        // a field left as shown stays the configuration's, so that the operator's later
        // quiet hours or previews setting still reach someone who only chose a language.
        var settings = RecipientSettings()
        let shown = current.recipient
        if let text = form.quietHours?.trimmingCharacters(in: .whitespaces) {
            let hours = QuietHours(parsing: text)
            if !text.isEmpty, hours == nil {
                problems.append(FormProblem(field: "quietHours", key: "prefs.quietHours.invalid"))
            } else if hours != shown.quietHours {
                settings.quietHours = text
            }
        }
        if let text = form.showPreviews {
            if let showPreviews = Recipient.ShowPreviews(rawValue: text) {
                if showPreviews != shown.showPreviews { settings.showPreviews = showPreviews }
            } else {
                problems.append(FormProblem(field: "showPreviews", key: "prefs.invalid"))
            }
        }
        if let text = form.locale {
            if current.locales.contains(text) {
                if text != current.shownLocale { settings.locale = text }
            } else {
                problems.append(FormProblem(field: "locale", key: "prefs.invalid"))
            }
        }
        guard problems.isEmpty else { return (.malformed, problems, current) }
        // A provisional recipient choosing Deliver prominently keeps their reminders (as
        // Keep does): authorized, that category prominent, every other one the page showed
        // as quiet stored so, so that nothing else leaves the digest unasked.
        if current.recipient.authorization == .provisional, changed.values.contains(.prominently) {
            settings.authorization = .authorized
            for (identifier, deliver) in current.categories where changed[identifier] == nil && deliver == .quietly {
                changed[identifier] = .quietly
            }
        }
        try store.saveSettings(recipient: current.recipient.id, settings, preferences: changed, at: now)
        return (.answered, [], current)
    }
}
