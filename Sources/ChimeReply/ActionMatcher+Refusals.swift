import ChimeCore

/// What follows a snooze written before its word in another sentence: a no to it, or a
/// count of times before the word ("3回スヌーズ"), which make it none
/// (``ActionMatcher``'s snooze after its duration).
extension ActionMatcher {
    /// Whether a sentence after another begins by saying no to it ("しないで", don't;
    /// "やっぱりいらない", not needed after all; "いいえ", no), its fillers and the
    /// sentences of them ("でも", but; "やっぱり", after all; "いや", "あっ", "ごめん",
    /// "ありがとう。") passed over; "しないといけない" (must do) is no no. A no further in
    /// ("先に洗濯しないと", the laundry first; "牛乳はいらない", no milk) is about
    /// something else.
    static func refuses(_ sentence: Substring) -> Bool {
        var rest = sentence
        while let filler = refusalFillers.first(where: { rest.hasPrefix($0) }) { rest = rest.dropFirst(filler.count).drop { $0 == " " } }
        return refusals.contains(where: rest.hasPrefix)
    }

    /// What begins a no (``refuses(_:)``), folded.
    static let refusals = ["しないで", "しなくて", "しません", "やめ", "止め", "不要", "いらない", "いりません", "必要ありません", "必要ない", "結構です", "だめ", "ダメ",
                           "いいえ"].map(ReplyWords.fold)

    /// The fillers ``refuses(_:)`` passes over, folded, the longest first ("ごめんなさい"
    /// before "ごめん").
    static let refusalFillers = ["でも", "やっぱり", "やはり", "もう", "それでも", "いや", "いえ", "あっ", "ごめんなさい", "ごめん", "すみません", "ありがとう"]
        .map(ReplyWords.fold).sorted { $0.count > $1.count }

    /// Counters of times, not of a while: "3回スヌーズ" is snoozed three times.
    static let counters = ["回", "回目", "度", "度目", "번", "번째", "次"].map(ReplyWords.fold)
}
