/// The parts of a day a snooze may name, with a day or without one: "tomorrow evening at
/// 7", "until noon", "until end of day", "до 3 часов дня", "午後3時"; SnoozeText+PartsOfDay
/// reads them.
extension ReplyWords {
    /// A part of the day a snooze names, its raw value the hour it names alone.
    public enum PartOfDay: Int, Sendable {
        /// Midnight is the end of its day: "ce soir à minuit" is the night's 0:00. The end
        /// of the working day ("until end of day", "bis Feierabend", "до конца дня") is 17:00.
        case midnight = 0, morning = 9, noon = 12, afternoon = 14, endOfDay = 17, evening = 18, night = 21

        /// The hour of the clock that `hour` (0–23) means written in this part: after noon
        /// in the afternoon, at the day's end and in the evening ("7 in the evening" is 19:00, "4 вечера" 16:00); in
        /// the night too, but for its small hours and midnight ("11 at night" is 23:00, "2
        /// at night" 2:00, "12 at night" 0:00); at noon, its first hours after it ("Mittag um
        /// 1", "昼1時" are 13:00); as written in the morning; "12 midnight" is 0:00, as the
        /// night's 12 is.
        public func clockHour(_ hour: Int) -> Int {
            switch self {
            case .afternoon, .endOfDay, .evening: hour < 12 ? hour + 12 : hour
            case .night: hour == 12 ? 0 : (5..<12).contains(hour) ? hour + 12 : hour
            case .midnight: hour == 12 ? 0 : hour
            case .noon: (1..<6).contains(hour) ? hour + 12 : hour
            case .morning: hour
            }
        }
    }

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
          "w południe", "полдень", "полудня", "昼", "正午", "中午", "정오", "ظهرا", "الظهر",
          // Lunch is noon's ("until lunch", "до обеда"), after lunch the afternoon's. Not
          // the nouns people write as where they are ("Nicht jetzt, Mittagspause", "Не
          // сейчас, обед", "昼食中"): in German, French, Spanish, Russian and Japanese only
          // the forms a time's lead takes.
          "lunch", "lunchtime", "lunch time", "at lunch", "at lunchtime", "zum mittagessen", "zur mittagspause", "au déjeuner", "au dejeuner",
          "l'heure du déjeuner", "l'heure du dejeuner", "el almuerzo", "la hora de comer", "la hora del almuerzo", "обеда", "обеду"], .noon),
        (["afternoon", "in the afternoon", "nachmittag", "nachmittags", "après-midi", "apres-midi", "de l'après-midi", "l'après-midi", "l’après-midi", "por la tarde",
          "de la tarde", "la tarde", "tarde", "pomeriggio", "del pomeriggio", "à tarde", "a tarde", "da tarde", "middag", "po południu", "днём", "днем", "дня",
          "午後", "下午", "오후", "بعد الظهر", "after lunch", "nach dem mittagessen", "nach der mittagspause", "après le déjeuner", "après déjeuner",
          "apres le dejeuner", "apres dejeuner", "después de comer", "despues de comer", "después del almuerzo", "despues del almuerzo",
          "после обеда", "po obiedzie", "po lunchu", "昼食後", "昼休み後"], .afternoon),
        (["end of day", "end of the day", "eod", "end of business", "close of business", "cob", "feierabend", "dienstschluss", "arbeitsschluss",
          "fin de journée", "fin de la journée", "fin del día", "fin del dia", "final del día", "final del dia", "конца дня", "конца рабочего дня",
          "końca dnia", "konca dnia", "końca pracy", "終業", "終業時間", "終業時刻", "定時", "نهاية اليوم"], .endOfDay),
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
