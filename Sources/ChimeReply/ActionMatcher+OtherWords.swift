import ChimeCore

/// What snooze's other words ("Remind me", "Later", "Erinnere mich", "Напомни";
/// `action.snooze.also`) ask of what follows them. People write them before many things
/// that are no snooze ("Remind me 3 bananas" to a shopping list, "Przypomnij mi o 2
/// jajkach", "Remind me 2 days before"), so only a time the snooze reader reads, written
/// as a time, makes them one.
extension ActionMatcher {
    /// Whether `text`, what follows one of snooze's other words (`folded`, as folded),
    /// asks for a time: the snooze reader reads one (``namesTime``); no word makes it a
    /// while before something else ("2 days before", "eine Stunde vorher"); a question is
    /// not answered after it ("tomorrow? No, forget it"); and a bare number after a lead is
    /// followed by no word that is not a time's ("o 2 jajkach", "à 2 reprises", "at 2
    /// places", where "at 7 in the evening", "um 3 Uhr" and "a las 3 y media" are times).
    func asksForTime(_ text: String, folded: Substring) -> Bool {
        guard namesTime(text), !folded.split(separator: " ").prefix(8).contains(where: { Self.beforeWords.contains(String($0)) })
        else { return false }
        if let mark = text.firstIndex(where: { "?？".contains($0) }) ?? text.range(of: " - ")?.lowerBound ?? text.firstIndex(where: { "–—".contains($0) }),
           !Self.onlyCourtesy(Substring(ReplyWords.fold(String(text[text.index(after: mark)...])))) {
            return false
        }
        var rest = folded
        if let lead = ReplyWords.foldedSnoozeLeads.first(where: { folded.hasPrefix($0 + " ") }) { rest = folded.dropFirst(lead.count + 1) }
        let parts = rest.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].allSatisfy(\.isNumber) else { return true }
        let next = String(parts[1]), tail = rest[parts[1].startIndex...]
        return next.allSatisfy(\.isNumber) || Self.clockTail.contains(next) || Self.courtesy.contains(next) || Self.timeJoins.contains(next)
            || ReplyWords.foldedSnoozeLeads.contains(next) || ReplyWords.snoozeDay(beginning: tail) != nil
            || ReplyWords.partOfDayEnd(beginning: tail) != nil || namesTime("1 " + next)
    }

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
