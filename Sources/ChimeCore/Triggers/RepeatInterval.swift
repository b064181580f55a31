/// The `repeatInterval` of the UILocalNotification form (`NSCalendarUnit`).
public enum RepeatInterval: String, CaseIterable, Hashable, Sendable, Codable {
    case minute, hour, day, week, month, year

    public init(from decoder: any Decoder) throws {
        self = try decoder.decodeCase(Self.self)
    }
}
