import ChimeCore
import ChimeLocalization

/// The name a recipient knows a reminder by, on `chime serve`'s pages and in the answers
/// to a press: its title as their message shows it (localized; the body when it has no
/// title), or the category's placeholder where their previews hide the content
/// (`never`), as the message's headline does.
public enum ReminderTitle {
    /// The reminder's name for its recipient, at most 120 characters.
    /// - Parameters:
    ///   - request: the notification's request.
    ///   - recipient: its recipient, with the settings they chose applied.
    ///   - category: the request's category, for its placeholder.
    public static func text(of request: NotificationRequest, for recipient: Recipient, category: NotificationCategory?,
                            localizer: Localizer) -> String {
        let locale = recipient.locale
        // An opt-in request has no content of its own: it is known by its subject.
        if request.content.categoryIdentifier == OptIn.category {
            return localizer.string(OptInComposer.subject.key, locale: locale)?.text ?? OptInComposer.subject.fallback
        }
        // As the message has it: a key of a `.stringsdict` in its form for one reminder.
        let value = category?.hiddenPreviewsBodyPlaceholder ?? "Notification"
        let placeholder = (try? LocalizedMessage.placeholder(value, localizer: localizer, locale: locale, threadCount: 1))
            ?? localizer.localized(value, locale: locale)
        guard let content = try? LocalizedContent(request.content, localizer: localizer, locale: locale) else {
            return PreviewSurfaces.filled(placeholder, threadCount: 1)
        }
        let surfaces = PreviewSurfaces(title: content.title, subtitle: content.subtitle, body: content.body,
                                       showPreviews: recipient.showPreviews, options: category?.options ?? [],
                                       placeholder: placeholder, threadCount: 1)
        let lead = PreviewSurfaces.lead(title: content.title, body: content.body)
        return TextLimit.fit(surfaces.bodyShowsContent && !lead.isEmpty ? lead : surfaces.subject, 120, .scalars)
    }
}
