import Foundation

/// Turns wall-clock times of a zone into instants, the way Foundation's
/// `Calendar.nextDate(…, matchingPolicy: .nextTime, repeatedTimePolicy: .first)` does:
/// a time skipped by a forward jump becomes the first instant after the gap, and a time
/// that occurs twice becomes its first occurrence.
public struct ZoneClock: Sendable {
    public let zone: TimeZone

    public init(_ zone: TimeZone) {
        self.zone = zone
    }

    /// The zone's UTC offset in seconds at an instant.
    public func offset(at seconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }

    /// The wall time of an instant, as seconds since 1970-01-01T00:00:00 local.
    public func local(_ instant: Instant) -> Int64 {
        instant.seconds + offset(at: instant.seconds)
    }

    /// The instant of a wall time (seconds since 1970-01-01T00:00:00 local).
    public func instant(local: Int64) -> Instant {
        // Offsets that can apply: those around the wall time. 36 hours on either side
        // covers every transition on record, including Samoa's skipped day in 2011.
        let window: Int64 = 36 * 3600
        let before = offset(at: local - window)
        let after = offset(at: local + window)
        let guess = offset(at: local - before)
        var best: Int64?
        for candidate in Set([before, after, guess]) where offset(at: local - candidate) == candidate {
            best = min(best ?? .max, local - candidate)
        }
        if let best { return Instant(seconds: best) }
        // In a gap: the clock jumps from a smaller offset to a larger one somewhere in
        // (local - larger, local - smaller]; the first instant with the larger offset is
        // the first instant after the gap.
        // local - larger still has the smaller offset; local - smaller the larger.
        return Instant(seconds: firstChange(after: local - max(before, after), through: local - min(before, after)))
    }

    /// The first instant in `(low, high]` whose offset is not `low`'s, found in halves:
    /// `high`'s offset must differ from `low`'s, and the zone change once between them.
    public func firstChange(after low: Int64, through high: Int64) -> Int64 {
        let early = offset(at: low)
        var (low, high) = (low, high)
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if offset(at: middle) == early { low = middle } else { high = middle }
        }
        return high
    }
}
