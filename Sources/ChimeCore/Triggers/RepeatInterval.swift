/// The `repeatInterval` of the UILocalNotification form (`NSCalendarUnit`).
public enum RepeatInterval: String, CaseIterable, Hashable, Sendable, Codable {
    case minute, hour, day, week, month, year
}
