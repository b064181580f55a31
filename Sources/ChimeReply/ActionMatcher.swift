import ChimeCore
import Foundation

/// Maps the words of a reply to one of its category's actions: the number of the numbered
/// menu, the action identifier, its title in any locale the templates have, or an alias;
/// without regard to case, accents or punctuation. A text-input action takes what follows
/// its keyword as the text; a category with one text-input action takes any other answer
/// as its text.
public struct ActionMatcher: Sendable {
    /// What a reply chose.
    public struct Match: Equatable, Sendable {
        public var action: String
        public var userText: String?
    }

    /// One way of naming an action, folded.
    struct Keyword {
        var words: String
        var action: NotificationAction?
        var builtIn: BuiltInAction?
        /// All the action's names (its number, identifier, title in every locale): another
        /// of them after this one, as the menu's line is copied ("2 - Edit list"), leaves
        /// the answer that action. One set for all of an action's keywords.
        var actionNames: Set<String> = []
        /// One of a built-in's other words (`action.NAME.also`: "Remind me", "Later"),
        /// which ask more of what follows them (``ActionMatcher/asksForTime(_:folded:)``).
        var other = false

        /// Whether what follows the name is the action's text: a text-input action's, or
        /// snooze's duration.
        func takesText(_ following: Substring) -> Bool {
            action?.textInput != nil || (builtIn == .snooze && ActionMatcher.isDuration(following))
        }
    }

    let keywords: [Keyword]
    let textInput: NotificationAction?
    /// Whether a snooze's text names a time the snooze reader reads (ChimeActions'):
    /// asked of what follows snooze's other words.
    let namesTime: @Sendable (String) -> Bool
    /// Each action's number in the menu and its other names, for a menu line copied as the
    /// email writes it ("Reply 2 for Edit list", "Antworten Sie 2 für Liste bearbeiten").
    let menu: [(number: String, names: [String], action: NotificationAction)]
    /// What a menu line may hold besides the number and the name: its words and notes,
    /// folded once for every category's matcher (``MenuForms/words``, ``MenuForms/foldedNotes``).
    let menuForms: MenuForms

    /// - Parameters:
    ///   - titles: every translation of an action's title (the template locales').
    ///   - builtIns: the words for Chime's built-ins (`snooze`, `done`, `quietly`, `off`, `keep`, `confirm`) in
    ///     every locale; a category's own actions win over them. Only those that answer the category
    ///     (``BuiltInAction/answerable(in:)``) are matched.
    ///   - otherWords: the built-ins' other words in every locale ("Remind me later", "Later" for
    ///     snooze), matched as `builtIns` are but only before a time `namesTime` reads, thanks or
    ///     nothing; a category whose own action took a built-in's word has them go to that action.
    ///   - namesTime: whether a snooze's text names a time (the snooze reader's).
    ///   - menuForms: what a copied menu line may hold around the number and the name.
    public init(category: NotificationCategory, titles: (String) -> [String], builtIns: [BuiltInAction: [String]] = [:],
                otherWords: [BuiltInAction: [String]] = [:], namesTime: @escaping @Sendable (String) -> Bool = { _ in true },
                menuForms: MenuForms = englishMenuForms) {
        self.namesTime = namesTime
        self.menuForms = menuForms
        var keywords: [Keyword] = []
        let names = ReplyWords.names(of: category, titles: titles)
        menu = names.enumerated().map { index, entry in
            let number = "\(index + 1)"
            return (number, entry.names.filter { $0 != number && !$0.allSatisfy(\.isNumber) }.sorted(), entry.action)
        }
        for (action, names) in names {
            for name in names { keywords.append(Keyword(words: name, action: action, actionNames: names)) }
        }
        var general: [Keyword] = []
        if category.options.contains(.customDismissAction) {
            general.append(Keyword(words: "dismiss", builtIn: .dismiss))
        }
        // A built-in word that an action's name holds ("done" in "Backup done") is that
        // action's: the category's own win over Chime's.
        var taken = Set(keywords.map(\.words))
        for builtIn in BuiltInAction.answerable(in: category.identifier) {
            let own = Set(([builtIn.shortName] + (builtIns[builtIn] ?? [])).map(ReplyWords.fold)).filter { !$0.isEmpty }
            // The action that took the built-in's own word ("Snooze" of a timer's
            // category) takes its other words too: "Later" is that action's.
            let stand = own.sorted().lazy.compactMap { word -> NotificationAction? in
                if case .action(let action) = ReplyWords.owner(of: word, among: names) { return action }
                return nil
            }.first
            let others = Set((otherWords[builtIn] ?? []).map(ReplyWords.fold)).filter { !$0.isEmpty }.subtracting(own)
            for word in own.union(others) where !taken.contains(word) {
                switch ReplyWords.owner(of: word, among: names) {
                case .builtIn:
                    if !others.contains(word) {
                        general.append(Keyword(words: word, builtIn: builtIn))
                    } else if let stand {
                        keywords.append(Keyword(words: word, action: stand))
                    } else {
                        general.append(Keyword(words: word, builtIn: builtIn, other: true))
                    }
                case .action(let action): keywords.append(Keyword(words: word, action: action))
                case .severalActions: break
                }
                taken.insert(word)
            }
        }
        // The longest first: "Edit list" before "Edit"; the category's own before the built-ins.
        self.keywords = keywords.sorted { $0.words.count > $1.words.count } + general.sorted { $0.words.count > $1.words.count }
        let inputs = category.actions.filter { $0.textInput != nil }
        textInput = inputs.count == 1 ? inputs[0] : nil
    }

