/// A clock's time as people say it, "half past 3", "quarter to four", "halb 4": the words
/// the matcher takes for one, and the hours and minutes spelled in them (SnoozeText+Idioms
/// reads them).
extension ReplyWords {
    /// The first words of a clock's time said as people say it, folded: "half past 3",
    /// "quarter to 4", "ten to 4", "halb 4", "viertel nach 3", "без четверти 4", "wpół do 4"
    /// (SnoozeText reads them; those that begin with the hour's number, "3 menos cuarto",
    /// need no list to be taken for a time).
    static let clockIdiomStarts: [String] = (["half past", "half after", "quarter past", "quarter after", "quarter to", "a quarter past", "a quarter after",
                                              "a quarter to", "halb", "viertel nach", "viertel vor", "dreiviertel", "без четверти", "wpol do", "kwadrans",
                                              "za kwadrans"]
        + idiomMinutes.keys.flatMap { minutes in ["past", "after", "to"].map { minutes + " " + $0 } }).map { fold($0) + " " }

    /// The hours English and German idioms may spell: "half past three", "halb vier".
    public static let idiomHours: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
        "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "funf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11,
        "zwölf": 12, "zwolf": 12,
    ]

    /// The minutes English idioms may spell: "ten to four", "twenty past 3".
    public static let idiomMinutes: [String: Int] = ["five": 5, "ten": 10, "twenty": 20, "twenty-five": 25, "twenty five": 25]

    /// Whether folded text begins with a clock's time said as people say it, its hour
    /// after its first words (``clockIdiomStarts``), in numbers or words: "half past 3",
    /// "halb vier"; or minutes in numbers past an hour: "20 after 3", "10 past 4" ("5 to
    /// 10" may be a while, and is not one).
    public static func clockIdiom(beginning folded: Substring) -> Bool {
        if let first = folded.first, first.isNumber {
            let words = folded.split(separator: " ", maxSplits: 3)
            guard words.count >= 3, let minutes = Int(words[0]), (1...59).contains(minutes), words[1] == "past" || words[1] == "after" else { return false }
            return isIdiomHour(words[2])
        }
        return clockIdiomStarts.contains { start in
            folded.hasPrefix(start) && isIdiomHour(folded.dropFirst(start.count).prefix { $0 != " " })
        }
    }

    /// Whether a folded word is an idiom's hour: in numbers, or in words ("fünf" folded
    /// is "funf", a key too).
    private static func isIdiomHour(_ word: Substring) -> Bool {
        word.first?.isNumber == true || idiomHours[String(word)] != nil
    }
}
