import Foundation

/// A point in time, in whole seconds since 1970-01-01T00:00:00Z.
///
/// Chime fires reminders at whole seconds; keeping instants integral makes "fires at :00"
/// exact and makes instants compare and store without rounding.
public struct Instant: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var seconds: Int64

    public init(seconds: Int64) {
        self.seconds = seconds
    }

    /// The instant of a `Date`, rounded down to the second.
    public init(_ date: Date) {
        seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.seconds < rhs.seconds }

    /// 9999-12-31T23:59:59Z: the last instant RFC 3339 writes with four digits of year.
    public static let latest = Instant(seconds: 253_402_300_799)

    /// 0001-01-01T00:00:00Z, the first instant RFC 3339 can write.
    public static let earliest = Instant(seconds: -62_135_596_800)

    /// The instants RFC 3339 writes with four digits of year.
    public static let writable = earliest...latest

    public static func + (lhs: Instant, rhs: Int64) -> Instant { Instant(seconds: lhs.seconds + rhs) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let instant = Instant(rfc3339: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected an RFC 3339 instant such as 2026-11-21T09:00:00Z, not \"\(text)\""))
        }
        self = instant
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// RFC 3339 in UTC, e.g. `2026-11-21T08:00:00Z`.
    public var description: String { rfc3339(offset: 0) }

    /// RFC 3339 with the given UTC offset in seconds, e.g. `2026-11-24T09:00:00+01:00`;
    /// in UTC when RFC 3339 cannot write it so: an offset with seconds (a zone's local
    /// mean time before its standard time: Monrovia's −00:44:30 until 1972; cut to
    /// −00:44, the instant read back was 30 seconds off), or a local time past year 9999
    /// (9999-12-31T23:00Z in Kiritimati, +14:00, had been written "10000-01-01T13:00…").
    public func rfc3339(offset: Int) -> String {
        let offset = offset % 60 == 0 && Self.writable.contains(self + Int64(offset)) ? offset : 0
        let local = LocalDateTime(secondsSinceEpoch: seconds + Int64(offset))
        guard offset != 0 else { return local.text(suffix: UInt8(ascii: "Z")) }
        let sign = offset < 0 ? "-" : "+"
        let minutes = abs(offset) / 60
        // Not `String(format:)`, which went through Foundation: each snooze's answer wrote
        // an instant this way, 0.7% of `chime ingest`'s CPU.
        return local.description + sign + LocalDateTime.pad(minutes / 60, 2) + ":" + LocalDateTime.pad(minutes % 60, 2)
    }

    /// RFC 3339 in the UTC offset a zone has at this instant.
    public func rfc3339(in zone: TimeZone) -> String {
        rfc3339(offset: zone.secondsFromGMT(for: date))
    }

    /// Parses an RFC 3339 instant (`Z` or `±hh:mm`, optional fraction, dropped).
    public init?(rfc3339 text: String) {
        var body = Substring(text)
        var offset = 0
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            body = body.dropLast()
        } else if body.count > 6, let sign = body.dropLast(5).last, sign == "+" || sign == "-" {
            let zone = body.suffix(5)
            guard zone.dropFirst(2).first == ":", let hours = DecimalDigits.value(of: zone.prefix(2)), let minutes = DecimalDigits.value(of: zone.suffix(2)),
                  hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == "-" ? -1 : 1)
            body = body.dropLast(6)
        } else {
            return nil
        }
        if let dot = body.firstIndex(of: ".") {
            guard DecimalDigits.areAll(body[body.index(after: dot)...]) else { return nil }
            body = body[..<dot]
        }
        guard let local = LocalDateTime(parsing: String(body)), local.hasSeconds else { return nil }
        seconds = local.secondsSinceEpoch - Int64(offset)
    }
}
