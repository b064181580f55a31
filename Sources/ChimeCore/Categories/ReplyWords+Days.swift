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
        /// Calendar's weekday: 1 is Sunday, 2 Monday … 7 Saturday.
        case weekday(Int)

        /// The hour it means when no time follows it: nine in the morning, as a reminder
        /// put off to another day is meant for the start of that day; six for tonight.
        public var hour: Int { self == .tonight ? 18 : 9 }
    }

    /// A part of the day a snooze names, its raw value the hour it names alone.
    public enum PartOfDay: Int, Sendable {
        /// Midnight is the end of its day: "ce soir à minuit" is the night's 0:00.
        case midnight = 0, morning = 9, noon = 12, afternoon = 14, evening = 18, night = 21

        /// The hour of the clock that `hour` (0–23) means written in this part: after noon
        /// in the afternoon and evening ("7 in the evening" is 19:00, "4 вечера" 16:00); in
        /// the night too, but for its small hours and midnight ("11 at night" is 23:00, "2
        /// at night" 2:00, "12 at night" 0:00); at noon, its first hours after it ("Mittag um
        /// 1", "昼1時" are 13:00); as written in the morning.
        public func clockHour(_ hour: Int) -> Int {
            switch self {
            case .afternoon, .evening: hour < 12 ? hour + 12 : hour
            case .night: hour == 12 ? 0 : (5..<12).contains(hour) ? hour + 12 : hour
            case .noon: (1..<6).contains(hour) ? hour + 12 : hour
            case .morning, .midnight: hour
            }
        }
    }

    /// Each day's words, lower case as written, in the shipped languages and their
    /// neighbours. A trailing `*` marks a stem, which the rest of its word may follow:
    /// Russian and Polish decline a weekday after "until" or "on" ("до понедельника",
    /// "w poniedziałek"). Where a stem would take another word too, the forms are
    /// written out: "do piątej" is five o'clock, not Friday ("piątek", "piątku").
    static let snoozeDayWords: [(words: [String], day: SnoozeDay)] = [
        (["tomorrow", "tmrw", "morgen", "demain", "mañana", "domani", "amanhã", "jutro", "jutra", "zítra", "yarın", "завтра", "завтрашнего дня",
          "明日", "あした", "あす", "明天", "내일", "غدا", "غداً", "غدًا", "بكرة", "بكره"], .tomorrow),
        (["tonight", "this evening", "heute abend", "ce soir", "esta noche", "esta tarde", "stasera", "hoje à noite", "vanavond",
          "dziś wieczorem", "dzisiaj wieczorem", "сегодня вечером", "今夜", "今晩", "今晚", "오늘 밤", "오늘밤", "오늘 저녁",
          "الليلة", "هذا المساء", "bu akşam"], .tonight),
        (["next week", "nächste woche", "naechste woche", "nächster woche", "la semaine prochaine", "semaine prochaine",
          "la próxima semana", "próxima semana", "la semana que viene", "la prossima settimana", "prossima settimana",
          "a próxima semana", "volgende week", "przyszły tydzień", "przyszłego tygodnia", "w przyszłym tygodniu", "przyszłym tygodniu",
          "следующей недели", "следующей неделе", "следующая неделя", "на следующей неделе",
          "来週", "下周", "下星期", "下週", "다음 주", "다음주", "الأسبوع القادم", "الأسبوع المقبل", "gelecek hafta", "haftaya"], .nextWeek),
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
    /// "am Montag", "le lundi", "el lunes", "w poniedziałek", "يوم الأحد"; folded, each
    /// with the space after it.
    static let weekdayArticles: [String] = ["next", "on", "this", "am", "nachsten", "nachster", "kommenden", "le", "el", "el proximo", "il", "w", "we",
                                            "в", "во", "يوم"].map { $0 + " " }.sorted { $0.count > $1.count }

    /// Words after a day that leave it the day: "lundi prochain", "el lunes que viene".
    static let dayFollowers: Set<String> = ["prochain", "prochaine", "proximo", "proxima", "que viene", "prossimo", "prossima", "next"]

    /// The parts of a day that may come with a day's name, before or after its time
    /// ("tomorrow morning", "tomorrow evening at 7", "demain soir", "明日の午後3時",
    /// "завтра в 8 вечера"), or without a day ("until noon", "at 7 in the evening"), each
    /// with its hour: alone, the time it names; with a time, see ``PartOfDay/clockHour(_:)``.
    /// Lower case as written (genitives and articles too: "до полудня", "do wieczora",
    /// "la tarde", "المساء"), the longest first.
    public static let partsOfDay: [(words: String, part: PartOfDay)] = ([
        (["morning", "in the morning", "früh", "frueh", "morgens", "vormittag", "vormittags", "matin", "du matin", "le matin",
          "por la mañana", "por la manana", "de la mañana", "de la manana", "la mañana", "la manana", "mattina", "di mattina", "de manhã", "de manha",
          "ochtend", "rano", "rana", "утром", "утра", "朝", "午前", "早上", "上午", "아침", "오전", "صباحا", "صباحًا", "الصباح"], .morning),
        (["midnight", "at midnight", "minuit", "mitternacht", "medianoche", "mezzanotte", "meia-noite", "północ", "o północy", "полночь",
          "полуночи", "真夜中", "午夜", "子夜", "자정", "منتصف الليل"], .midnight),
        (["noon", "at noon", "midday", "midi", "mittag", "mittags", "mediodía", "mediodia", "mezzogiorno", "meio-dia", "południe", "południa",
          "w południe", "полдень", "полудня", "昼", "正午", "中午", "정오", "ظهرا", "الظهر"], .noon),
        (["afternoon", "in the afternoon", "nachmittag", "nachmittags", "après-midi", "apres-midi", "de l'après-midi", "l'après-midi", "l’après-midi", "por la tarde",
          "de la tarde", "la tarde", "tarde", "pomeriggio", "del pomeriggio", "à tarde", "a tarde", "da tarde", "middag", "po południu", "днём", "днем", "дня",
          "午後", "下午", "오후", "بعد الظهر"], .afternoon),
        (["evening", "in the evening", "abend", "abends", "am abend", "soir", "du soir", "le soir", "por la noche",
          "sera", "di sera", "à noite", "a noite", "avond", "'s avonds", "wieczorem", "wieczór", "wieczora", "вечером", "вечера",
          "夕方", "저녁", "مساء", "مساءً", "المساء"], .evening),
        (["night", "at night", "in the night", "nacht", "nachts", "in der nacht", "nuit", "de la nuit", "la nuit", "de la noche", "la noche", "noche",
          "notte", "di notte", "da noite", "'s nachts", "w nocy", "nocy", "ночью", "ночи", "夜", "晚上", "밤", "ليلا", "ليلًا", "الليل"], .night),
    ] as [([String], PartOfDay)]).flatMap { words, part in words.map { (words: $0, part: part) } }.sorted { $0.words.count > $1.words.count }

    /// An article before a part of the day that leaves it that part: "until the evening",
    /// "bis zum Abend", "jusqu'au soir", "hasta el mediodía".
    public static let partOfDayArticles: Set<String> = ["the", "la", "el", "le", "l'", "l’", "au", "jusqu'au", "jusqu’au", "zum", "zur",
                                                        "der", "dem", "al", "il"]

    /// "This" before a part of the day: today's, not the next ("this afternoon", "cet
    /// après-midi"; "this evening" is a day of its own, tonight).
    public static let partOfDayThis: Set<String> = ["this", "este", "esta", "ce", "cet", "cette", "questa", "questo", "dieser", "diesen", "heute"]

    /// ``partsOfDay``' words, folded, by their first character (as ``foldedDays``).
    static let foldedPartsOfDay = Dictionary(grouping: Set(partsOfDay.map { fold($0.words) }), by: { $0.first ?? " " })
    /// ``partOfDayArticles`` and ``partOfDayThis``, folded ("jusqu'au" as "jusqu au"), each
    /// with the space after it.
    static let foldedPartOfDayArticles = Set(partOfDayArticles.union(partOfDayThis).map { fold($0) + " " })

    /// The day words, folded, by their first character, the longest first, each with
    /// whether it is a stem: a line is compared with the few that begin as it does (with
    /// all two hundred, every line of a reply took 100 µs more).
    static let foldedDays: [Character: [(words: String, stem: Bool, day: SnoozeDay)]] = Dictionary(grouping: snoozeDayWords
        .flatMap { entry in entry.words.map { word in (words: fold(word), stem: word.hasSuffix("*"), day: entry.day) } }
        .sorted { $0.words.count > $1.words.count }, by: { $0.words.first ?? " " })

    /// The day that folded text begins with, and how much of it the day takes (a
    /// weekday's article and its follower included), folded; nil when it names none.
    public static func snoozeDay(beginning folded: Substring) -> (day: SnoozeDay, words: Substring)? {
        if let found = day(beginning: folded) { return (found.day, folded[..<found.end]) }
        // "next Monday", "am Montag", "w poniedziałek": an article before a weekday only
        // ("this evening" and "next week" are days of their own, found above).
        guard let article = weekdayArticles.first(where: { folded.hasPrefix($0) }),
              let found = day(beginning: folded.dropFirst(article.count)), case .weekday = found.day else { return nil }
        return (found.day, folded[..<found.end])
    }

    /// The day that text as written begins with, and where its words end in it: the
    /// folded day found (``snoozeDay(beginning:)``), its end looked for in the text as
    /// written (``end(ofFolded:in:)``), whose colons and marks the time after it keeps.
    public static func snoozeDay(beginningWritten text: String) -> (day: SnoozeDay, end: String.Index)? {
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
    private static func ended(_ rest: Substring, after words: String) -> Bool {
        rest.isEmpty || rest.first == " " || words.unicodeScalars.contains { $0.value >= 0x3000 || (0x1100...0x11FF).contains($0.value) }
    }

    /// Where a part of the day that folded text begins with ends, an article before it
    /// taken with it ("noon", "the evening at 7", "午後3時", "오후 3시"); nil when it
    /// begins with none.
    public static func partOfDayEnd(beginning folded: Substring) -> Substring.Index? {
        var text = folded
        if let article = foldedPartOfDayArticles.first(where: { text.hasPrefix($0) }) { text = text.dropFirst(article.count) }
        guard let first = text.first, let part = foldedPartsOfDay[first]?.filter({ text.hasPrefix($0) && ended(text.dropFirst($0.count), after: $0) })
            .max(by: { $0.count < $1.count }) else { return nil }
        return text.index(text.startIndex, offsetBy: part.count)
    }
}
