/// Where a snooze's sentence ends, and where a word may begin with no space before it:
/// what tells "3pm, tomorrow" from "2h, see you tomorrow" (SnoozeText+DayAfter) and "at 4,
/// early morning" from "until 5, I'm up early" (SnoozeText+BareHour).
extension SnoozeText {
    /// The marks after which a sentence ends, but the full stop, which a.m. and p.m. end
    /// with (``endsSentence(_:)``): a comma, an ellipsis, a dash, a colon, a semicolon, an
    /// exclamation or question mark, in any of the shipped scripts.
    static let sentenceEnds: Set<Character> = Set(",;:!?…—–、。，．：；！？،؛؟")

    /// What opens an aside, which ends the sentence before it: "1h (meeting tomorrow)",
    /// "at 5 (early dinner)".
    static let asides: Set<Character> = Set("([{\"“«「（")

    /// The commas after which a word may still say more of the time before them ("at 4,
    /// early morning").
    static let commas: Set<Character> = Set(",、،，")

    /// What may stand between two words where no space does: "noon,tomorrow", "定時、明日",
    /// "EOD/Monday", "夜（月曜日）" (not the full-width full stop, as first written).
    static let wordBreaks: Set<Character> = sentenceEnds.subtracting(["．"]).union(asides).union(["/"])

    /// Whether `text` ends a sentence: with one of ``sentenceEnds``, or a full stop (not
    /// a.m.'s or p.m.'s).
    static func endsSentence(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        if last == "." { return !text.hasSuffix("a.m.") && !text.hasSuffix("p.m.") }
        return sentenceEnds.contains(last)
    }
}
