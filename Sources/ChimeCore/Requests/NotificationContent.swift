/// What a notification says, as `UNNotificationContent`.
public struct NotificationContent: Hashable, Sendable {
    /// The importance of a notification, as `UNNotificationInterruptionLevel`.
    public enum InterruptionLevel: String, CaseIterable, Hashable, Sendable, Codable {
        case passive, active, timeSensitive, critical

        public init(from decoder: any Decoder) throws {
            self = try decoder.decodeCase(Self.self)
        }
    }

    /// A file sent with the notification.
    public struct Attachment: Hashable, Sendable, Codable {
        public var identifier: String
        public var path: String

        /// The synthesized keys, named so that the store's reader can list them.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case identifier, path
        }

        public init(identifier: String, path: String) {
            self.identifier = identifier
            self.path = path
        }

        /// An unknown field is refused, as the content's own (`"type": "pdf"` had been
        /// dropped without a word).
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let c = try decoder.container(keyedBy: CodingKeys.self)
            identifier = try c.decode(String.self, forKey: .identifier)
            path = try c.decode(String.self, forKey: .path)
        }
    }

    public var title = ""
    public var subtitle = ""
    /// What a listing (`chime pending`, `chime delivered`) names the request by: its
    /// title, else its `titleLocKey` as written, which a list without a recipient's
    /// language cannot render.
    public var listingTitle: String { title.isEmpty ? titleLocKey ?? "" : title }
    public var body = ""
    public var titleLocKey: String?
    public var titleLocArgs: [String] = []
    /// APNs' `subtitle-loc-key` and `subtitle-loc-args`, as the title's and body's.
    public var subtitleLocKey: String?
    public var subtitleLocArgs: [String] = []
    public var bodyLocKey: String?
    public var bodyLocArgs: [String] = []
    public var badge: Int?
    public var sound: String?
    public var attachments: [Attachment] = []
    public var userInfo: [String: JSONValue] = [:]
    public var categoryIdentifier = ""
    public var threadIdentifier = ""
    public var summaryArgument = ""
    public var summaryArgumentCount = 0
    public var targetContentIdentifier: String?
    public var interruptionLevel: InterruptionLevel = .active
    /// 0…1; orders notifications within a summary.
    public var relevanceScore: Double = 0

    public init(title: String = "", subtitle: String = "", body: String = "", categoryIdentifier: String = "", threadIdentifier: String = "") {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.categoryIdentifier = categoryIdentifier
        self.threadIdentifier = threadIdentifier
    }

    /// Why the content is refused, with the field at fault (`content.relevanceScore`), or nil.
    public var problem: RequestProblem? {
        // A message with nothing to say: every platform would show an empty message (Slack
        // an empty text, Mattermost an empty fallback), which the recipient cannot act on.
        func blank(_ text: String) -> Bool { text.allSatisfy { $0.isWhitespace } }
        if blank(title), blank(titleLocKey ?? ""), blank(body), blank(bodyLocKey ?? "") {
            return .init("content.title and content.body are both empty: give at least one (or content.titleLocKey or content.bodyLocKey)", at: "content.title")
        }
        if !(0...1).contains(relevanceScore) {
            return .init("content.relevanceScore must be within 0…1, not \(relevanceScore)", at: "content.relevanceScore")
        }
        if let badge, badge < 0 {
            return .init("content.badge must not be negative", at: "content.badge")
        }
        if summaryArgumentCount < 0 {
            return .init("content.summaryArgumentCount must not be negative", at: "content.summaryArgumentCount")
        }
        // A NUL ends a C string: GMime wrote the Subject up to it and no further.
        let texts = [("title", title), ("subtitle", subtitle), ("body", body), ("threadIdentifier", threadIdentifier),
                     ("summaryArgument", summaryArgument)] + titleLocArgs.enumerated().map { ("titleLocArgs[\($0)]", $1) }
            + subtitleLocArgs.enumerated().map { ("subtitleLocArgs[\($0)]", $1) } + bodyLocArgs.enumerated().map { ("bodyLocArgs[\($0)]", $1) }
        if let (field, _) = texts.first(where: { $0.1.utf8.contains(0) }) {
            return .init("content.\(field) has a NUL character (U+0000), which no email header or chat message carries", at: "content.\(field)")
        }
        return nil
    }
}

