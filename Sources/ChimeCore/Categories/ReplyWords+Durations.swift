/// Durations a snooze may write in words rather than with a number: "an hour", "half
/// an hour", "una hora y media", "полтора часа", Arabic's duals ("ساعتين", two hours).
/// The matcher takes a snooze followed by one as asking for a time, and the snooze
/// reader reads it as DurationText's `90m`.
extension ReplyWords {
    /// Each duration's words, lower case, and the duration as DurationText writes it, in
    /// the shipped languages. A unit's word alone only where the language writes "an
    /// hour" so ("za godzinę", "غفوة ساعة"); Russian's "час", "день" and "неделю" and
    /// Polish's days only with their lead ("на час": "в час" is one o'clock, "день
    /// рождения" a birthday), and Arabic's "يوم" (a day) not at all: it is the article
    /// before a weekday ("يوم الجمعة").
    static let spelledDurationsWritten: [(words: String, duration: String)] = [
        ("an hour", "1h"), ("one hour", "1h"), ("half an hour", "30m"), ("a half hour", "30m"), ("half hour", "30m"),
        ("an hour and a half", "90m"), ("an hour and half", "90m"), ("one and a half hours", "90m"), ("half a day", "12h"),
        ("a couple of hours", "2h"), ("a couple hours", "2h"), ("a day", "1d"), ("one day", "1d"), ("a week", "1w"), ("one week", "1w"),
        ("eine stunde", "1h"), ("einer stunde", "1h"), ("eine halbe stunde", "30m"), ("einer halben stunde", "30m"), ("halbe stunde", "30m"),
        ("anderthalb stunden", "90m"), ("eineinhalb stunden", "90m"), ("einen tag", "1d"), ("einem tag", "1d"),
        ("eine woche", "1w"), ("einer woche", "1w"),
        ("une heure", "1h"), ("une demi-heure", "30m"), ("demi-heure", "30m"), ("une heure et demie", "90m"),
        ("un jour", "1d"), ("une journée", "1d"), ("une semaine", "1w"),
        ("una hora", "1h"), ("media hora", "30m"), ("una hora y media", "90m"), ("hora y media", "90m"), ("un día", "1d"), ("una semana", "1w"),
        ("на час", "1h"), ("через час", "1h"), ("полчаса", "30m"), ("полтора часа", "90m"), ("сутки", "1d"), ("на день", "1d"), ("на неделю", "1w"), ("через неделю", "1w"),
        ("пару часов", "2h"), ("пару минут", "2m"), ("пару дней", "2d"), ("parę godzin", "2h"), ("parę minut", "2m"), ("parę dni", "2d"),
        ("godzinę", "1h"), ("pół godziny", "30m"), ("półtorej godziny", "90m"), ("na dzień", "1d"), ("na tydzień", "1w"), ("za tydzień", "1w"),
        ("ساعة", "1h"), ("نصف ساعة", "30m"), ("ساعة ونصف", "90m"), ("أسبوع", "1w"),
        ("ساعتين", "2h"), ("ساعتان", "2h"), ("دقيقتين", "2m"), ("دقيقتان", "2m"), ("يومين", "2d"), ("يومان", "2d"),
        ("أسبوعين", "2w"), ("اسبوعين", "2w"),
    ]

    /// A number of units written in words ("two hours", "zehn Minuten", "deux jours",
    /// "veinte minutos"), in the languages whose number words stand before the unit in
    /// one form: each number word with each of its language's units. Russian's and
    /// Polish's are ``caseTakingNumbersWritten``.
    static let spelledNumbersWritten: [(words: String, duration: String)] = {
        let languages: [(numbers: [(String, Int)], units: [(String, String)])] = [
            ([("two", 2), ("three", 3), ("four", 4), ("five", 5), ("six", 6), ("seven", 7), ("eight", 8), ("nine", 9), ("ten", 10),
              ("eleven", 11), ("twelve", 12), ("fifteen", 15), ("twenty", 20), ("thirty", 30), ("forty-five", 45), ("forty five", 45)],
             [("minutes", "m"), ("mins", "m"), ("hours", "h"), ("days", "d"), ("weeks", "w")]),
            ([("zwei", 2), ("drei", 3), ("vier", 4), ("fünf", 5), ("sechs", 6), ("sieben", 7), ("acht", 8), ("neun", 9), ("zehn", 10),
              ("elf", 11), ("zwölf", 12), ("fünfzehn", 15), ("zwanzig", 20), ("dreißig", 30), ("fünfundvierzig", 45)],
             [("minuten", "m"), ("stunden", "h"), ("tage", "d"), ("tagen", "d"), ("wochen", "w")]),
            ([("deux", 2), ("trois", 3), ("quatre", 4), ("cinq", 5), ("six", 6), ("sept", 7), ("huit", 8), ("neuf", 9), ("dix", 10),
              ("onze", 11), ("douze", 12), ("quinze", 15), ("vingt", 20), ("trente", 30), ("quarante-cinq", 45)],
             [("minutes", "m"), ("heures", "h"), ("jours", "d"), ("semaines", "w")]),
            ([("dos", 2), ("tres", 3), ("cuatro", 4), ("cinco", 5), ("seis", 6), ("siete", 7), ("ocho", 8), ("nueve", 9), ("diez", 10),
              ("once", 11), ("doce", 12), ("quince", 15), ("veinte", 20), ("treinta", 30), ("cuarenta y cinco", 45)],
             [("minutos", "m"), ("horas", "h"), ("días", "d"), ("semanas", "w")]),
        ]
        return languages.flatMap { eachNumber($0.numbers, withEach: $0.units) }
    }()

