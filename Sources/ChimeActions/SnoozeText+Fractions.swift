import ChimeCore

/// A snooze's fraction written without its zero (".5h", ",5 Stunden", "for .25 hours",
/// ".5時間後に"), where the matcher keeps the point (``ActionMatcher``'s text after a word).
extension SnoozeText {
    /// `words` (after their lead and Japanese endings) with a fraction that begins them
    /// read with its zero when it comes to a minute or more: ".5h" is "0.5h", half an hour
    /// (not five hours), before a day too (".5h tomorrow" as "0.5h tomorrow"). With no
    /// lead (`led` false), any other point is passed over (".5pm", ",9 Uhr", ".30 min" as
    /// "30 min"), as the matcher once dropped it after "snooze", unless that makes a while
    /// of a fraction it could not read: ".333h" is no 333 hours, ".5 s" no 5 seconds.
    static func withFractionRead(_ words: String, led: Bool) -> String {
        guard words.first == "." || words.first == "," else { return words }
        let withZero = words.dropFirst().first.map { $0.isASCII && $0.isNumber } == true ? leadingWhile("0" + words) : nil
        if let withZero, withZero >= 60 { return "0" + words }
        let withoutPoint = String(words.dropFirst())
        return !led && (withZero != nil || leadingWhile(withoutPoint) == nil) ? withoutPoint : words
    }

    /// The while that the first of `words` name in units ("0.5h", "30 min", "1 hour 30
    /// minutes, thanks"), read as ``inUnits(_:)`` reads it; nil when they name none.
    static func leadingWhile(_ words: String) -> Int64? {
        let leading = leadingWords(words[...])
        for count in stride(from: leading.count, through: 1, by: -1) {
            if let seconds = inUnits(Substring(leading.prefix(count).joined(separator: " "))) { return seconds }
        }
        return nil
    }
}
