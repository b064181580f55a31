import Foundation

/// Where a fired notification goes, by its recipient's authorization and preferences, the
/// quiet hours in the recipient's zone and the notification's interruption level.
public enum DeliveryRoute: Hashable, Sendable {
    /// Sent now, to every address.
    case now
    /// Kept for the recipient's next digest (`chime digest`).
    case digest
    /// Kept pending until this instant (quiet hours that wait rather than digest).
    case wait(until: Instant)
    /// Not sent at all: the recipient denied notifications or turned the category off.
    case suppressed
    /// Not sent: the recipient has not confirmed they want reminders (`notDetermined`);
    /// the first such notification asks them to (``OptIn``).
    case optIn

    /// The route of one notification.
    /// - Parameters:
    ///   - preference: the recipient's for the notification's category.
    ///   - at: when it fires; `zone` is the recipient's.
    ///
    /// The rules, in order: `denied` and Turn Off stop everything; nothing goes to a
    /// `notDetermined` recipient until they opt in; `critical` is sent now whatever else
    /// is quiet; `passive`, `provisional` and Deliver Quietly go to the
    /// digest; inside quiet hours the rest go to the digest or wait for the window's end
    /// (`quietHoursMode`), except `timeSensitive`, which is sent now.
    public static func of(level: NotificationContent.InterruptionLevel, recipient: Recipient,
                          preference: DeliveryPreference, at: Instant, zone: TimeZone) -> DeliveryRoute {
        if recipient.authorization == .denied || preference == .off { return .suppressed }
        if recipient.authorization == .notDetermined { return .optIn }
        if level == .critical { return .now }
        if level == .passive || recipient.authorization == .provisional || preference == .quietly { return .digest }
        guard let quiet = recipient.quietHours, level != .timeSensitive else { return .now }
        // The project's own zone arithmetic: Foundation's Calendar is far slower per call,
        // and this runs for every notification of a recipient with quiet hours.
        let clock = ZoneClock(zone)
        let minute = Int(clock.local(at).floorModulo(86_400) / 60)
        guard quiet.contains(minute: minute) else { return .now }
        guard recipient.quietHoursMode == .wait else { return .digest }
        return .wait(until: Self.windowEnd(minute: quiet.end, after: at, clock: clock))
    }

    /// When quiet hours that end at `minute` are over, seen from `instant` inside them:
    /// the wall clock's next reading of that minute, the second one of an hour a fall-back
    /// repeats included (at 01:15 of the repeated hour, a window ending at 01:30 ends 15
    /// minutes later; the first 01:30, already past, made it wait a whole day).
    static func windowEnd(minute: Int, after instant: Instant, clock: ZoneClock) -> Instant {
        let later = next(minute: minute, after: instant, clock: clock)
        let intoDay = clock.local(instant).floorModulo(86_400)
        let ahead = (Int64(minute) * 60 - intoDay).floorModulo(86_400)
        let direct = instant + ahead
        guard ahead > 0, clock.local(direct).floorModulo(86_400) == Int64(minute) * 60 else { return later }
        return direct.seconds < later.seconds ? direct : later
    }

    /// The first instant after `instant` whose wall clock reads `minute` (after midnight),
    /// as the zone's rules have it (a time skipped by DST becomes the next that exists).
    static func next(minute: Int, after instant: Instant, clock: ZoneClock) -> Instant {
        CalendarMatcher(DateComponentsPattern(hour: minute / 60, minute: minute % 60, second: 0), clock: clock).next(after: instant)
            ?? instant + 86_400
    }

    /// The latest instant at or before `now` whose wall clock in `zone` reads `minute`:
    /// when today's digest was due (yesterday's when that time has not come yet today).
    public static func lastSlot(minute: Int, atOrBefore now: Instant, zone: TimeZone) -> Instant {
        let clock = ZoneClock(zone)
        var slot = next(minute: minute, after: Instant(seconds: now.seconds - 2 * 86_400), clock: clock)
        while true {
            let later = next(minute: minute, after: slot, clock: clock)
            guard later.seconds <= now.seconds else { return slot }
            slot = later
        }
    }
}
