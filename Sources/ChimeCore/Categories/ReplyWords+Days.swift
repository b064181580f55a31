/// The days a snooze may name instead of a time or a while: "snooze until tomorrow",
/// "Schlummern bis Montag", "Reporter à demain 15h", "来週までスヌーズ", "snooze tonight".
extension ReplyWords {
    /// A day a snooze names, as a person means it: tomorrow, this evening, next week
    /// (its Monday), or the next of a weekday (never today: "Monday" said on a Monday is
    /// a week ahead).
    public enum SnoozeDay: Sendable, Equatable {
        case tomorrow
        case tonight
        case nextWeek
        /// The weekend: its Saturday, or its Sunday when said on a Saturday ("this
        /// weekend", "am Wochenende", "ce week-end", "на выходных", "週末").
        case weekend
        /// The next week's weekend: its Saturday ("来週末", "다음 주말").
        case nextWeekend
        /// Calendar's weekday: 1 is Sunday, 2 Monday … 7 Saturday.
        case weekday(Int)
        /// A date: its month (1 to 12), its day, and its year when written (else the next
        /// time the date comes: "3 December" said on the 4th is a year ahead).
        case date(month: Int, day: Int, year: Int?)

        /// The hour it means when no time follows it: nine in the morning, as a reminder
        /// put off to another day is meant for the start of that day; six for tonight.
        public var hour: Int { self == .tonight ? 18 : 9 }
    }

    /// Each day's words, lower case as written, in the shipped languages and their
    /// neighbours. A trailing `*` marks a stem, which the rest of its word may follow:
    /// Russian and Polish decline a weekday after "until" or "on" ("до понедельника",
    /// "w poniedziałek"). Where a stem would take another word too, the forms are
    /// written out: "do piątej" is five o'clock, not Friday ("piątek", "piątku").
    static let snoozeDayWords: [(words: [String], day: SnoozeDay)] = [
        (["tomorrow", "tmrw", "tmr", "tomoz", "morgen", "demain", "mañana", "domani", "amanhã", "jutro", "jutra", "zítra", "yarın", "завтра", "завтрашнего дня",
          "明日", "あした", "あす", "明天", "내일", "غدا", "غداً", "غدًا", "بكرة", "بكره"], .tomorrow),
        (["tonight", "tonite", "this evening", "heute abend", "ce soir", "esta noche", "esta tarde", "stasera", "hoje à noite", "vanavond",
          "dziś wieczorem", "dzisiaj wieczorem", "сегодня вечером", "今夜", "今晩", "今晚", "오늘 밤", "오늘밤", "오늘 저녁",
          "الليلة", "هذا المساء", "bu akşam"], .tonight),
        (["next week", "nächste woche", "naechste woche", "nächster woche", "la semaine prochaine", "semaine prochaine",
          "la próxima semana", "próxima semana", "la semana que viene", "la prossima settimana", "prossima settimana",
          "a próxima semana", "volgende week", "przyszły tydzień", "przyszłego tygodnia", "w przyszłym tygodniu", "przyszłym tygodniu",
          "следующей недели", "следующей неделе", "следующая неделя", "на следующей неделе",
          "来週", "下周", "下星期", "下週", "다음 주", "다음주", "الأسبوع القادم", "الأسبوع المقبل", "gelecek hafta", "haftaya"], .nextWeek),
        // Not Arabic's: where it is spoken, the weekend mostly starts on a Friday. Not
        // "over the weekend" ("übers Wochenende"): through it, or in it?
        (["weekend", "the weekend", "this weekend", "on the weekend", "at the weekend", "this coming weekend",
          "wochenende", "am wochenende", "zum wochenende", "dieses wochenende", "week-end", "ce week-end", "ce weekend", "le week-end",
          "au week-end", "jusqu'au week-end", "fin de semana", "el fin de semana", "este fin de semana", "выходные", "выходных",
          "эти выходные", "этих выходных", "w weekend", "w ten weekend", "weekendu",
          "週末", "今週末", "周末", "这个周末", "這個週末", "주말", "이번 주말", "hafta sonu"], .weekend),
        // The next week's, where the language says so without doubt ("来週末", "다음 주말");
        // English's "next weekend" may be either, and is left unread.
        (["来週末", "下周末", "下週末", "다음 주말", "다음주말"], .nextWeekend),
        (["sunday", "sonntag", "dimanche", "domingo", "domenica", "zondag", "niedziel*", "воскресен*", "日曜日", "日曜", "星期日", "星期天",
          "周日", "일요일", "الأحد", "pazar"], .weekday(1)),
        (["monday", "montag", "lundi", "lunes", "lunedì", "segunda-feira", "maandag", "poniedział*", "понедельник*", "月曜日", "月曜",
          "星期一", "周一", "월요일", "الاثنين", "الإثنين", "pazartesi"], .weekday(2)),
        (["tuesday", "dienstag", "mardi", "martes", "martedì", "terça-feira", "dinsdag", "wtorek", "wtorku", "вторник*", "火曜日", "火曜",
          "星期二", "周二", "화요일", "الثلاثاء", "salı"], .weekday(3)),
        (["wednesday", "mittwoch", "mercredi", "miércoles", "mercoledì", "quarta-feira", "woensdag", "środa", "środę", "środy", "среда", "среду", "среды", "水曜日", "水曜",
          "星期三", "周三", "수요일", "الأربعاء", "çarşamba"], .weekday(4)),
        (["thursday", "donnerstag", "jeudi", "jueves", "giovedì", "quinta-feira", "donderdag", "czwartek", "czwartku", "четверг*", "木曜日", "木曜",
          "星期四", "周四", "목요일", "الخميس", "perşembe"], .weekday(5)),
        (["friday", "freitag", "vendredi", "viernes", "venerdì", "sexta-feira", "vrijdag", "piątek", "piątku", "пятниц*", "金曜日", "金曜",
          "星期五", "周五", "금요일", "الجمعة", "cuma"], .weekday(6)),
        (["saturday", "samstag", "sonnabend", "samedi", "sábado", "sabato", "zaterdag", "sobot*", "суббот*", "土曜日", "土曜",
          "星期六", "周六", "토요일", "السبت", "cumartesi"], .weekday(7)),
    ]

