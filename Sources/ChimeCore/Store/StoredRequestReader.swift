// Written by hand, on purpose: every request a store hands back (claimed to fire, loaded
// to send, looked up for a reply) was read with Foundation's JSONDecoder, and its keyed
// containers cost about 87,000 instructions a request, a fifth of firing one into a file.
// No well-kept Swift package reads JSON straight into a given type without Codable.
//
// The Codable conformances stay the one definition of a request's JSON: this reader takes
// only the plain shapes they write, and says "not mine" (nil) at anything else — an
// unknown or repeated field, a number with a fraction in userInfo, a lone surrogate, text
// that is not UTF-8 — so that JSONDecoder reads it and decides, error included. The names
// it knows are those types' own coding keys, each read in a switch over them: a field added
// there does not build until it is read here too. Tests hold the two to the same value for
// every shape the store writes, and a fuzz target for any bytes the reader accepts.
// This file reads the request's fields; StoredRequestReader+JSON.swift, JSON's grammar.

extension NotificationRequest {
    /// The request in JSON as the store writes it (``storedJSON()``), read without
    /// Codable; nil when the text is not in the shapes this reader knows.
    package static func readStored(_ text: String) -> NotificationRequest? {
        text.withStoredUTF8 { bytes in
            var reader = StoredRequestReader(bytes: bytes)
            return try? reader.document()
        }
    }
}

/// Not a shape the reader knows: JSONDecoder reads the text instead.
struct NotStoredShape: Error {}

