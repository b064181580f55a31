import ChimeCore
import ChimeReply
import Foundation

/// A snooze that names a date ("until 3 December", "bis 3.12.", "12月3日まで"): whether the
/// words that look like one are one, and the day they name; the date's words in
/// ReplyWords+Dates, the time after it read as after any day (SnoozeText+Days).
extension SnoozeText {
    /// Whether text beginning with a date ("3 December", "12月3日") begins with one that
    /// stands (``dateStands(_:before:)``): its number is then no hour, even when the date
    /// is past or no day.
    static func beginsWithDate(_ text: String) -> Bool {
        guard let (day, end) = ReplyWords.snoozeDay(beginningWritten: text), case .date = day else { return false }
        return dateStands(text[..<end], before: text[end...])
    }

    /// Whether the date written as `date` is one, `following` being what comes after it
    /// (``ReplyWords/dateStands(_:before:followedWell:)``): after a month that is a common
    /// word too, thanks or a part of the day may come too ("2 May, thanks", "May 2 in the
    /// evening").
    static func dateStands(_ date: Substring, before following: Substring) -> Bool {
        ReplyWords.dateStands(date, before: following) { rest in
            ActionMatcher.onlyCourtesy(ReplyWords.fold(String(rest))[...]) || partOfDay(in: String(rest))?.first == true
        }
    }

    /// The start of a date's day, today or after: in its year when written (at most five
    /// years on), else this year's or next; nil for a date that is past, or not in its
    /// month ("31 November").
    static func date(month: Int, day: Int, year: Int?, from today: Date, calendar: Calendar) -> Date? {
        let thisYear = calendar.component(.year, from: today)
        if let year, year > thisYear + 5 { return nil }
        for candidate in year.map({ [$0] }) ?? [thisYear, thisYear + 1] {
            // Foundation takes the 31st of November as the 1st of December.
            guard let start = calendar.date(from: DateComponents(year: candidate, month: month, day: day)),
                  calendar.component(.day, from: start) == day else { continue }
            if start >= today { return start }
        }
        return nil
    }
}