    /// The words before a weekday that leave it the weekday: "next Monday", "on Monday",
    /// "am Montag", "le lundi", "jusqu'au lundi", "el lunes", "w poniedziałek", "يوم الأحد"; folded, each
    /// with the space after it.
    static let weekdayArticles: [String] = ["next", "on", "this", "am", "nachsten", "nachster", "kommenden", "le", "au", "jusqu au", "el", "el proximo", "il", "w", "we",
                                            "в", "во", "يوم"].map { $0 + " " }.sorted { $0.count > $1.count }

    /// Words after a day that leave it the day: "lundi prochain", "el lunes que viene".
    static let dayFollowers: Set<String> = ["prochain", "prochaine", "proximo", "proxima", "que viene", "prossimo", "prossima", "next"]

    /// The day words, folded, by their first character, the longest first, each with
    /// whether it is a stem: a line is compared with the few that begin as it does (with
    /// all two hundred, every line of a reply took 100 µs more).
    static let foldedDays: [Character: [(words: String, stem: Bool, day: SnoozeDay)]] = Dictionary(grouping: snoozeDayWords
        .flatMap { entry in entry.words.map { word in (words: fold(word), stem: word.hasSuffix("*"), day: entry.day) } }
        .sorted { $0.words.count > $1.words.count }, by: { $0.words.first ?? " " })

    /// The day that folded text begins with, and how much of it the day takes (a
    /// weekday's article and its follower included), folded; a date too
    /// (``snoozeDate(beginning:)``); nil when it names none.
    public static func snoozeDay(beginning folded: Substring) -> (day: SnoozeDay, words: Substring)? {
        if let found = day(beginning: folded) { return (found.day, folded[..<found.end]) }
        if let date = snoozeDate(beginning: folded) { return (.date(month: date.month, day: date.day, year: date.year), folded[..<date.end]) }
        // "next Monday", "am Montag", "w poniedziałek": an article before a weekday only
        // ("this evening" and "next week" are days of their own, found above).
        if let found = shortWeekday(beginning: folded) { return (found.day, folded[..<found.end]) }
        guard let article = weekdayArticles.first(where: { folded.hasPrefix($0) }) else { return nil }
        let after = folded.dropFirst(article.count)
        guard let found = day(beginning: after) ?? shortWeekday(beginning: after), case .weekday = found.day else { return nil }
        return (found.day, folded[..<found.end])
    }

