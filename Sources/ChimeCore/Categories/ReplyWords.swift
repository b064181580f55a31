import Foundation

/// How the words of a reply are compared with the names of actions — folded: lower
/// case, accents and punctuation gone, runs of spaces as one — and which of Chime's
/// built-in reply words (`snooze`, `done`…) a category's own actions take over.
public enum ReplyWords {
    /// Lower case, accents and punctuation gone, runs of spaces as one.
    public static func fold(_ text: String) -> String {
        var state = Folding()
        state.add(decomposed(text).unicodeScalars)
        return state.text
    }

    /// Lower case, in compatibility decomposition (NFKD). ASCII text, what most replies
    /// are, is its own decomposition: Foundation's, which goes through ICU, cost 5,500
    /// instructions a call, a third of matching a reply's answer to an action (callgrind).
    static func decomposed(_ text: String) -> String {
        text.lowercased().compatibilityDecomposed
    }

    /// A digit of another script ("٢", "२", "２") as its ASCII digit; nil for any other
    /// scalar, ASCII digits included.
    public static func asciiDigit(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        guard !scalar.isASCII, scalar.properties.generalCategory == .decimalNumber,
              let value = scalar.properties.numericValue, (0...9).contains(value) else { return nil }
        return Unicode.Scalar(UInt8(ascii: "0") + UInt8(value))
    }

    /// Folded text built a piece at a time.
    public struct Folding {
        public private(set) var text = ""
        private var space = false

        /// Letters whose mark is part of the letter, so that decomposition leaves them as
        /// they are, written as a keyboard without them writes them: "Wylacz" is
        /// "Wyłącz", "Schliessen" (Swiss) is "Schließen", "soeur" is "sœur". Lower case
        /// only: folding lowers first.
        static let unmarked: [Unicode.Scalar: String] = [
            "ł": "l", "đ": "d", "ø": "o", "ħ": "h", "ŧ": "t", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "ð": "d", "þ": "th",
        ]

        public init() {}

        public mutating func add(_ character: Character) {
            add(decomposed(String(character)).unicodeScalars)
        }

        public mutating func add(_ scalars: String.UnicodeScalarView) {
            for scalar in scalars {
                let category = scalar.properties.generalCategory
                switch category {
                case .nonspacingMark, .enclosingMark, .spacingMark:
                    continue
                case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .otherNumber, .letterNumber:
                    if space && !text.isEmpty { text.append(" ") }
                    space = false
                    // A digit of any script as its ASCII digit: "٢" (an Arabic keyboard's)
                    // and "२" are the menu's 2, as "２" is by compatibility.
                    if let digit = ReplyWords.asciiDigit(scalar) {
                        text.unicodeScalars.append(digit)
                    } else if !scalar.isASCII, let plain = Self.unmarked[scalar] {
                        text.unicodeScalars.append(contentsOf: plain.unicodeScalars)
                    } else {
                        text.unicodeScalars.append(scalar)
                    }
                default:
                    space = true
                }
            }
        }
    }

    /// Where the beginning of `line` that folds to `folded` ends, read a character at a
    /// time, as ``ReplyWords/fold(_:)`` folds them: folding each longer prefix anew took
    /// time growing with the square of the line. Nil when no beginning does. `folded` is
    /// short (a keyword, a time): each step counts what is read so far.
    public static func end(ofFolded folded: String, in line: String) -> String.Index? {
        var folding = ReplyWords.Folding()
        let limit = folded.unicodeScalars.count
        var index = line.startIndex
        while index < line.endIndex {
            folding.add(line[index])
            index = line.index(after: index)
            if folding.text == folded { return index }
            if folding.text.unicodeScalars.count > limit { return nil }
        }
        return nil
    }

