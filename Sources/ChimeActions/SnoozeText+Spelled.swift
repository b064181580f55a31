import ChimeCore

/// A snooze's while written in words ("an hour", "half an hour", "una hora y media",
/// "полтора часа"; the words in ``ReplyWords/spelledDurationsWritten``), read as
/// DurationText's.
extension SnoozeText {
    /// `words` with the duration written in words that they begin with ("an hour",
    /// "media hora", "полтора часа") as DurationText writes it ("1h, thanks" for "an hour,
    /// thanks"); nil when they begin with none, or with a number.
    static func spelledOut(_ words: String) -> String? {
        guard let first = words.first, !first.isNumber else { return nil }
        let folded = ReplyWords.fold(words)
        guard let spelled = ReplyWords.spelledDuration(beginning: folded[...]),
              let end = ReplyWords.end(ofFolded: spelled.words, in: words) else { return nil }
        // A while from or before something else in the same sentence ("a week from Monday",
        // "an hour before 5pm") is none Chime reads, not the while alone; "an hour. After
        // that…" is an hour, and "an hour from now" too.
        let rest = words[end...]
        if rest.first?.isWhitespace == true {
            let following = rest.split(whereSeparator: \.isWhitespace).prefix(2).map { ReplyWords.fold(String($0.prefix { !$0.isPunctuation })) }
            if let next = following.first, relations.contains(next), following.count < 2 || !nowWords.contains(following[1]) { return nil }
        }
        return spelled.duration + rest
    }

    /// Words that make a while one from or before something else, folded.
    static let relations: Set<String> = Set(["from", "after", "before", "ab", "nach", "vor", "après", "avant", "después", "antes",
                                             "после", "до", "od", "po", "przed", "بعد", "قبل"].map(ReplyWords.fold))

    /// "Now" after ``relations``' "from", folded.
    static let nowWords: Set<String> = Set(["now", "jetzt", "maintenant", "ahora", "teraz", "сейчас"].map(ReplyWords.fold))
}
