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
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: TimeInterval(at.seconds))
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        guard quiet.contains(minute: minute) else { return .now }
        guard recipient.quietHoursMode == .wait else { return .digest }
        return .wait(until: Self.next(minute: quiet.end, after: date, calendar: calendar))
    }

    /// The first instant after `date` whose wall clock reads `minute` (after midnight),
    /// as the zone's rules have it (a time skipped by DST becomes the next that exists).
    static func next(minute: Int, after date: Date, calendar: Calendar) -> Instant {
        let found = calendar.nextDate(after: date, matching: DateComponents(hour: minute / 60, minute: minute % 60, second: 0),
                                      matchingPolicy: .nextTime) ?? date.addingTimeInterval(86_400)
        return Instant(seconds: Int64(found.timeIntervalSince1970))
    }

    /// The latest instant at or before `now` whose wall clock in `zone` reads `minute`:
    /// when today's digest was due (yesterday's when that time has not come yet today).
    public static func lastSlot(minute: Int, atOrBefore now: Instant, zone: TimeZone) -> Instant {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var slot = next(minute: minute, after: Date(timeIntervalSince1970: TimeInterval(now.seconds - 2 * 86_400)), calendar: calendar)
        while true {
            let later = next(minute: minute, after: Date(timeIntervalSince1970: TimeInterval(slot.seconds)), calendar: calendar)
            guard later.seconds <= now.seconds else { return slot }
            slot = later
        }
    }
}