    /// "until", "at", "for" and "in" before a snooze's time or duration ("snooze until
    /// 15:00", "Schlummern um 15 Uhr", "Reporter dans 2 heures", "Posponer a las 15:00"),
    /// in the shipped languages, lower case, a longer lead before a shorter one it starts
    /// with: what the matcher lets come before a duration, and what the snooze reader
    /// takes off before one.
    public static let snoozeLeads = ["until", "till", "til", "at", "by", "for", "in", "bis", "um", "für",
                                     "jusqu'à", "jusqu’à", "jusqu'a", "pendant", "dans", "vers", "à", "de",
                                     "hasta las", "hasta la", "hasta", "a las", "a la", "a", "durante", "dentro de", "por", "en",
                                     "через", "до", "на", "в", "do", "na", "za", "o",
                                     "حتى", "الساعة", "بعد", "لمدة"]

    /// ``snoozeLeads`` folded, once each, the longest first: folded, a lead may be two
    /// words ("jusqu a", "hasta las").
    public static let foldedSnoozeLeads = Set(snoozeLeads.map(fold)).sorted { ($0.count, $1) > ($1.count, $0) }

    /// What folded text says after the snooze lead it begins with (``foldedSnoozeLeads``,
    /// a space after it): "15 00" of "until 15 00", "las 3" of "hasta las 3" read as
    /// "hasta las" then "3"; nil when it begins with none.
    public static func afterSnoozeLead(_ folded: Substring) -> Substring? {
        for lead in foldedSnoozeLeads where folded.hasPrefix(lead) {
            let rest = folded.dropFirst(lead.count)
            if rest.first == " " { return rest.dropFirst() }
        }
        return nil
    }

    /// True for folded words in a script written without spaces (Chinese, Japanese),
    /// which other text may follow or precede directly.
    public static func unspaced(_ words: String) -> Bool {
        words.unicodeScalars.contains { $0.value >= 0x3000 }
    }

    /// The names a reply may call each action of `category` by, folded: its number in
    /// the menu, its identifier, its title in every locale (`titles`), its aliases.
    public static func names(of category: NotificationCategory, titles: (String) -> [String]) -> [(action: NotificationAction, names: Set<String>)] {
        category.actions.enumerated().map { index, action in
            let names = (["\(index + 1)", action.identifier] + titles(action.title) + action.aliases).map(fold).filter { !$0.isEmpty }
            return (action, Set(names))
        }
    }

    /// Whom a built-in's reply word belongs to in a category.
    public enum Owner {
        /// No action's name holds it: it is Chime's.
        case builtIn
        /// The one action whose names hold it as whole words ("done" in "Backup done").
        case action(NotificationAction)
        /// Several actions' names hold it: none may have it, nor Chime.
        case severalActions
    }

    /// Whom a built-in's folded `word` belongs to in a category whose actions have these
    /// `names` (``names(of:titles:)``): a category's own actions win over Chime's words.
    public static func owner(of word: String, among names: [(action: NotificationAction, names: Set<String>)]) -> Owner {
        let anywhere = unspaced(word)
        let owners = names.filter { $0.names.contains { holds($0, word, anywhere: anywhere) } }
        switch owners.count {
        case 0: return .builtIn
        case 1: return .action(owners[0].action)
        default: return .severalActions
        }
    }

    /// Whether folded `name` holds folded `word` as whole words (a space or an end on
    /// each side), or `anywhere` (a script written without spaces); never an empty word.
    /// A byte search, which folded text allows (no marks are left to join a character):
    /// Foundation's `contains`, bridging both to UTF-16 on each call, was 8% of an MTA
    /// pipe's `chime ingest`, whose category's matcher asks it of every built-in word in
    /// every language against every name of every action.
    public static func holds(_ name: String, _ word: String, anywhere: Bool) -> Bool {
        name.withStoredUTF8 { text in
            word.withStoredUTF8 { wanted in
                var start = 0
                while let offset = Bytes.firstOffset(of: wanted, in: text, from: start) {
                    let end = offset + wanted.count
                    if anywhere || ((offset == 0 || text[offset - 1] == 0x20) && (end == text.count || text[end] == 0x20)) { return true }
                    start = offset + 1
                }
                return false
            }
        }
    }
}