extension NotificationContent: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, subtitle, body, titleLocKey, titleLocArgs, subtitleLocKey, subtitleLocArgs, bodyLocKey, bodyLocArgs, badge, sound, attachments,
             userInfo, categoryIdentifier, threadIdentifier, summaryArgument, summaryArgumentCount,
             targetContentIdentifier, interruptionLevel, relevanceScore
        /// `UNNotificationContent.launchImageName`: taken and ignored (no app launches
        /// from an email or a chat message), so that a request carried over whole is not
        /// refused for it.
        case launchImageName
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // The fields the object has, each looked up once: the store leaves out those at
        // their default, so a stored request's content has three or four of eighteen, and
        // asking for each of the others was a third of reading a request back.
        for key in c.allKeys {
            switch key {
            case .title: title = try c.decodeIfPresent(String.self, forKey: key) ?? ""
            case .subtitle: subtitle = try c.decodeIfPresent(String.self, forKey: key) ?? ""
            case .body: body = try c.decodeIfPresent(String.self, forKey: key) ?? ""
            case .titleLocKey: titleLocKey = try c.decodeIfPresent(String.self, forKey: key)
            case .titleLocArgs: titleLocArgs = try c.decodeIfPresent([String].self, forKey: key) ?? []
            case .subtitleLocKey: subtitleLocKey = try c.decodeIfPresent(String.self, forKey: key)
            case .subtitleLocArgs: subtitleLocArgs = try c.decodeIfPresent([String].self, forKey: key) ?? []
            case .bodyLocKey: bodyLocKey = try c.decodeIfPresent(String.self, forKey: key)
            case .bodyLocArgs: bodyLocArgs = try c.decodeIfPresent([String].self, forKey: key) ?? []
            case .badge: badge = try c.decodeWholeNumberIfPresent(forKey: key)
            case .sound: sound = try c.decodeIfPresent(String.self, forKey: key)
            case .attachments: attachments = try c.decodeIfPresent([Attachment].self, forKey: key) ?? []
            case .userInfo: userInfo = try c.decodeIfPresent([String: JSONValue].self, forKey: key) ?? [:]
            case .categoryIdentifier: categoryIdentifier = try c.decodeIfPresent(String.self, forKey: key) ?? ""
            case .threadIdentifier: threadIdentifier = try c.decodeIfPresent(String.self, forKey: key) ?? ""
            case .summaryArgument: summaryArgument = try c.decodeIfPresent(String.self, forKey: key) ?? ""
            case .summaryArgumentCount: summaryArgumentCount = try c.decodeWholeNumberIfPresent(forKey: key) ?? 0
            case .targetContentIdentifier: targetContentIdentifier = try c.decodeIfPresent(String.self, forKey: key)
            case .interruptionLevel: interruptionLevel = try c.decodeIfPresent(InterruptionLevel.self, forKey: key) ?? .active
            case .relevanceScore: relevanceScore = try c.decodeIfPresent(Double.self, forKey: key) ?? 0
            case .launchImageName: _ = try c.decodeIfPresent(String.self, forKey: key)
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if encoder.userInfo[.storedJSON] as? Bool == true {
            try encodeCompact(into: &c)
            return
        }
        try c.encode(title, forKey: .title)
        try c.encode(subtitle, forKey: .subtitle)
        try c.encode(body, forKey: .body)
        try c.encode(titleLocKey, forKey: .titleLocKey)
        try c.encode(titleLocArgs, forKey: .titleLocArgs)
        try c.encode(subtitleLocKey, forKey: .subtitleLocKey)
        try c.encode(subtitleLocArgs, forKey: .subtitleLocArgs)
        try c.encode(bodyLocKey, forKey: .bodyLocKey)
        try c.encode(bodyLocArgs, forKey: .bodyLocArgs)
        try c.encode(badge, forKey: .badge)
        try c.encode(sound, forKey: .sound)
        try c.encode(attachments, forKey: .attachments)
        try c.encode(userInfo, forKey: .userInfo)
        try c.encode(categoryIdentifier, forKey: .categoryIdentifier)
        try c.encode(threadIdentifier, forKey: .threadIdentifier)
        try c.encode(summaryArgument, forKey: .summaryArgument)
        try c.encode(summaryArgumentCount, forKey: .summaryArgumentCount)
        try c.encode(targetContentIdentifier, forKey: .targetContentIdentifier)
        try c.encode(interruptionLevel, forKey: .interruptionLevel)
        try c.encode(relevanceScore, forKey: .relevanceScore)
    }
}

extension CodingUserInfoKey {
    /// Set on the coders of JSON that Chime's store writes and reads back: content is
    /// encoded without the fields that hold their default value (a third the size), and
    /// decoded without the check for unknown fields that guards what users write.
    public static let storedJSON = CodingUserInfoKey(rawValue: "chime.storedJSON")!
}

extension NotificationContent {
    private func encodeCompact(into c: inout KeyedEncodingContainer<CodingKeys>) throws {
        if !title.isEmpty { try c.encode(title, forKey: .title) }
        if !subtitle.isEmpty { try c.encode(subtitle, forKey: .subtitle) }
        if !body.isEmpty { try c.encode(body, forKey: .body) }
        try c.encodeIfPresent(titleLocKey, forKey: .titleLocKey)
        if !titleLocArgs.isEmpty { try c.encode(titleLocArgs, forKey: .titleLocArgs) }
        try c.encodeIfPresent(subtitleLocKey, forKey: .subtitleLocKey)
        if !subtitleLocArgs.isEmpty { try c.encode(subtitleLocArgs, forKey: .subtitleLocArgs) }
        try c.encodeIfPresent(bodyLocKey, forKey: .bodyLocKey)
        if !bodyLocArgs.isEmpty { try c.encode(bodyLocArgs, forKey: .bodyLocArgs) }
        try c.encodeIfPresent(badge, forKey: .badge)
        try c.encodeIfPresent(sound, forKey: .sound)
        if !attachments.isEmpty { try c.encode(attachments, forKey: .attachments) }
        if !userInfo.isEmpty { try c.encode(userInfo, forKey: .userInfo) }
        if !categoryIdentifier.isEmpty { try c.encode(categoryIdentifier, forKey: .categoryIdentifier) }
        if !threadIdentifier.isEmpty { try c.encode(threadIdentifier, forKey: .threadIdentifier) }
        if !summaryArgument.isEmpty { try c.encode(summaryArgument, forKey: .summaryArgument) }
        if summaryArgumentCount != 0 { try c.encode(summaryArgumentCount, forKey: .summaryArgumentCount) }
        try c.encodeIfPresent(targetContentIdentifier, forKey: .targetContentIdentifier)
        if interruptionLevel != .active { try c.encode(interruptionLevel, forKey: .interruptionLevel) }
        if relevanceScore != 0 { try c.encode(relevanceScore, forKey: .relevanceScore) }
    }
}