    /// The action a reply's new text chooses, or nil when it names none; `subject` is
    /// read for a bracket tag (`Re: Shopping [2]`) when the text is empty, unless the
    /// reminder's own title (`title`) carries that bracket ("Pay rent [3 days left]"):
    /// then it is what Chime wrote, not an answer.
    public func match(text: String, subject: String = "", title: String = "") -> Match? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.firstIndex(where: { !ReplyWords.fold($0).isEmpty }) else {
            guard let tag = subjectTag(subject), !title.contains("[\(tag)]") else { return nil }
            return match(line: tag, rest: [])
        }
        if let named = matchPolitely(line: lines[first], rest: Array(lines[(first + 1)...])) ?? menuLine(lines[first]) { return named }
        // "Hi," or "Bonjour Anna," on a line of its own (and no action's name: an action
        // called "Morning"): the answer is on the next one, and a text begins there.
        // So may up to three such lines ("お世話になっております。" / "山田です。", a
        // greeting then who writes, after a greeting only).
        var answer = first
        for _ in 0..<3 {
            guard answer == first ? Self.isGreeting(lines[answer]) : Self.isGreeting(lines[answer]) || Self.introduces(lines[answer]),
                  let next = lines[(answer + 1)...].firstIndex(where: { !ReplyWords.fold($0).isEmpty }) else { break }
            if let named = matchPolitely(line: lines[next], rest: Array(lines[(next + 1)...])) ?? menuLine(lines[next]) { return named }
            answer = next
        }
        // Any other answer is the text of the category's one text-input action, but thanks
        // alone ("Thanks!", "Merci beaucoup") answers nothing: it was added as a shopping
        // list's item.
        let written = lines[answer...].joined(separator: "\n")
        guard let textInput, !Self.onlyCourtesy(Substring(ReplyWords.fold(written))) else { return nil }
        return Match(action: textInput.identifier, userText: Self.trimmedText(written))
    }

    /// ``match(line:rest:)``, and again without the please, thanks, yes or OK the line
    /// begins with ("Please 2", "Bitte Liste löschen", "OK, remind me later") or the
    /// question that asks for it ("Can you remind me later?", "Could you please snooze
    /// 2h"), which had hidden the answer.
    private func matchPolitely(line: String, rest: [String]) -> Match? {
        if let named = match(line: line, rest: rest) { return named }
        var line = line
        // Up to three strips, courtesy first at each: "OK, can you please remind me later?"
        // is "OK", then "can you", then "please".
        for _ in 0..<3 {
            guard let shorter = Self.withoutLeadingCourtesy(line) ?? Self.withoutRequest(line) else { return nil }
            if let named = match(line: shorter, rest: rest) { return named }
            line = shorter
        }
        return nil
    }

    /// `line` after the question it begins with that asks for what follows ("Can you",
    /// "Could you", "Would you"): English only, where the verb after it is the one an
    /// answer writes ("Can you remind me later?"); other languages change the verb's form
    /// after theirs ("Kannst du mich später erinnern?"). Nil when it begins with none.
    static func withoutRequest(_ line: String) -> String? {
        let folded = ReplyWords.fold(line)
        guard let opener = requestOpeners.first(where: { folded.hasPrefix($0 + " ") }) else { return nil }
        let rest = after(opener, in: line)
        return rest.isEmpty ? nil : rest
    }

    /// The questions ``withoutRequest(_:)`` takes off, folded.
    static let requestOpeners = ["can you", "could you", "would you", "will you", "can u", "could u"]

    /// `line` after the courtesy or assent words it begins with and the separators after
    /// them ("Please 2", "Ja, Liste löschen", "Oui, 3"); nil when it begins with none, or
    /// is nothing else.
    static func withoutLeadingCourtesy(_ line: String) -> String? {
        func separates(_ character: Character) -> Bool { character.isWhitespace || ",.;:!、。，".contains(character) }
        var index = line.startIndex
        var dropped = false
        while index < line.endIndex {
            let word = line[index...].prefix { !separates($0) }
            let folded = ReplyWords.fold(String(word))
            guard !folded.isEmpty, onlyCourtesy(Substring(folded)) || assent.contains(folded) else { break }
            dropped = true
            index = line[word.endIndex...].firstIndex { !separates($0) } ?? line.endIndex
        }
        guard dropped, index < line.endIndex else { return nil }
        return String(line[index...])
    }

    private func match(line: String, rest: [String]) -> Match? {
        let folded = ReplyWords.fold(line)
        for keyword in keywords {
            let remainder: String
            if folded == keyword.words {
                remainder = ""
            } else if folded.hasPrefix(keyword.words + " ") {
                // An action's name then other words is another sentence ("Delete list?
                // No, keep it", "Done yet? Not really", "1 more thing: eggs"), unless they
                // are thanks or please, or the action takes text (Add item: milk;
                // snooze 2h).
                let following = folded.dropFirst(keyword.words.count + 1)
                if following != keyword.words, keyword.actionNames.contains(String(following)) {
                    remainder = ""
                } else {
                    guard keyword.takesText(following) || Self.onlyCourtesy(following) else {
                        if keyword.builtIn == .snooze, textInput == nil, Self.endsSentence(keyword.words, in: line) {
                            return Match(action: BuiltInAction.snooze.rawValue, userText: nil)
                        }
                        continue
                    }
                    remainder = Self.after(keyword.words, in: line)
                    if keyword.other, !Self.onlyCourtesy(following), !asksForTime(remainder, folded: following) { continue }
                }
            } else if folded.hasPrefix(keyword.words), ReplyWords.unspaced(keyword.words) || Self.startsUnspaced(folded.dropFirst(keyword.words.count)) {
                // Written without spaces ("リストを削除してください", "2お願いします"), the
                // name runs into what follows: as above, another sentence unless it is
                // only a polite ending or thanks, or the action takes text; never a negation.
                let following = folded.dropFirst(keyword.words.count)
                guard !Self.negates(following), keyword.takesText(following) || Self.onlyUnspacedEndings(following) else { continue }
                remainder = Self.after(keyword.words, in: line)
                if keyword.other, !Self.onlyUnspacedEndings(following), !asksForTime(remainder, folded: following) { continue }
            } else {
                continue
            }
            // Where a category takes text, one of snooze's other words before more of it is
            // that text: "Remind me\nmilk\neggs", "Later tonight I'll call you".
            if keyword.other, textInput != nil, !leavesNoText(remainder, rest: rest) { continue }
            if let builtIn = keyword.builtIn {
                // "snooze 10m": the duration comes as the text.
                let text = remainder.trimmingCharacters(in: .whitespaces)
                return Match(action: builtIn.rawValue, userText: builtIn == .snooze && !text.isEmpty ? text : nil)
            }
            guard let action = keyword.action else { continue }
            guard action.textInput != nil else { return Match(action: action.identifier, userText: nil) }
            // Thanks alone ("4 thanks", "4お願いします") is no text.
            let text = Self.trimmedText(([remainder] + rest).joined(separator: "\n"))
            let folded = ReplyWords.fold(text)
            return Match(action: action.identifier, userText: folded.isEmpty || Self.courtesyWhole.contains(folded) ? nil : text)
        }
        return snoozeAfterDuration(line, folded: folded)
    }

    /// Snooze named after its duration, as Japanese orders it ("2時間スヌーズ",
    /// "15時までスヌーズ", "30分後にスヌーズしてください", "明日リマインドして"): the duration, as
    /// written, as the text; the word is the first of snooze's words written without
    /// spaces that the line holds.
    private func snoozeAfterDuration(_ line: String, folded: String) -> Match? {
        // A number, a day or a part of the day first: a day or a part only looked for in a
        // line of the scripts written without spaces (every line that names no action
        // comes here).
        guard folded.first?.isNumber == true
                || ReplyWords.unspaced(folded) && (ReplyWords.snoozeDay(beginning: folded[...]) != nil || ReplyWords.partOfDayEnd(beginning: folded[...]) != nil)
        else { return nil }
        // Each of snooze's words written without spaces that the line holds, the first
        // written first: in "1時間あとでスヌーズ" it is スヌーズ, which only a polite ending follows.
        let found = keywords.filter { $0.builtIn == .snooze && ReplyWords.unspaced($0.words) }
            .compactMap { keyword in folded.range(of: keyword.words).map { (keyword: keyword, range: $0) } }
            .sorted { $0.range.lowerBound < $1.range.lowerBound }
        for (keyword, range) in found {
            if let match = snooze(before: range, of: keyword, line: line, folded: folded) { return match }
        }
        return nil
    }

    /// The snooze of a line whose duration comes before one of snooze's words (at
    /// `found`), or nil when what surrounds the word makes it none.
    private func snooze(before found: Range<String.Index>, of keyword: Keyword, line: String, folded: String) -> Match? {
        var duration = folded[..<found.lowerBound].trimmingCharacters(in: .whitespaces)
        // "Again" before one of the other words: "3時間後にまたリマインドして".
        if keyword.other, let again = Self.againBefore.first(where: duration.hasSuffix) {
            duration = duration.dropLast(again.count).trimmingCharacters(in: .whitespaces)
        }
        // No time is written longer (``before(folded:in:)`` then reads a few characters).
        // After the word, only a polite ending up to a break (punctuation or a space, which
        // folding leaves as a space); past the break another sentence ("2時間スヌーズ、昼食中",
        // at lunch; "…、すみません", sorry), as "snooze 2h, at lunch" is, unless it says no
        // to it ("…、しないで") or the number counts times ("3回スヌーズ、もう飲んだ").
        let tail = folded[found.upperBound...]
        let ending = tail.prefix { $0 != " " }
        let after = tail.dropFirst(ending.count).drop { $0 == " " }
        guard !duration.isEmpty, duration.utf8.count <= 64, Self.onlyUnspacedEndings(ending), !Self.negates(ending),
              after.isEmpty || !Self.refuses(after) && !Self.counters.contains(where: duration.hasSuffix) else { return nil }
        // As written, not folded: folding takes まで's voicing mark and 15:30's colon.
        let text = Self.before(folded: duration, in: line)
        // Before one of the other words, only a time the snooze reader reads:
        // "1時間前にリマインドして" (an hour before) and "3回リマインドして" are none.
        if keyword.other, !namesTime(text) { return nil }
        return Match(action: BuiltInAction.snooze.rawValue, userText: text)
    }

    /// The beginning of `line` that folds to `folded` (a short text), or `folded` itself
    /// when none does.
    static func before(folded: String, in line: String) -> String {
        ReplyWords.end(ofFolded: folded, in: line).map { String(line[..<$0]) } ?? folded
    }

    /// A person's text without the white space and the invisible direction marks
    /// (right-to-left clients' U+200F, U+202B…) at its ends.
    static func trimmedText(_ text: String) -> String {
        text.trimmingCharacters(in: textEdges)
    }

    /// What ``trimmedText(_:)`` takes off: white space and the direction marks (and a byte
    /// order mark), made once.
    private static let textEdges = CharacterSet.whitespacesAndNewlines
        .union(CharacterSet(charactersIn: "\u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}\u{061C}\u{FEFF}"))

    /// Words that may follow an action's name and leave the answer what it was ("2
    /// please", "OK, got it, thanks"), in the shipped languages, folded.
    static let courtesy: Set<String> = Set(courtesyWritten.flatMap { ReplyWords.fold($0).split(separator: " ").map(String.init) })

    /// ``courtesyWritten`` whole, folded: what alone is no text for a text-input action
    /// ("4 thanks"), where its words alone may be ("4 té", "4 vous"), and so may "very"
    /// ("4 bardzo") alone.
    static let courtesyWhole: Set<String> = Set(courtesyWritten.map(ReplyWords.fold)).subtracting(["bardzo", "very much"])

    /// Thanks and please as written, the words of ``courtesy``.
    private static let courtesyWritten = [
        "please", "pls", "plz", "thanks", "thank you", "thx", "ty", "cheers", "very much",
        "merci", "merci beaucoup", "svp", "stp", "s'il vous plaît", "s'il te plaît",
        "danke", "danke schön", "bitte", "vielen dank", "gracias", "muchas gracias", "por favor",
        "спасибо", "пожалуйста", "большое спасибо", "dziękuję", "dzięki", "proszę", "bardzo",
        "شكرا", "من فضلك", "شكرا جزيلا", "ありがとう", "ありがとうございます", "お願いします",
        "よろしくお願いします", "よろしくお願いいたします", "お願いいたします", "お願い致します",
        "grazie", "obrigado", "obrigada", "bedankt", "alsjeblieft", "graag", "tack", "takk",
        "děkuji", "díky", "prosím", "teşekkürler", "lütfen", "kiitos", "köszönöm", "mulțumesc",
        "ευχαριστώ", "παρακαλώ", "дякую", "благодаря", "hvala", "תודה", "בבקשה", "ممنون", "لطفا",
        "धन्यवाद", "कृपया", "ขอบคุณ", "ขอบคุณครับ", "ขอบคุณค่ะ", "ครับ", "ค่ะ", "คะ", "nhé",
        "tolong", "makasih", "감사합니다", "고맙습니다", "부탁합니다", "부탁드립니다", "谢谢", "謝謝", "请", "請",
    ]

    /// Thanks and please of several words whose words alone are not ("per favore", not
    /// "per"; "будь ласка", not "ласка", a brand of soap), folded, each as its words.
    static let courtesyPhrases: [[String]] = ["per favore", "dank je", "dank u", "vă rog", "teşekkür ederim", "будь ласка", "terima kasih",
                                              "so much", "a lot", "a bunch", "many thanks", "much appreciated", "appreciate it", "merci bien",
                                              "mille mercis", "danke sehr", "lieben dank", "besten dank", "mil gracias", "большое спасибо"]
        .map { ReplyWords.fold($0).split(separator: " ").map(String.init) }

    /// Yes and OK, in the shipped languages and their neighbours, folded: before an
    /// action's name it agrees to it ("Yes, delete list", "OK, remind me later"); alone it
    /// names nothing.
    static let assent: Set<String> = Set(["yes", "yeah", "yep", "ja", "jawohl", "oui", "si", "sí", "sim", "да", "tak", "evet", "ano", "jo",
                                          "ok", "okay", "okey", "okej", "ок", "sure", "alright", "klar", "d'accord", "vale", "claro", "ладно",
                                          "хорошо", "dobrze", "jasne", "حسنا", "نعم", "はい", "ええ", "了解", "了解です", "わかりました", "分かりました"]
        .map(ReplyWords.fold))

    /// What a snooze's duration or time starts with: a number (`10m`, `2 hours`,
    /// `until 15:00`), a while in words (`an hour`, `for half an hour`), a day (`until
    /// tomorrow`, `bis Montag`, `until 3 December`), a clock's idiom (`until half past 3`)
    /// or a part of the day (`until noon`, `午後3時`); "Snooze? No thanks" asks for none.
    static func isDuration(_ words: Substring) -> Bool {
        // Folded, a lead may be two words ("jusqu a", "hasta las"): the longest first.
        let number = ReplyWords.afterSnoozeLead(words) ?? words
        return number.first?.isNumber == true
            || ReplyWords.spelledDuration(beginning: words) != nil || ReplyWords.spelledDuration(beginning: number) != nil
            || ReplyWords.snoozeDay(beginning: number) != nil || ReplyWords.clockIdiom(beginning: number)
            || namesPartOfDay(words) || namesPartOfDay(number)
    }

    /// Whether folded text begins with a part of the day that only a time, thanks or
    /// please follow ("noon", "in the morning", "evening at 7", "noon, thanks", "午後3時"):
    /// "Morning works better" is another sentence.
    static func namesPartOfDay(_ words: Substring) -> Bool {
        guard let end = ReplyWords.partOfDayEnd(beginning: words) else { return false }
        var rest = words[end...].drop { $0 == " " }
        // Japanese's and Korean's "until" after it: "定時まで", "저녁까지".
        for until in Self.untilAfter where rest.hasPrefix(until) {
            rest = rest.dropFirst(until.count).drop { $0 == " " }
            break
        }
        if onlyCourtesy(rest) || onlyUnspacedEndings(rest) { return true }
        // A day after it: "EOD tomorrow", "noon on Friday, thanks".
        if let (_, dayWords) = ReplyWords.snoozeDay(beginning: rest), onlyCourtesy(rest[dayWords.endIndex...]) { return true }
        // A clock's time right after it: after "at" ("evening at 7"), or written as one
        // ("午後3時", "evening 7pm"), then only its words: "evening 2 kids asleep" and
        // "noon 3" are none.
        let afterLead = ReplyWords.afterSnoozeLead(rest)
        let words = (afterLead ?? rest).split(separator: " ")
        guard let time = words.first, time.first?.isNumber == true, afterLead != nil || time.contains(where: { !$0.isNumber }) else { return false }
        return words.dropFirst().allSatisfy { clockTail.contains(String($0)) || courtesy.contains(String($0)) }
    }

    /// ``ReplyWords/untilAfter``, folded.
    static let untilAfter = ReplyWords.untilAfter.map(ReplyWords.fold)

    /// Words that may follow a time's number beside a part of the day, folded: "at 7 pm",
    /// "um 7 Uhr", "à 7 heures", "в 7 часов", "3시 반".
    static let clockTail = Set(["am", "pm", "uhr", "h", "heure", "heures", "o'clock", "ч", "час", "часа", "часов", "반", "半"].flatMap {
        ReplyWords.fold($0).split(separator: " ").map(String.init)
    })

    /// Negations that follow a verb in the languages written without spaces, where an
    /// action's name runs into what follows it: "削除しないで" (do not delete), "完了して
    /// いません" (not done), "削除は不要" (no need), "削除やめて" (stop), "删除不了"
    /// (cannot delete). Such an answer is not the action: acting on it did the opposite of
    /// what was asked.
    static let unspacedNegations = ["ない", "ません", "なく", "不要", "やめ", "止め", "不", "没", "別", "别", "勿"]

    /// What may follow an action's name in the languages written without spaces and
    /// leave the answer what it was: a verb's polite ending, please or thanks ("削除して
    /// ください", "削除お願いします", "删除列表吧"), folded, the longest first. Anything
    /// else makes another sentence: "完了はまだです" (not done yet), "再開日を変更して
    /// ください" (change the restart date).
    static let unspacedEndings: [String] = [
        "してください", "して下さい", "しておいて", "しといて", "してくれ", "して", "しました", "します", "しましょう", "する",
        "お願いします", "おねがいします", "お願い", "おねがい", "でお願いします", "ください", "下さい",
        "よろしくお願いします", "よろしくお願いいたします", "よろしく", "お願いいたします", "お願い致します", "いたします", "にします",
        // After the menu's number: "2番" (number 2), Korean's "2번" ("2번이요").
        "番", "번이요", "번요", "번",
        "ありがとうございます", "ありがとう", "です", "で", "ね", "よ", "済み",
        "谢谢你", "谢谢", "謝謝", "多谢", "多謝", "麻烦了", "麻煩了", "好的", "一下", "吧", "了", "啦", "呀", "掉", "请", "請",
    ].map(ReplyWords.fold).sorted { $0.utf8.count > $1.utf8.count } // of two a text begins with, the longer first (ReplyWords.spelledDurations)

    /// Whether `following` is made only of ``unspacedEndings`` (and spaces).
    static func onlyUnspacedEndings(_ following: Substring) -> Bool {
        var rest = following.drop { $0 == " " }
        while !rest.isEmpty {
            guard let ending = unspacedEndings.first(where: { rest.hasPrefix($0) }) else { return false }
            rest = rest.dropFirst(ending.count).drop { $0 == " " }
        }
        return true
    }

    /// Whether text starts with a character of a script written without spaces, or with
    /// Hangul (folded into its jamo, U+1100–U+11FF), whose particles and endings run into
    /// the word before them ("2번").
    static func startsUnspaced(_ text: Substring) -> Bool {
        text.unicodeScalars.first.map { $0.value >= 0x3000 || (0x1100...0x11FF).contains($0.value) } ?? false
    }

    static func negates(_ following: Substring) -> Bool {
        unspacedNegations.contains { following.contains($0) }
    }

    /// Whether folded `words` are thanks and please alone, or nothing.
    package static func onlyCourtesy(_ words: Substring) -> Bool {
        let words = words.split(separator: " ").map(String.init)
        var index = 0
        while index < words.count {
            if let phrase = courtesyPhrases.first(where: { words[index...].starts(with: $0) }) {
                index += phrase.count
            } else if courtesy.contains(words[index]) {
                index += 1
            } else {
                return false
            }
        }
        return true
    }

    /// `2` from a subject's `[2]` at its end ("Re: Shopping [2]"): a reply count before
    /// the subject (`Re[3]: Shopping`, as Becky! and The Bat! write it) is not an answer.
    private func subjectTag(_ subject: String) -> String? {
        let subject = subject.trimmingCharacters(in: .whitespaces)
        guard subject.last == "]", let open = subject.lastIndex(of: "[") else { return nil }
        let tag = String(subject[subject.index(after: open)..<subject.index(before: subject.endIndex)])
        return tag.isEmpty ? nil : tag
    }

    /// What follows the words of `keyword` in the original `line`, separators dropped but
    /// for a point or a comma that begins a number after white space (".5h", ".5 kg
    /// flour", ",5 Stunden"): the line is read word by word until the words read fold to
    /// the keyword.
    static func after(_ keyword: String, in line: String) -> String {
        guard let index = ReplyWords.end(ofFolded: keyword, in: line) else { return "" }
        func separates(_ character: Character) -> Bool { character.isWhitespace || ":：-–—,.;、。)）]".contains(character) }
        var rest = line[index...]
        // The counter right after the menu's number, as "4番：牛乳" and "4번 우유" copy it: not
        // the text ("4 番茶" is green tea, "4番組表" a programme).
        if keyword.allSatisfy(\.isNumber), let counter = rest.first, "番번".contains(counter),
           rest.dropFirst().first.map(separates) ?? true {
            rest = rest.dropFirst()
        }
        // A fraction written without its zero keeps its point: "snooze .5h", "4 .5 kg
        // flour", "غفوة .٥ ساعة" (a digit of any script). Not a point right after the
        // keyword ("4.5") or with white space after it ("snooze, 5h").
        let text = rest.drop(while: separates)
        let point = text.startIndex > rest.startIndex ? rest.index(before: text.startIndex) : nil
        if let point, point > rest.startIndex, ".,".contains(rest[point]), rest[rest.index(before: point)].isWhitespace,
           text.unicodeScalars.first?.properties.generalCategory == .decimalNumber {
            return String(rest[point...])
        }
        return String(text)
    }
}
