/// A daily window of wall-clock time in the recipient's zone, e.g. 22:00–07:00; it may
/// run over midnight. Minutes after midnight, `start` included, `end` excluded.
public struct QuietHours: Hashable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Reads `HH:MM-HH:MM` (or with an en dash); nil for anything else, or an empty window.
    public init?(parsing text: String) {
        // Empty parts kept: "-22:00-07:00" is not 22:00-07:00.
        let parts = text.replacingOccurrences(of: "–", with: "-").split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let start = Self.minutes(parts[0]), let end = Self.minutes(parts[1]), start != end else { return nil }
        self.init(start: start, end: end)
    }

    /// `HH:MM` as minutes after midnight.
    public static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        let twoDigits = { (part: Substring) in part.count == 2 && part.allSatisfy { $0.isASCII && $0.isNumber } }
        guard parts.count == 2, parts.allSatisfy(twoDigits), let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        return hour * 60 + minute
    }

    /// `22:00-07:00`, as ``init(parsing:)`` reads it.
    public var text: String {
        func clock(_ minutes: Int) -> String {
            let (hour, minute) = (minutes / 60, minutes % 60)
            return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        }
        return clock(start) + "-" + clock(end)
    }

    /// Whether a wall-clock minute of the day falls inside.
    public func contains(minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }
}
