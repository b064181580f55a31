import Foundation

/// What a notification may show on the surfaces seen outside an authenticated view —
/// the email subject and preheader, the chat notification and fallback text, the
/// Telegram and Discord previews — and whether its body may carry the content.
///
/// The rules of iOS's `showPreviews` setting, carried to mail and chat:
/// - `always`: everything shows.
/// - `whenAuthenticated`: the surfaces carry the placeholder (with the title or
///   subtitle when the category's `hiddenPreviewsShowTitle`/`…ShowSubtitle` allow);
///   the body, behind the mailbox or workspace login, carries the content.
/// - `never`: no title, subtitle or body anywhere, the body included: it carries the
///   placeholder and a link to view the reminder.
public struct PreviewSurfaces: Hashable, Sendable {
    /// The email subject; the chat message's headline.
    public var subject: String
    /// The preheader (hidden preview text) of an email; the second line of a chat preview.
    public var preheader: String
    /// The chat notification / fallback text, the Telegram and Discord preview.
    public var notificationText: String
    /// Whether the message body may show the title, subtitle and body.
    public var bodyShowsContent: Bool
    /// The placeholder, `%u` already replaced: shown instead of what is hidden.
    public var placeholder: String
    /// Whether the body shows what the surfaces hide (`whenAuthenticated`): an inbox's
    /// snippet runs on from the preheader into the body's first text, so the preheader
    /// must be padded to end the snippet before the content (see ``PreheaderPadding``).
    public var bodyShowsHiddenContent: Bool

    /// Decides the surfaces of one notification.
    /// - Parameters:
    ///   - title, subtitle, body: the content, localized.
    ///   - showPreviews: the recipient's setting.
    ///   - options: the category's options (`hiddenPreviewsShowTitle`, `…ShowSubtitle`).
    ///   - placeholder: the category's `hiddenPreviewsBodyPlaceholder`, localized, or the
    ///     localized "Notification"; `%u` in it is replaced by `threadCount`.
    ///   - threadCount: how many notifications the thread holds.
    public init(title: String, subtitle: String, body: String, showPreviews: Recipient.ShowPreviews,
                options: NotificationCategory.Options, placeholder: String, threadCount: Int) {
        let filled = Self.filled(placeholder, threadCount: threadCount)
        self.placeholder = filled
        let lead = Self.lead(title: title, body: body)
        switch showPreviews {
        case .always:
            subject = lead
            preheader = [subtitle, title.isEmpty ? "" : body].filter { !$0.isEmpty }.joined(separator: " — ")
            notificationText = [title, subtitle, body].filter { !$0.isEmpty }.joined(separator: ": ")
            bodyShowsContent = true
            bodyShowsHiddenContent = false
        case .whenAuthenticated:
            let shownTitle = options.contains(.hiddenPreviewsShowTitle) ? title : ""
            let shownSubtitle = options.contains(.hiddenPreviewsShowSubtitle) ? subtitle : ""
            subject = shownTitle.isEmpty ? filled : shownTitle
            preheader = [shownSubtitle, filled].filter { !$0.isEmpty }.joined(separator: " — ")
            notificationText = [shownTitle, shownSubtitle, filled].filter { !$0.isEmpty }.joined(separator: ": ")
            bodyShowsContent = true
            bodyShowsHiddenContent = true
        case .never:
            subject = filled
            preheader = filled
            notificationText = filled
            bodyShowsContent = false
            bodyShowsHiddenContent = false
        }
    }

    /// A placeholder with `%u` replaced by `threadCount` (as it is when it has none).
    public static func filled(_ placeholder: String, threadCount: Int) -> String {
        (try? StringFormat.format(placeholder, [.integer(threadCount)])) ?? placeholder
    }

    /// What names a reminder where its content shows: its title, else its body's
    /// ``headline(of:)``.
    public static func lead(title: String, body: String) -> String {
        title.isEmpty ? headline(of: body) : oneLine(title)
    }

    /// `text` on one line: each run of line breaks one space (a title typed over two lines
    /// was a subject over two, `=0D=0A` in its encoded words).
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The longest headline a body gives a reminder without a title.
    static let longestHeadline = 200

    /// What stands for a title a reminder does not have: its body's first line with words
    /// in it, at most ``longestHeadline`` characters ("…" at the end of one cut). The
    /// whole body made the subject: a line break in it showed as a box or a break in
    /// mail clients' lists, and a body of a few kilobytes was a subject as long.
    static func headline(of body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
        return line.count <= longestHeadline ? line : String(line.prefix(longestHeadline - 1)) + "…"
    }
}