struct StoredRequestReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func document() throws(NotStoredShape) -> NotificationRequest {
        let request = try request()
        skipSpace()
        guard index == bytes.count else { throw NotStoredShape() }
        return request
    }

    private static let requestFields = FieldNames<NotificationRequest.CodingKeys>()
    private static let contentFields = FieldNames<NotificationContent.CodingKeys>()
    private static let attachmentFields = FieldNames<NotificationContent.Attachment.CodingKeys>()
    private static let triggerFields = FieldNames<NotificationTrigger.CodingKeys>()
    private static let componentFields = FieldNames<DateComponentsPattern.CodingKeys>()
    /// The fields each type of trigger may have (``NotificationTrigger/Kind/knownKeys``), as bits.
    private static let triggerFieldsOf = Dictionary(uniqueKeysWithValues: NotificationTrigger.Kind.allCases.map {
        ($0, triggerFields.bits(of: $0.knownKeys))
    })

    private mutating func request() throws(NotStoredShape) -> NotificationRequest {
        var identifier: String?, recipient: String?, trigger: NotificationTrigger?
        var content = NotificationContent()
        try fields(Self.requestFields) { (reader: inout StoredRequestReader, key) throws(NotStoredShape) in
            switch key {
            case .identifier: identifier = try reader.string()
            case .recipient: recipient = try reader.string()
            case .content: if try !reader.null() { content = try reader.content() }
            case .trigger: trigger = try reader.trigger()
            }
        }
        guard let identifier, let recipient, let trigger else { throw NotStoredShape() }
        return NotificationRequest(identifier: identifier, recipient: recipient, content: content, trigger: trigger)
    }

    /// As `NotificationContent.init(from:)`: a field at null is at its default.
    private mutating func content() throws(NotStoredShape) -> NotificationContent {
        var content = NotificationContent()
        try fields(Self.contentFields) { (reader: inout StoredRequestReader, key) throws(NotStoredShape) in
            if try reader.null() {
                return
            }
            switch key {
            case .title: content.title = try reader.string()
            case .subtitle: content.subtitle = try reader.string()
            case .body: content.body = try reader.string()
            case .titleLocKey: content.titleLocKey = try reader.string()
            case .titleLocArgs: content.titleLocArgs = try reader.strings()
            case .subtitleLocKey: content.subtitleLocKey = try reader.string()
            case .subtitleLocArgs: content.subtitleLocArgs = try reader.strings()
            case .bodyLocKey: content.bodyLocKey = try reader.string()
            case .bodyLocArgs: content.bodyLocArgs = try reader.strings()
            case .badge: content.badge = try reader.integer()
            case .sound: content.sound = try reader.string()
            case .attachments: content.attachments = try reader.attachments()
            case .userInfo: content.userInfo = try reader.object(depth: 1)
            case .categoryIdentifier: content.categoryIdentifier = try reader.string()
            case .threadIdentifier: content.threadIdentifier = try reader.string()
            case .summaryArgument: content.summaryArgument = try reader.string()
            case .summaryArgumentCount: content.summaryArgumentCount = try reader.integer()
            case .targetContentIdentifier: content.targetContentIdentifier = try reader.string()
            case .interruptionLevel:
                guard let level = NotificationContent.InterruptionLevel(rawValue: try reader.string()) else {
                    throw NotStoredShape()
                }
                content.interruptionLevel = level
            case .relevanceScore: content.relevanceScore = try reader.double()
            // Never stored (ignored when decoded): not the store's shape.
            case .launchImageName: throw NotStoredShape()
            }
        }
        return content
    }

    private mutating func attachments() throws(NotStoredShape) -> [NotificationContent.Attachment] {
        var attachments: [NotificationContent.Attachment] = []
        try elements { (reader: inout StoredRequestReader) throws(NotStoredShape) in
            var identifier: String?, path: String?
            try reader.fields(Self.attachmentFields) { (reader: inout StoredRequestReader, key) throws(NotStoredShape) in
                switch key {
                case .identifier: identifier = try reader.string()
                case .path: path = try reader.string()
                }
            }
            guard let identifier, let path else { throw NotStoredShape() }
            attachments.append(.init(identifier: identifier, path: path))
        }
        return attachments
    }

    /// As `NotificationTrigger.init(from:)`, with only the fields of the trigger's type.
    private mutating func trigger() throws(NotStoredShape) -> NotificationTrigger {
        var type: String?, seconds: Double?, repeats = false, pattern: DateComponentsPattern?
        var zone: String?, fireDate: String?, interval: RepeatInterval?
        let seen = try fields(Self.triggerFields) { (reader: inout StoredRequestReader, key) throws(NotStoredShape) in
            switch key {
            case .type: type = try reader.string()
            case .seconds: seconds = try reader.double()
            case .repeats: repeats = try reader.null() ? false : try reader.bool()
            case .dateComponents: pattern = try reader.dateComponents()
            case .timeZone: zone = try reader.null() ? nil : try reader.string()
            case .fireDate: fireDate = try reader.string()
            case .repeatInterval:
                guard try !reader.null() else { return }
                guard let value = RepeatInterval(rawValue: try reader.string()) else { throw NotStoredShape() }
                interval = value
            }
        }
        guard let kind = type.flatMap(NotificationTrigger.Kind.init(rawValue:)), seen & ~Self.triggerFieldsOf[kind]! == 0 else {
            throw NotStoredShape()
        }
        switch kind {
        case .timeInterval:
            guard let seconds else { throw NotStoredShape() }
            return .timeInterval(seconds: seconds, repeats: repeats)
        case .calendar:
            guard let pattern else { throw NotStoredShape() }
            return .calendar(pattern, timeZone: zone, repeats: repeats)
        case .date:
            guard let fireDate, let date = LocalDateTime(parsing: fireDate) else { throw NotStoredShape() }
            return .date(fireDate: date, timeZone: zone, repeatInterval: interval)
        }
    }

    private mutating func dateComponents() throws(NotStoredShape) -> DateComponentsPattern {
        var pattern = DateComponentsPattern()
        try fields(Self.componentFields) { (reader: inout StoredRequestReader, key) throws(NotStoredShape) in
            let value = try reader.null() ? nil : try reader.integer()
            switch key {
            case .year: pattern.year = value
            case .month: pattern.month = value
            case .day: pattern.day = value
            case .hour: pattern.hour = value
            case .minute: pattern.minute = value
            case .second: pattern.second = value
            case .weekday: pattern.weekday = value
            case .weekdayOrdinal: pattern.weekdayOrdinal = value
            }
        }
        return pattern
    }
}
