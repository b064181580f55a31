/// The dates a snooze may name instead of a day: "snooze until 3 December", "until Dec
/// 3rd at 2pm", "bis 3. Dezember", "jusqu'au 3 décembre", "hasta el 3 de diciembre",
/// "до 3 декабря", "12月3日まで", "2026-12-03". Read by hand from folded words: no
/// library reads a date out of a sentence in these languages.
extension ReplyWords {
    /// Each month's words, lower case as written, in the shipped languages and their
    /// neighbours; Polish and Russian as a date declines them ("3 grudnia", "3 декабря").
    /// Abbreviations that are common words are left out ("out", "set", "ago"): a month is
    /// read only beside a day's number, but "snooze, out 3 days" is no October.
    static let monthWords: [[String]] = [
        ["january", "jan", "januar", "jänner", "janvier", "janv", "enero", "ene", "gennaio", "gen", "janeiro", "januari", "stycznia", "sty", "января", "янв",
         "ocak", "يناير"],
        ["february", "feb", "februar", "février", "févr", "fév", "febrero", "febbraio", "fevereiro", "fev", "februari", "lutego", "lut", "февраля", "фев",
         "şubat", "فبراير"],
        ["march", "mar", "märz", "mrz", "mars", "marzo", "março", "maart", "mrt", "marca", "марта", "мар", "mart", "مارس"],
        ["april", "apr", "avril", "avr", "abril", "abr", "aprile", "kwietnia", "kwi", "апреля", "апр", "nisan", "أبريل", "إبريل"],
        ["may", "mai", "mayo", "maggio", "mag", "maio", "mei", "maja", "maj", "мая", "mayıs", "مايو"],
        ["june", "jun", "juni", "juin", "junio", "giugno", "giu", "junho", "czerwca", "cze", "июня", "июн", "haziran", "يونيو"],
        ["july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho", "lipca", "lip", "июля", "июл", "temmuz", "يوليو"],
        ["august", "aug", "août", "agosto", "augustus", "sierpnia", "sie", "августа", "авг", "ağustos", "أغسطس"],
        ["september", "sep", "sept", "septembre", "septiembre", "setiembre", "settembre", "setembro", "września", "wrz", "сентября", "сен", "сент", "eylül", "سبتمبر"],
        ["october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott", "outubro", "października", "paź", "октября", "окт", "ekim", "أكتوبر"],
        ["november", "nov", "novembre", "noviembre", "novembro", "listopada", "lis", "ноября", "ноя", "kasım", "نوفمبر"],
        ["december", "dec", "dezember", "dez", "décembre", "déc", "diciembre", "dic", "dicembre", "dezembro", "grudnia", "gru", "декабря", "дек", "aralık", "ديسمبر"],
    ]

    /// The month words folded, each with its month (1 to 12).
    static let foldedMonths: [String: Int] = Dictionary(monthWords.enumerated().flatMap { index, words in words.map { (fold($0), index + 1) } },
                                                        uniquingKeysWith: { first, _ in first })

    /// Words before a date that leave it the date: "on the 3rd of December", "le 3
    /// décembre", "am 3. Dezember", "jusqu'au 3 décembre", "el 3 de diciembre"; folded, each
    /// with the space after it, the longest first.
    static let dateArticles: [String] = ["on the", "on", "the", "am", "den", "zum", "le", "au", "jusqu au", "el", "el dia", "al", "il", "op", "w", "в"]
        .map { $0 + " " }.sorted { $0.count > $1.count }

    /// A calendar's short weekdays, English and German, folded, each with the space after
    /// it: taken before a date, which says the day. Alone, the English ones are days
    /// before a time only (``ReplyWords/shortWeekday(beginning:)``).
    static let shortWeekdays: [String] = (englishShortWeekdays.map(\.word) + ["mo", "di", "mi", "do", "fr", "sa", "so"])
        .map { $0 + " " }.sorted { $0.count > $1.count }

    /// Month words that are common words or names too ("may", "mar", "jan", "dec", "mai",
    /// "mayo", "ekim", Polish "sie"), folded: ``dateStands(_:before:)`` asks what follows them.
    static let commonWordMonths: Set<Substring> = ["may", "mayo", "mai", "mag", "mar", "mart", "jan", "gen", "ene", "dec", "dez", "nov", "ott",
                                                   "ekim", "maja", "mei", "sie", "lis", "lip"]