    /// English's short weekdays, as a phone or a calendar writes them, with Calendar's
    /// weekday (1 is Sunday).
    static let englishShortWeekdays: [(word: String, weekday: Int)] = [
        ("mon", 2), ("tue", 3), ("tues", 3), ("wed", 4), ("weds", 4), ("thu", 5), ("thur", 5), ("thurs", 5), ("fri", 6), ("sat", 7), ("sun", 1),
    ]

    /// A short weekday that folded text begins with ("till fri", "until mon 9am", "next
    /// tues evening"), and where it ends: only before the end, a number, "at" or a part of
    /// the day, as "mon" is French's "my" ("à mon retour") and "sun" and "wed" are words.
    static func shortWeekday(beginning text: Substring) -> (day: SnoozeDay, end: Substring.Index)? {
        guard let first = text.first, "mtwfs".contains(first),
              let found = englishShortWeekdays.first(where: { text.hasPrefix($0.word) && ended(text.dropFirst($0.word.count), after: $0.word) })
        else { return nil }
        let end = text.index(text.startIndex, offsetBy: found.word.count)
        let rest = text[end...].drop { $0 == " " }
        guard rest.isEmpty || rest.first?.isNumber == true || rest.hasPrefix("at ") || partOfDayEnd(beginning: rest) != nil else { return nil }
        return (.weekday(found.weekday), end)
    }

    /// The day that text as written begins with, and where its words end in it: the
    /// folded day found (``snoozeDay(beginning:)``), its end looked for in the text as
    /// written (``end(ofFolded:in:)``), whose colons and marks the time after it keeps; a
    /// date written in numbers too ("3.12.", ``numericDate(beginningWritten:)``), which
    /// folding would take for a time ("3 12").
    public static func snoozeDay(beginningWritten text: String) -> (day: SnoozeDay, end: String.Index)? {
        if let date = numericDate(beginningWritten: text) { return (.date(month: date.month, day: date.day, year: date.year), date.end) }
        guard let (day, words) = snoozeDay(beginning: fold(text)[...]), let end = end(ofFolded: String(words), in: text) else { return nil }
        return (day, end)
    }

    /// The day that folded text begins with and where its words end (a follower such as
    /// "prochain" included).
    private static func day(beginning text: Substring) -> (day: SnoozeDay, end: Substring.Index)? {
        guard let first = text.first,
              let found = foldedDays[first]?.first(where: { text.hasPrefix($0.words) && ended(text.dropFirst($0.words.count), after: $0) }) else { return nil }
        var end = text.index(text.startIndex, offsetBy: found.words.count)
        if found.stem { end = text[end...].firstIndex(of: " ") ?? text.endIndex }
        let rest = text[end...].drop { $0 == " " }
        if let follower = dayFollowers.first(where: { rest == $0 || rest.hasPrefix($0 + " ") }) {
            end = rest.index(rest.startIndex, offsetBy: follower.count)
        }
        return (found.day, end)
    }

    /// Whether a day's word ends where `rest` begins: at a space or the end, anywhere
    /// in a script written without spaces (or Hangul: "내일까지"), and anywhere for a stem.
    private static func ended(_ rest: Substring, after day: (words: String, stem: Bool, day: SnoozeDay)) -> Bool {
        day.stem || ended(rest, after: day.words)
    }

    /// Whether `words` end where `rest` begins: at a space or the end, or anywhere in a
    /// script written without spaces (or Hangul).
    public static func ended(_ rest: Substring, after words: String) -> Bool {
        rest.isEmpty || rest.first == " " || words.unicodeScalars.contains { $0.value >= 0x3000 || (0x1100...0x11FF).contains($0.value) }
    }
}
