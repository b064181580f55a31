import ChimeCore
import Foundation

/// An hour of the clock from 1 to 5 written bare, one digit without am, pm or a clock's
/// word ("until 3", "at 3:30", "a las 3 y media", "до 3"): the afternoon's, 15:00, unless
/// the night's is still ahead today or comes within ``nightWindow`` ("until 5:30" at 0:30
/// or 5:00, "until 1" at 23:30). One written "03:00", "3h", "3 Uhr", "3 heures" or "3時"
/// stays as written, and so does one beside a part of the day ("3 in the morning") or
/// before a word of the night's small hours ("3 de la madrugada").
extension SnoozeText {
    /// How a bare hour is read where it is found.
    enum BareHour {
        /// As written: beside a part of the day, or before a word of ``nightWords``.
        case asWritten
        /// The afternoon's: after a day ("tomorrow at 3").
        case afternoon
        /// The afternoon's unless the night's is still ahead today or comes within
        /// ``nightWindow``: with no day ("until 3").
        case afternoonUnlessSoon
    }

    /// How soon after midnight the night's hour may come for a bare hour to be it: "until 1"
    /// at 23:30 is the night's, "until 3" at 22:00 the afternoon's.
    static let nightWindow: Int64 = 3 * 3600

    /// Words of the night's small hours that a bare hour may come before, where Chime
    /// reads no part of the day ("in der Früh" is not "früh" right after the time): "3 de
    /// la madrugada", "4 early morning", "5 at dawn", "3 in der Früh", "4 du mat", "5 à
    /// l'aube", "4 nad ranem", "4 на рассвете", "3 فجرا"; folded.
    static let nightWords: Set<String> = Set(["madrugada", "early", "dawn", "sunrise", "overnight", "früh", "frühe", "mat", "aube", "l'aube",
                                              "ranem", "świcie", "рассвете", "فجرا", "فجرًا", "الفجر", "夜明け", "未明"].map(ReplyWords.fold))

    /// How a bare hour among the first words of `text` is read: as written when a word of
    /// ``nightWords`` follows it before a sentence's end, or right after a comma, small
    /// words before it passed over ("until 3 de la madrugada", "at 4, early morning", "hasta
    /// las 4, de la madrugada"; not "until 5, I'm up early", "until 4. Early start", "at 5
    /// (early dinner)"), else as `otherwise` says. `leading`: the first words of `text`
    /// (``leadingWords(_:)``), `count` of which name the time; looked for only when one of
    /// those is a bare hour. Only the first six words are looked at.
    static func bareReading(_ text: Substring, leading: [Substring], timeWords count: Int, otherwise: BareHour) -> BareHour {
        guard otherwise != .asWritten, leading.prefix(count).contains(where: isBare) else { return otherwise }
        var afterComma = false
        for (index, word) in text.split(whereSeparator: \.isWhitespace).prefix(6).enumerated() {
            if index >= count {
                if word.first.map(asides.contains) == true { break }
                let folded = ReplyWords.fold(String(word))
                if nightWords.contains(folded) { return .asWritten }
                if afterComma, !nightSmallWords.contains(folded) { break }
            }
            if index >= count - 1, let last = word.last, endsSentence(String(word)) {
                guard commas.contains(last) else { break }
                afterComma = true
            }
        }
        return otherwise
    }

    /// Small words that may come before a word of the night after a comma ("de la
    /// madrugada", "à l'aube", "in the early morning", "на рассвете"), folded.
    static let nightSmallWords: Set<String> = Set(["at", "in", "the", "de", "la", "del", "à", "a", "du", "le", "der", "in der", "am", "o", "nad",
                                                   "na", "на", "в", "po"].map(ReplyWords.fold))

    /// Whether `time` is a bare hour from 1 to 5, with its minutes perhaps: "3", "3:30",
    /// "3.30", "3 30".
    static func isBare(_ time: Substring) -> Bool {
        let utf8 = time.utf8
        guard let first = utf8.first, (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(first) else { return false }
        if utf8.count == 1 { return true }
        guard utf8.count == 4 else { return false }
        let separator = utf8[utf8.index(after: utf8.startIndex)]
        return (separator == UInt8(ascii: ":") || separator == UInt8(ascii: ".") || separator == UInt8(ascii: " "))
            && utf8.dropFirst(2).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The hour of the clock that `hour` at `minute` names: as written unless it is written
    /// bare (`isBare`, ``isBare(_:)``), else read as `bare` says, from `now` in `zone`.
    static func readHour(_ hour: Int, minute: Int, isBare: Bool, _ bare: BareHour, now: Instant, zone: TimeZone) -> Int {
        guard isBare else { return hour }
        switch bare {
        case .asWritten: return hour
        case .afternoon: return hour + 12
        case .afternoonUnlessSoon:
            guard let night = untilNext(hour: hour, minute: minute, now: now, zone: zone) else { return hour + 12 }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            // In the small hours already ("until 5:30" at 0:30), or soon after midnight.
            let today = calendar.isDate(now.date.addingTimeInterval(TimeInterval(night)), inSameDayAs: now.date)
            return today || night <= nightWindow ? hour : hour + 12
        }
    }
}