    /// Whether a date written as `written` (the words ``snoozeDate(beginning:)`` took) is
    /// one, `following` being what comes after it: no punctuation inside it but a point
    /// after a number or an abbreviation ("3. Dezember", "Dec. 3"), a comma before its year
    /// or after a weekday before it ("Dec 3, 2026", "Thu, Dec 3") and a hyphen inside a word
    /// ("2026-12-03", "3-го"): "until 3, may be later" and "2 - jan will call" hold none; and
    /// a month that is a common word too, after its number, followed by nothing, a break
    /// ("3 dec (conference)"), a number, a lead such as "at" or `followedWell` (thanks, a
    /// part of the day): "2 may be later" and "Monday 9 may be busy" hold none either.
    public static func dateStands(_ written: Substring, before following: Substring, followedWell: (Substring) -> Bool) -> Bool {
        var previous: Character = " "
        for (offset, character) in written.enumerated() {
            defer { previous = character }
            if character.isLetter || character.isNumber || character.isWhitespace || "'’º".contains(character) { continue }
            let next = written.dropFirst(offset + 1).first
            switch character {
            case ".": if previous.isWhitespace { return false }
            case "-": if previous.isWhitespace || next?.isWhitespace != false { return false }
            // Before its year, or after a weekday before it ("Thu, Dec 3", "Mo., 7. Dez.").
            case ",": if written.dropFirst(offset + 1).drop(while: \.isWhitespace).prefix(while: \.isNumber).count != 4,
                         written.prefix(offset).contains(where: \.isNumber) { return false }
            default: return false
            }
        }
        // The month after the number only ("Dec 3 (conference)" is December's).
        let words = fold(String(written)).split(separator: " ")
        guard let month = words.firstIndex(where: commonWordMonths.contains), words[..<month].contains(where: { $0.first?.isNumber == true }) else { return true }
        // After a break, another sentence or an aside: "3 dec (conference)", "2 may - back then".
        if let broken = following.first(where: { !$0.isWhitespace }), "(-–—.;!".contains(broken) { return true }
        let rest = following.drop { $0.isWhitespace || $0 == "," }
        let folded = fold(String(rest))[...]
        return folded.isEmpty || folded.first?.isNumber == true || afterSnoozeLead(folded) != nil || followedWell(rest)
    }

    /// What may follow a day's number, joined to it, as its ordinal's ending: "3rd",
    /// "1er", "3e", "3ème", "3º", "1ª"; folded.
    static let ordinalEndings: Set<Substring> = ["st", "nd", "rd", "th", "er", "e", "eme", "o", "a"]

    /// An ordinal's ending as a word of its own once folded: "3-го декабря", "3-go grudnia".
    static let ordinalWords: Set<Substring> = ["go", "го"]

    /// The words a date's day and its month may be joined by: "3rd of December", "3 de
    /// diciembre"; folded.
    static let dateJoins: Set<Substring> = ["of", "de"]

    /// The words after a date's year that leave it the year: "2026 года", "2026 r.", "2026年".
    static let yearWords: Set<Substring> = ["года", "г", "roku", "r"]

    /// A date that folded text begins with, an article before it taken (``dateArticles``):
    /// its month, its day, its year when written, and where its words end. Nil when it
    /// begins with none, or with a day past its month's 31.
    static func snoozeDate(beginning text: Substring) -> FoundDate? {
        var words = text
        if let article = dateArticles.first(where: { text.hasPrefix($0) }) { words = text.dropFirst(article.count) }
        // A calendar's short weekday before it, "Thu 3 Dec", "Mo 7. Dez." (alone, "mon"
        // could be French's "my").
        if let weekday = shortWeekdays.first(where: { words.hasPrefix($0) }), let date = snoozeDate(beginning: words.dropFirst(weekday.count)) {
            return date
        }
        guard let first = words.first, let found = first.isNumber ? numbersFirst(words) : monthFirst(words),
              (1...31).contains(found.day) else { return nil }
        return found
    }

    /// A date written in numbers, day first, as German, Polish and Russian write it: "3.12.",
    /// "03.12.2026"; its last point or a year is needed ("until 3.12" may be 3:12).
    nonisolated(unsafe) static let numericDatePattern = /(\d{1,2})\.(\d{1,2})\.(\d{4})?(?![\d.])/

    /// A date written in numbers that lower-case text begins with, an article before it
    /// taken ("am 3.12.", "do 3.12."): its month, day, year when written, and where it ends;
    /// nil for other text.
    static func numericDate(beginningWritten text: String) -> (month: Int, day: Int, year: Int?, end: String.Index)? {
        guard text.contains(".") else { return nil }
        var rest = text[...]
        if let article = dateArticles.first(where: { rest.hasPrefix($0) }) { rest = rest.dropFirst(article.count) }
        guard rest.first?.isNumber == true, let match = rest.prefixMatch(of: numericDatePattern),
              let day = Int(match.output.1), let month = Int(match.output.2), (1...31).contains(day), (1...12).contains(month) else { return nil }
        let year = match.output.3.flatMap { Int($0) }
        return (month, day, year, match.range.upperBound)
    }

    /// A date found at the start of folded text: its month (1 to 12), its day, its year
    /// when written, and where its words end.
    typealias FoundDate = (month: Int, day: Int, year: Int?, end: Substring.Index)

