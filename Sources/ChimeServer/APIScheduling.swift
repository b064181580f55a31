import ChimeCore

/// How `POST /v1/requests` schedules: given by the executable, which checks and
/// schedules exactly as `chime schedule --json` does (attachments, localization keys,
/// then the scheduler's rules), all or none.
public struct APIScheduling: Sendable {
    /// One request scheduled: `{"identifier", "nextTriggerDate"}`.
    public struct Scheduled: Encodable, Sendable, Equatable {
        public var identifier: String
        /// The first fire instant, in the trigger's zone's offset.
        public var nextTriggerDate: String

        public init(identifier: String, nextTriggerDate: String) {
            self.identifier = identifier
            self.nextTriggerDate = nextTriggerDate
        }
    }

    /// Well-formed requests refused (an unknown recipient, a trigger that never fires…):
    /// nothing was stored.
    public struct Refusal: Error, Sendable {
        public var problems: [String]
        /// The field at fault, when one is (`recipient`, `[1].content.targetContentIdentifier`).
        public var field: String?

        public init(_ problems: [String], field: String? = nil) {
            self.problems = problems
            self.field = field
        }
    }

    /// Schedules the requests, all or none.
    /// - Throws: ``Refusal`` when any is refused; another error when the store fails.
    public var schedule: @Sendable ([NotificationRequest]) throws -> [Scheduled]

    public init(schedule: @escaping @Sendable ([NotificationRequest]) throws -> [Scheduled]) {
        self.schedule = schedule
    }
}
