/// When a request fires: the three forms of docs/requests.md.
public enum NotificationTrigger: Hashable, Sendable {
    /// `UNTimeIntervalNotificationTrigger`, counted from the moment the request was added.
    case timeInterval(seconds: Double, repeats: Bool)
    /// `UNCalendarNotificationTrigger`; a nil zone is floating: the recipient's zone.
    case calendar(DateComponentsPattern, timeZone: String?, repeats: Bool)
    /// UILocalNotification: `fireDate` as a wall time, `timeZone` (nil floating),
    /// `repeatInterval`.
    case date(fireDate: LocalDateTime, timeZone: String?, repeatInterval: RepeatInterval?)

    /// The shortest repeating time interval, as iOS has it.
    public static let minimumRepeatingInterval: Double = 60

    /// Whether the trigger fires more than once.
    public var repeats: Bool {
        switch self {
        case .timeInterval(_, let repeats), .calendar(_, _, let repeats): repeats
        case .date(_, _, let interval): interval != nil
        }
    }

    /// The fixed zone, or nil for a floating trigger (and for a time interval, which has
    /// no wall clock).
    public var timeZone: String? {
        switch self {
        case .timeInterval: nil
        case .calendar(_, let zone, _), .date(_, let zone, _): zone
        }
    }

    /// Whether the trigger follows the recipient's zone.
    public var isFloating: Bool {
        switch self {
        case .timeInterval: false
        case .calendar(_, let zone, _), .date(_, let zone, _): zone == nil
        }
    }

    /// Why the trigger is refused, with the field at fault (`trigger.seconds`), or nil
    /// when it is sound.
    public var problem: RequestProblem? {
        switch self {
        case .timeInterval(let seconds, let repeats):
            if !(seconds > 0) || !seconds.isFinite { return .init("trigger.seconds must be more than 0", at: "trigger.seconds") }
            if repeats && seconds < Self.minimumRepeatingInterval {
                return .init("a repeating time interval must be at least 60 seconds, not \(Self.format(seconds))", at: "trigger.seconds")
            }
            return nil
        case .calendar(let pattern, _, _):
            return pattern.problem.map { .init($0.message, at: "trigger." + ($0.field ?? "dateComponents")) }
        case .date:
            return nil
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
    }
}
