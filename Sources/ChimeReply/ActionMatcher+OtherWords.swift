import ChimeCore

/// What snooze's other words ("Remind me", "Later", "Erinnere mich", "Напомни";
/// `action.snooze.also`) ask of what follows them. People write them before many things
/// that are no snooze ("Remind me 3 bananas" to a shopping list, "Przypomnij mi o 2
/// jajkach", "Remind me 2 days before"), so only a time the snooze reader reads, written
/// as a time, makes them one.
extension ActionMatcher {
    /// Whether `text`, what follows one of snooze's other words (`folded`, as folded),
    /// asks for a time: the snooze reader reads one (``namesTime``); no word after a while
    /// makes it one before something else ("2 days before", "eine Stunde vorher"); no no
    /// answers it after a question or a dash ("tomorrow? No, forget it"); and a bare number
    /// after a lead is followed by no word that is not a time's ("o 2 jajkach", "à 2
    /// reprises", "at 2 places", where "at 7 in the evening", "um 3 Uhr", "at 3 today" and
    /// "a las 3 y media" are times).
    func asksForTime(_ text: String, folded: Substring) -> Bool {
        guard namesTime(text) else { return false }
        let words = folded.split(separator: " ").prefix(8).map(String.init)
        // A while before something: "2 days before", "eine Stunde vorher" (not "at 9 before
        // the meeting", a time).
        for (index, word) in words.enumerated().dropFirst() where Self.beforeWords.contains(word) {
            let previous = words[index - 1]
            if !previous.allSatisfy(\.isNumber), isUnit(previous) || previous.first?.isNumber == true { return false }
        }
        // A question answered no after it: "tomorrow? No, forget it", "in 2 hours - no".
        if let mark = text.firstIndex(where: { "?？–—".contains($0) }) ?? text.range(of: " - ")?.lowerBound,
           let first = ReplyWords.fold(String(text[text.index(after: mark)...])).split(separator: " ").first,
           Self.refusalWords.contains(String(first)) {
            return false
        }
        let rest = ReplyWords.afterSnoozeLead(folded) ?? folded
        let parts = rest.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].allSatisfy(\.isNumber) else { return true }
        let next = String(parts[1]), tail = rest[parts[1].startIndex...]
        return next.allSatisfy(\.isNumber) || Self.hourWords.contains(next) || Self.courtesy.contains(next) || ReplyWords.clockIdiom(beginning: rest)
            || ReplyWords.foldedSnoozeLeads.contains(next) || ReplyWords.snoozeDay(beginning: tail) != nil
            || ReplyWords.partOfDayEnd(beginning: tail) != nil || namesTime("1 " + next)
    }

    /// Whether a folded word is a while's unit before which a "before" makes a while one
    /// before something ("days", "Stunde", "hours"): a number before it names a time, where
    /// it alone names none ("tomorrow" and "evening" do; so do "ساعة" and "час", an hour,
    /// which a number may still lead: "بعد 2 ساعة").
    private func isUnit(_ word: String) -> Bool {
        namesTime("1 " + word) && !namesTime(word)
    }

    /// Whether one of snooze's other words leaves a category that takes text none: no line
    /// but thanks follows its own, and its sentence (to a comma, a question or an
    /// exclamation mark) holds words of a time and thanks alone ("Remind me tomorrow at 9,
    /// thanks"; not "Later tonight I'll call you", "Remind me 4 min noodles" or "Remind me
    /// tomorrow: milk").
    func leavesNoText(_ remainder: String, rest: [String]) -> Bool {
        if let next = rest.first(where: { !ReplyWords.fold($0).isEmpty }), !Self.onlyCourtesy(Substring(ReplyWords.fold(next))) { return false }
        let sentence = ReplyWords.fold(String(remainder.prefix { !",;!?—–、！？".contains($0) }))
        // A polite ending of a word written without spaces: "リマインドお願いします".
        if Self.onlyUnspacedEndings(Substring(sentence)) { return true }
        return sentence.split(separator: " ").allSatisfy { word in
            let word = String(word)
            // A unit's word: a number before it names a time ("min", "Stunden").
            return word.contains(where: \.isNumber) || Self.timeFillers.contains(word) || Self.hourWords.contains(word)
                || Self.courtesyWhole.contains(word) || Self.leadWords.contains(word) || namesTime(word) || namesTime("1 " + word)
        }
    }

    /// Whether the words (folded) that begin `line` end its first sentence, and the next
    /// does not say no or but to them: "Later, I'm in a meeting", "Remind me later. Busy
    /// now" snooze, where a category takes no text (one that does takes them as its text);
    /// "Later? No", "Later, but not today" and "Remind me: milk" do not.
    static func endsSentence(_ words: String, in line: String) -> Bool {
        guard let end = ReplyWords.end(ofFolded: words, in: line) else { return false }
        let after = line[end...].drop { $0 == " " }
        guard let mark = after.first, ",.;!—–-".contains(mark),
              let next = ReplyWords.fold(String(after.dropFirst())).split(separator: " ").first else { return false }
        return !refusalWords.contains(String(next)) && !butWords.contains(String(next))
    }

    /// What begins a sentence that takes back part of the one before it, folded: "Later,
    /// but not today" asks for something a snooze's default may not be.
    static let butWords: Set<String> = Set(["but", "except", "unless", "mais", "sauf", "aber", "außer", "pero", "salvo", "но", "кроме", "ale", "oprócz",
                                            "لكن", "でも"].map(ReplyWords.fold))

    /// The words that may stand beside an hour's number in a time, folded: a clock's
    /// (``clockTail``), a joining word (``timeJoins``), one after the hour (``afterHour``).
    static let hourWords = clockTail.union(timeJoins).union(afterHour)

    /// The words of ``ReplyWords/foldedSnoozeLeads`` ("hasta", "las").
    static let leadWords = Set(ReplyWords.foldedSnoozeLeads.flatMap { $0.split(separator: " ").map(String.init) })

    /// Words a time's phrase holds besides its numbers, units, days and parts, folded: "on
    /// Monday", "next week", "this evening", "le matin", "am Abend", "esta noche", "в понедельник".
    static let timeFillers: Set<String> = Set(["on", "the", "this", "next", "coming", "of", "le", "la", "les", "l", "ce", "cette", "prochain",
                                               "prochaine", "am", "im", "früh", "der", "die", "das", "dem", "den", "nachste", "nachsten", "el", "los",
                                               "esta", "este", "proximo", "proxima", "que", "viene", "w", "we", "ten", "ta", "przyszly",
                                               "przyszlym", "во", "этот", "эту", "следующий", "следующей", "утром", "في", "يوم"].map(ReplyWords.fold))

    /// Words that may follow a bare hour after a lead, folded: "at 3 today", "at 3 sharp".
    static let afterHour: Set<String> = Set(["today", "sharp", "latest", "heute", "spätestens", "aujourd'hui", "hoy", "сегодня", "dzisiaj", "dziś",
                                             "اليوم"].flatMap { ReplyWords.fold($0).split(separator: " ").map(String.init) })

    /// What begins a no after a question or a dash, folded: "tomorrow? No", "- not needed".
    static let refusalWords: Set<String> = Set(["no", "nope", "not", "never", "forget", "cancel", "actually", "nein", "nicht", "non", "pas",
                                                "нет", "не", "nie", "لا"].map(ReplyWords.fold))

    /// Words that make a while one before something else, folded: "Remind me 2 days
    /// before" asks for a time Chime cannot know.
    static let beforeWords: Set<String> = Set(["before", "beforehand", "earlier", "prior", "vorher", "zuvor", "früher", "avant", "auparavant",
                                               "antes", "wcześniej", "przed", "раньше", "заранее", "قبل"].map(ReplyWords.fold))

    /// Words that may join a bare hour to the rest of its time, folded: "a las 3 y media",
    /// "3 p.m." ("3 p m").
    static let timeJoins: Set<String> = ["and", "und", "et", "y", "i", "e", "и", "p"]

    /// "Again" before one of snooze's other words written without spaces, folded:
    /// "3時間後にまたリマインドして", "30分後に再度リマインドして".
    static let againBefore = ["もう一度", "もう1度", "また", "再度", "再び"].map(ReplyWords.fold).sorted { $0.count > $1.count }
}