    /// A number of units written in words in Russian and Polish, whose unit takes the
    /// number's case: two to four take one form ("два часа", "три минуты", "dwie godziny",
    /// "trzy minuty"), five and more another ("пять часов", "десять минут", "pięć godzin",
    /// "piętnaście minut"). Two is written in either gender whatever the unit (people
    /// slip). "в два часа" is two o'clock, no while: after a lead that asks for a time of
    /// day, the snooze reader reads no while in words (nor, yet, an hour in words: "Отложить
    /// в два часа" gets the default snooze, as "Reporter à deux heures" does).
    static let caseTakingNumbersWritten: [(words: String, duration: String)] = {
        typealias Language = (few: [(String, Int)], many: [(String, Int)], units: [(few: String, many: String, letter: String)])
        let languages: [Language] = [
            ([("два", 2), ("две", 2), ("три", 3), ("четыре", 4)],
             [("пять", 5), ("шесть", 6), ("семь", 7), ("восемь", 8), ("девять", 9), ("десять", 10), ("одиннадцать", 11), ("двенадцать", 12),
              ("пятнадцать", 15), ("двадцать", 20), ("двадцать пять", 25), ("тридцать", 30), ("сорок", 40), ("сорок пять", 45)],
             [("минуты", "минут", "m"), ("часа", "часов", "h"), ("дня", "дней", "d"), ("недели", "недель", "w")]),
            ([("dwie", 2), ("dwa", 2), ("trzy", 3), ("cztery", 4)],
             [("pięć", 5), ("sześć", 6), ("siedem", 7), ("osiem", 8), ("dziewięć", 9), ("dziesięć", 10), ("jedenaście", 11), ("dwanaście", 12),
              ("piętnaście", 15), ("dwadzieścia", 20), ("dwadzieścia pięć", 25), ("trzydzieści", 30), ("czterdzieści", 40), ("czterdzieści pięć", 45)],
             [("minuty", "minut", "m"), ("godziny", "godzin", "h"), ("dni", "dni", "d"), ("tygodnie", "tygodni", "w")]),
        ]
        return languages.flatMap { language in
            eachNumber(language.few, withEach: language.units.map { ($0.few, $0.letter) })
                + eachNumber(language.many, withEach: language.units.map { ($0.many, $0.letter) })
        }
    }()

    /// Each number word before each unit's word ("two hours", "пять минут"), with the
    /// duration they make as DurationText writes it ("2h", "5m").
    private static func eachNumber(_ numbers: [(String, Int)], withEach units: [(String, String)]) -> [(words: String, duration: String)] {
        numbers.flatMap { number, value in units.map { unit, letter in ("\(number) \(unit)", "\(value)\(letter)") } }
    }

    /// ``spelledDurationsWritten``, ``spelledNumbersWritten`` and
    /// ``caseTakingNumbersWritten`` folded ("une demi-heure"
    /// as "une demi heure", "godzinę" as "godzine"), by their first word, the longest
    /// first: "an hour and a half" before "an hour". Looked up by the text's first word,
    /// not each compared in turn: a reply's every snooze word asks. Longest in UTF-8 bytes,
    /// which a string knows, where counting its characters reads it through: of two that
    /// both begin a text, one begins the other, and is the longer either way. (Sorted by
    /// characters, the table took 3 of an MTA pipe's 70 ms.)
    static let spelledDurations: [String: [(words: String, duration: String)]] = Dictionary(
        grouping: (spelledDurationsWritten + spelledNumbersWritten + caseTakingNumbersWritten).map { (words: fold($0.words), duration: $0.duration) }.sorted { $0.words.utf8.count > $1.words.utf8.count },
        by: { String($0.words.prefix { $0 != " " }) })

    /// The duration that folded text begins with, written in words, and those words
    /// (folded); nil when it begins with none.
    public static func spelledDuration(beginning folded: Substring) -> (words: String, duration: String)? {
        spelledDurations[String(folded.prefix { $0 != " " })]?.first { folded.hasPrefix($0.words) && ended(folded.dropFirst($0.words.count), after: $0.words) }
    }

    /// "Until" written after what it leads, as Japanese and Korean write it: "15時まで",
    /// "定時まで", "내일까지".
    public static let untilAfter = ["まで", "까지"]

    /// The halves that may follow a number's unit, lower case: "1 hora y media", "2 hours
    /// and a half", "2 часа с половиной".
    public static let halves = ["and a half", "and half", "y media", "y medio", "et demie", "et demi", "e mezza", "e mezzo",
                                "und eine halbe", "с половиной", "i pół", "i pol", "ونصف", "و نصف"]
}
