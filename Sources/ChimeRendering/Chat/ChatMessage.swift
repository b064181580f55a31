import ChimeCore

/// One notification ready for a chat platform: its text already localized and the
/// preview rules already applied (``PreviewSurfaces``).
public struct ChatMessage: Sendable {
    /// One action as chat shows it.
    public struct Action: Sendable {
        public var identifier: String
        /// Its number in the category's menu (1 for the first action), what a Slack
        /// button's `action_id` is made of: unique and short whatever the identifier.
        public var number: Int
        /// Localized title.
        public var title: String
        public var options: NotificationAction.Options
        /// The signed link that performs the action (or, for a foreground action, opens
        /// `targetContentIdentifier`).
        public var url: String
        /// Whether ``url`` opens the request's `targetContentIdentifier` rather than the
        /// action's own page: a foreground action of a request that has one.
        public var opensTarget: Bool
        /// The short signed token a platform sends back (Telegram callback_data ≤ 64
        /// bytes, Mattermost context, Slack value).
        public var token: String
        /// A text-input action's placeholder, localized; nil for any other action.
        public var placeholder: String?
        /// How to answer it with text where it can be typed ("Add a note: press it, then
        /// reply with your text (Why was it late?)", or "…type your text on the page that
        /// opens…" where its button is a link); nil otherwise.
        public var textHint: String?

        public init(identifier: String, number: Int, title: String, options: NotificationAction.Options = [], url: String,
                    opensTarget: Bool = false, token: String, placeholder: String? = nil, textHint: String? = nil) {
            self.identifier = identifier
            self.number = number
            self.title = title
            self.options = options
            self.url = url
            self.opensTarget = opensTarget
            self.token = token
            self.placeholder = placeholder
            self.textHint = textHint
        }
    }

    public var surfaces: PreviewSurfaces
    /// Shown in the message itself only when `surfaces.bodyShowsContent`.
    public var title: String
    public var subtitle: String
    public var body: String
    /// The message's text below the headline (subtitle and body by default, from the
    /// `chat.text` template): empty when the content is hidden.
    public var text: String
    /// "mardi 24 novembre à 09:00".
    public var dateText: String
    /// The default context (full surfaces).
    public var actions: [Action]
    /// The minimal context (compact surfaces).
    public var minimalActions: [Action]
    /// A link to view the reminder behind a login (what `never` offers instead).
    public var viewURL: String
    /// Localized "View", "Confirm", "Cancel" and the destructive confirmation text.
    public var words: Words
    /// Where the platform posts a press of the message's buttons, for platforms that post
    /// them to a URL the message names (Mattermost's `integration.url`): `chime serve`'s
    /// route for the channel, not the `/a/` page.
    public var pressURL: String? = nil
    /// A grouped message's ``text`` as its entries: each platform lists whole ones
    /// (``fittedText(_:_:escaping:links:)``).
    public var list: List? = nil
    /// Whether the recipient's language is written right to left (Arabic, Hebrew,
    /// Persian, Urdu): each platform that has a way to say so is told.
    public var rightToLeft = false

    /// The entries of a grouped message, one reminder each (its lines, the heading of its
    /// group before the first), whose lines joined are its ``text``; and the line saying
    /// how many of them a platform's limit left out.
    public struct List: Sendable {
        public var entries: [String]
        public var more: @Sendable (Int) -> String

        public init(entries: [String], more: @escaping @Sendable (Int) -> String) {
            self.entries = entries
            self.more = more
        }
    }

    public struct Words: Sendable {
        public var view = "View"
        public var confirm = "Confirm"
        public var cancel = "Cancel"
        public var areYouSure = "Are you sure?"

        public init(view: String = "View", confirm: String = "Confirm", cancel: String = "Cancel", areYouSure: String = "Are you sure?") {
            self.view = view
            self.confirm = confirm
            self.cancel = cancel
            self.areYouSure = areYouSure
        }
    }

    public init(surfaces: PreviewSurfaces, title: String, subtitle: String, body: String, text: String, dateText: String,
                actions: [Action], minimalActions: [Action], viewURL: String, words: Words = Words()) {
        self.surfaces = surfaces
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.text = text
        self.dateText = dateText
        self.actions = actions
        self.minimalActions = minimalActions
        self.viewURL = viewURL
        self.words = words
    }

    /// The headline shown in the message: the title when content may show, else the
    /// surface's subject (the placeholder).
    var headline: String { surfaces.bodyShowsContent && !title.isEmpty ? title : surfaces.subject }

    /// What the message shows below its headline: ``text``, then how to answer each
    /// text-input action of the default set with text.
    var shownText: String {
        ([text] + actions.prefix(NotificationCategory.maximumDefaultActions).compactMap(\.textHint))
            .filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// ``shownText`` escaped and fitting `limit` as the platform counts it; a grouped
    /// message's, its whole entries only (``TextLimit/fit(blocks:_:_:escaping:links:more:)``).
    func fittedText(_ limit: Int, _ unit: TextLimit.Unit, escaping escape: (Character) -> String = { String($0) },
                    links: TextLimit.Links = .escaped) -> String {
        // The list is the whole text when no text-input hint follows it.
        if let list, shownText == text {
            return TextLimit.fit(blocks: list.entries, limit, unit, escaping: escape, links: links, more: list.more)
        }
        // The hints kept whole and the text cut before them: cut as one, a long body took
        // the line that says how to answer with text (the README promises it under the text).
        let hints = actions.prefix(NotificationCategory.maximumDefaultActions).compactMap(\.textHint).filter { !$0.isEmpty }
        if !hints.isEmpty, !text.isEmpty {
            let tail = TextLimit.fit("\n\n" + hints.joined(separator: "\n\n"), limit, unit, escaping: escape, links: links)
            let room = limit - TextLimit.length(tail, in: unit)
            if room > 0 { return TextLimit.fit(text, room, unit, escaping: escape, links: links) + tail }
        }
        return TextLimit.fit(shownText, limit, unit, escaping: escape, links: links)
    }
}
