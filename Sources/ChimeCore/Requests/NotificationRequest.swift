import Foundation

/// A reminder to deliver: who, what and when, as `UNNotificationRequest`.
public struct NotificationRequest: Hashable, Sendable, Codable {
    /// Adding a request with the identifier of a pending one replaces it.
    public var identifier: String
    /// A recipient id of the configuration.
    public var recipient: String
    public var content: NotificationContent
    public var trigger: NotificationTrigger

    enum CodingKeys: String, CodingKey, CaseIterable {
        case identifier, recipient, content, trigger
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
        let c = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try c.decode(String.self, forKey: .identifier)
        recipient = try c.decode(String.self, forKey: .recipient)
        content = try c.decodeIfPresent(NotificationContent.self, forKey: .content) ?? NotificationContent()
        trigger = try c.decode(NotificationTrigger.self, forKey: .trigger)
    }

    public init(identifier: String, recipient: String, content: NotificationContent, trigger: NotificationTrigger) {
        self.identifier = identifier
        self.recipient = recipient
        self.content = content
        self.trigger = trigger
    }

    /// The longest identifier, in UTF-8 bytes, that a request may be scheduled with (a
    /// snooze of one adds `.snoozed`: far below PostgreSQL's index limit of about 2,700).
    public static let longestIdentifier = 1_024

    /// Whether a stored request can have `identifier`: none is scheduled with a NUL (see
    /// ``problems(in:)``). Each store looks no such one up: SQLite read `a\0` as `a` (a
    /// URL's `a%00` found, and cancelled, request `a`), and PostgreSQL's text, which holds
    /// no NUL, failed the whole statement (`GET /v1/requests/%00` answered 500).
    public static func canBeIdentifier(_ identifier: String) -> Bool {
        !identifier.utf8.contains(0)
    }

    /// Every reason the request is refused against a configuration, each naming the field.
    public func problems(in configuration: Configuration) -> [RequestProblem] {
        var problems: [RequestProblem] = []
        if identifier.isEmpty { problems.append(.init("identifier must not be empty", at: "identifier")) }
        if !Self.canBeIdentifier(identifier) { problems.append(.init("identifier has a NUL character (U+0000)", at: "identifier")) }
        // A key of every store: PostgreSQL's index takes about 2,700 bytes, SQLite's any.
        if identifier.utf8.count > Self.longestIdentifier {
            problems.append(.init("identifier is \(identifier.utf8.count) bytes long, more than \(Self.longestIdentifier)", at: "identifier"))
        }
        if configuration.recipient(recipient) == nil {
            problems.append(.init("unknown recipient \"\(recipient)\"", at: "recipient"))
        }
        let category = content.categoryIdentifier
        if !category.isEmpty, configuration.category(category) == nil {
            problems.append(.init("unknown category \"\(category)\"", at: "content.categoryIdentifier"))
        }
        if let problem = content.problem { problems.append(problem) }
        if let target = content.targetContentIdentifier, let problem = TargetURL.problem(target) {
            problems.append(.init(problem, at: "content.targetContentIdentifier"))
        }
        if let problem = trigger.problem { problems.append(problem) }
        if let zone = trigger.timeZone, TimeZone(identifier: zone) == nil {
            problems.append(.init("unknown time zone \"\(zone)\" in trigger.timeZone", at: "trigger.timeZone"))
        }
        return problems
    }
}

/// Why a well-formed request is refused, and the field at fault (`recipient`,
/// `content.targetContentIdentifier`): the HTTP API's error says it as `at`.
public struct RequestProblem: Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var field: String?

    public init(_ message: String, at field: String?) {
        self.message = message
        self.field = field
    }

    public var description: String { message }
}
