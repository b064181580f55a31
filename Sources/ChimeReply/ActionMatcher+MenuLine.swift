import ChimeCore

/// A menu line copied as the email writes it ("Reply 2 for Edit list", "リストを削除：3と
/// 返信"): its number, its action's name and nothing but the menu's own words and thanks.
extension ActionMatcher {
    /// The menu line, the destructive action's note and the HTML menu's link as the
    /// English templates write them, for a matcher given no others.
    public static let englishMenuForms = MenuForms(lines: ["Reply %1$u for %2$@", "Open"], notes: ["cannot be undone"])

    /// What a copied menu line may hold besides the number and the name, in every locale:
    /// `lines`, the menu line (`ui.reply`, its placeholders `%1$u` and `%2$@`) and the
    /// HTML menu's link (`ui.open`), by their words; `notes`, the destructive action's
    /// note (`ui.destructive`), whole.
    /// Read once, here, for every category's matcher: ``words`` and ``foldedNotes``.
    public struct MenuForms: Sendable {
        public let lines: [String]
        public let notes: [String]
        /// The words `lines` hold besides their placeholders, folded, in every locale:
        /// "reply", "for", "antworten sie", "と返信"…
        let words: Set<String>
        /// `notes` folded, the longest first: "cannot be undone", "kann nicht rückgängig
        /// gemacht werden". Whole only: their words alone ("no", "nicht", "nie", "لا")
        /// refuse ("Reply 3 for Delete list? No!").
        let foldedNotes: [String]

        public init(lines: [String], notes: [String]) {
            self.lines = lines
            self.notes = notes
            words = Set(lines.flatMap { ReplyWords.fold(Self.withoutPlaceholders($0)).split(separator: " ").map(String.init) })
            foldedNotes = notes.map(ReplyWords.fold).filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        }

        /// A line with each of its placeholders (`%@`, `%d`, `%u`, numbered as `%2$@`) a
        /// space: its words are what is left. Read scalar by scalar: Foundation's regular
        /// expression, compiled by ICU for each of the dozen lines, was 4 ms of an MTA pipe's
        /// `chime ingest` of 70.
        static func withoutPlaceholders(_ line: String) -> String {
            let scalars = Array(line.unicodeScalars)
            var kept = String.UnicodeScalarView()
            var index = 0
            while index < scalars.count {
                if scalars[index] == "%" {
                    var end = index + 1
                    // Any decimal digit, as the expression's `\d` took (`%١$u` in an Arabic line).
                    while end < scalars.count, scalars[end].properties.numericType == .decimal { end += 1 }
                    if end > index + 1 { end = end < scalars.count && scalars[end] == "$" ? end + 1 : index + 1 }
                    if end < scalars.count, "@du".unicodeScalars.contains(scalars[end]) {
                        kept.append(" ")
                        index = end + 1
                        continue
                    }
                }
                kept.append(scalars[index])
                index += 1
            }
            return String(kept)
        }
    }

    /// The action whose menu line `line` copies, with the words around it ("Reply 2 for
    /// Edit list"): its number and another of its names, each as whole words, and no
    /// other action's number with its name. Nil when no action's, or several.
    func menuLine(_ line: String) -> Match? {
        let folded = " " + Self.spacedNumbers(ReplyWords.fold(line)) + " "
        guard folded.utf8.count <= 400 else { return nil }
        func holds(_ words: String) -> Bool { ReplyWords.holds(folded, words, anywhere: false) }
        // Each action whose number the line holds, with those of its names it holds.
        let copied = menu.compactMap { entry in
            holds(entry.number) ? (entry: entry, names: entry.names.filter(holds)) : nil
        }.filter { !$0.names.isEmpty }
        // The longest of its names the line holds: "delete list", not the alias "delete".
        guard copied.count == 1, let (entry, names) = copied.first,
              let name = names.max(by: { ($0.count, $1) < ($1.count, $0) }) else { return nil }
        // Nothing else but the menu's own words and notes, and thanks: "Don't delete list
        // yet, I still need 3" and "リストを削除？まだ3個残ってるよ" name a number and a
        // name, and ask for no action.
        var rest = folded
        for part in [entry.number, name] + menuForms.foldedNotes {
            if let found = rest.rangeOfBytes(" \(part) ") { rest.replaceSubrange(found, with: " ") }
        }
        let others = rest.split(separator: " ").map(String.init).filter { !isMenuWord($0) }
        guard Self.onlyCourtesy(Substring(others.joined(separator: " "))) else { return nil }
        return Match(action: entry.action.identifier, userText: nil)
    }

    /// A word of the menu line's, or (written without spaces) one with a polite ending run
    /// into it: "と返信お願いします".
    private func isMenuWord(_ word: String) -> Bool {
        menuForms.words.contains(word) || (Self.startsUnspaced(Substring(word))
            && menuForms.words.contains { ReplyWords.unspaced($0) && word.hasPrefix($0) && Self.onlyUnspacedEndings(word.dropFirst($0.count)) })
    }

    /// Folded text with a space between a number and a character of a script written
    /// without spaces that touches it: the Japanese menu's "リストを削除：3と返信" names
    /// 3 as "Reply 3 for Delete list" does.
    static func spacedNumbers(_ folded: String) -> String {
        guard folded.unicodeScalars.contains(where: { $0.value >= 0x3000 }) else { return folded }
        var result = ""
        var previous: Character?
        for character in folded {
            if let before = previous, before != " ", character != " ", before.isNumber != character.isNumber,
               startsUnspaced(Substring(String(before.isNumber ? character : before))) {
                result.append(" ")
            }
            result.append(character)
            previous = character
        }
        return result
    }
}
