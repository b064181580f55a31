/// What a person changed for themselves on the preferences page, over what the
/// configuration says of them: each nil keeps the configuration's.
public struct RecipientSettings: Hashable, Sendable {
    /// BCP 47, one of the locales the templates have.
    public var locale: String?
    public var showPreviews: Recipient.ShowPreviews?
    /// `22:00-07:00`, or empty for none.
    public var quietHours: String?
    /// `authorized` once a provisional recipient chose Keep, or a `notDetermined` one
    /// confirmed their opt-in.
    public var authorization: Recipient.Authorization?

    public init(locale: String? = nil, showPreviews: Recipient.ShowPreviews? = nil, quietHours: String? = nil,
                authorization: Recipient.Authorization? = nil) {
        self.locale = locale
        self.showPreviews = showPreviews
        self.quietHours = quietHours
        self.authorization = authorization
    }
}

extension Recipient {
    /// The recipient with the settings they changed themselves. A stored authorization
    /// (Keep, a confirmed opt-in) lifts only the configuration's `notDetermined` and
    /// `provisional`: an operator's `denied` stays denied.
    public func applying(_ settings: RecipientSettings?) -> Recipient {
        guard let settings else { return self }
        var changed = self
        if let locale = settings.locale { changed.locale = locale }
        if let showPreviews = settings.showPreviews { changed.showPreviews = showPreviews }
        if let authorization = settings.authorization, [.notDetermined, .provisional].contains(self.authorization) {
            changed.authorization = authorization
        }
        if let quietHours = settings.quietHours { changed.quietHours = quietHours.isEmpty ? nil : QuietHours(parsing: quietHours) }
        return changed
    }
}

extension Configuration {
    /// The configuration with each recipient's own settings (recipient id → settings)
    /// applied: what every command that fires or renders works from.
    public func applying(_ settings: [String: RecipientSettings]) -> Configuration {
        guard !settings.isEmpty else { return self }
        var changed = self
        changed.recipients = recipients.map { $0.applying(settings[$0.id]) }
        return changed
    }
}