    /// The years a date may name: from 2000 ("1930" after a date is a time) to 2099.
    static let writtenYears = 2000...2099

    /// A folded text's words, one at a time.
    private struct Words {
        var rest: Substring

        /// The next word, taken.
        mutating func next() -> Substring? {
            guard !rest.isEmpty else { return nil }
            let word = rest.prefix { $0 != " " }
            rest = rest.dropFirst(word.count).drop { $0 == " " }
            return word
        }

        /// The next word, taken when `accept` takes it.
        mutating func next(if accept: (Substring) -> Bool) -> Substring? {
            var copy = self
            guard let word = copy.next(), accept(word) else { return nil }
            self = copy
            return word
        }
    }

    /// A date that begins with a number: "3 December", "3rd of December", "3. Dezember",
    /// "3 de diciembre de 2026", "3-го декабря", "2026-12-03", "12月3日", "12월 3일".
    private static func numbersFirst(_ text: Substring) -> FoundDate? {
        if let written = unspacedDate(text) { return written }
        var words = Words(rest: text)
        guard let number = words.next() else { return nil }
        // "2026-12-03", the year first (folded, its dashes are spaces).
        if number.count == 4, let year = Self.year(number) {
            let twoDigits = { (word: Substring) in word.count <= 2 && word.allSatisfy(\.isNumber) }
            guard let month = words.next(if: twoDigits).flatMap({ Int($0) }), (1...12).contains(month),
                  let day = words.next(if: twoDigits).flatMap({ Int($0) }) else { return nil }
            return (month, day, year, end(before: words.rest, in: text))
        }
        guard let day = dayNumber(number) else { return nil }
        _ = words.next { ordinalWords.contains($0) }
        _ = words.next { dateJoins.contains($0) }
        guard let month = words.next().flatMap({ foldedMonths[String($0)] }) else { return nil }
        return (month, day, Self.year(after: &words), end(before: words.rest, in: text))
    }

    /// A date that begins with its month: "December 3", "Dec 3rd, 2026", "December the 3rd".
    private static func monthFirst(_ text: Substring) -> FoundDate? {
        var words = Words(rest: text)
        guard let month = words.next().flatMap({ foldedMonths[String($0)] }) else { return nil }
        _ = words.next { $0 == "the" }
        guard let day = words.next().flatMap(dayNumber) else { return nil }
        return (month, day, year(after: &words), end(before: words.rest, in: text))
    }

    /// A day's number, with its ordinal's ending joined to it or not: "3", "03", "3rd", "1er".
    private static func dayNumber(_ word: Substring) -> Int? {
        let digits = word.prefix(while: \.isNumber)
        guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCII) else { return nil }
        let ending = word.dropFirst(digits.count)
        return ending.isEmpty || ordinalEndings.contains(ending) ? Int(digits) : nil
    }

    /// A year as a date writes it, 2000 to 2099, for the reader to refuse those not near
    /// ("1 Jan 2019" is no next 1 January); nil for another number ("1930" is a time).
    private static func year(_ word: Substring) -> Int? {
        guard word.count == 4, word.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(word), writtenYears.contains(year) else { return nil }
        return year
    }

    /// The year after a date's day and month, taken with its "de" before it ("de 2026") and
    /// its word after it ("2026 года"); nil when none follows.
    private static func year(after words: inout Words) -> Int? {
        var copy = words
        _ = copy.next { $0 == "de" }
        guard let found = copy.next().flatMap(Self.year) else { return nil }
        _ = copy.next { yearWords.contains($0) }
        words = copy
        return found
    }

    /// Where a date's words end in `text`, `rest` being what follows them: at the end of
    /// the last word taken, not after the spaces that follow it.
    private static func end(before rest: Substring, in text: Substring) -> Substring.Index {
        var end = rest.startIndex
        while end > text.startIndex, text[text.index(before: end)] == " " { end = text.index(before: end) }
        return end
    }

    /// A date as Japanese, Chinese and Korean write it, the year perhaps first: "12月3日",
    /// "2026年12月3日", "12月3号", "12월 3일"; nil for other text.
    private static func unspacedDate(_ text: Substring) -> FoundDate? {
        var rest = text
        /// The number at the start of `rest` and the one of `marks` after it, taken.
        func number(before marks: Set<Character>) -> Int? {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
            let after = rest.dropFirst(digits.count).drop { $0 == " " }
            guard (1...4).contains(digits.count), let mark = after.first, marks.contains(mark) else { return nil }
            rest = after.dropFirst().drop { $0 == " " }
            return Int(digits)
        }
        let year = number(before: ["年", "년"])
        if let year, !writtenYears.contains(year) { return nil }
        guard let month = number(before: ["月", "월"]), (1...12).contains(month), let day = number(before: ["日", "号", "號", "일"]) else { return nil }
        return (month, day, year, end(before: rest, in: text))
    }
}
