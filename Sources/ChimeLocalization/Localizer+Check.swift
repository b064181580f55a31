import ChimeCore
import Foundation

extension Localizer {
    /// What `chime check` says of a configuration's localizable values: for each value
    /// that names a key and each recipient locale, a warning when the locale's own files
    /// lack it and another locale supplies it, an error when no locale of its chain has
    /// it (the raw key would show).
    public func check(_ configuration: Configuration, templates: String) -> [Diagnostic] {
        var seen = Set<String>()
        let keys = Self.localizableValues(configuration).filter { isKey($0) && seen.insert($0).inserted }
        let wanted = Array(Set(configuration.recipients.map(\.locale))).sorted()
        return duplicateKeys(templates: templates) + formatProblems(templates: templates) + emptyTitles(configuration, locales: wanted, templates: templates)
            + gaps(keys: keys, locales: wanted).map { gap in
            // The folder the locale's own strings were read from (`pt-BR.lproj`), else the
            // templates folder itself (the locale's strings are Chime's built-in ones, or
            // none): naming one that does not exist sent people looking.
            let own = LocaleFallback.chain(gap.locale).first { locales.contains($0) }
            let location = SourceLocation(file: own.flatMap { folders[$0] }.map { templates + "/" + $0 } ?? templates)
            if let supplier = gap.suppliedBy {
                return Diagnostic(.warning, at: location, "\"\(gap.key)\" is missing for \(gap.locale); \(supplier) supplies it")
            }
            return Diagnostic(.error, at: location, "\"\(gap.key)\" is missing for \(gap.locale) and every locale it falls back to")
        }
    }

    /// An error for each action title (and text input's button title) whose key a
    /// recipient's locale translates as white space alone: every platform refuses an
    /// empty button (Discord's labels are 1 to 80 characters), as `chime check` refuses
    /// `title=""` written in `chime.xml`. Once for each strings file that says so.
    func emptyTitles(_ configuration: Configuration, locales wanted: [String], templates: String) -> [Diagnostic] {
        let titles = Set(configuration.categories.flatMap { $0.actions.flatMap { [$0.title, $0.textInput?.buttonTitle].compactMap { $0 } } })
            .filter(isKey).sorted()
        var said = Set<String>()
        return titles.flatMap { key in
            wanted.compactMap { locale -> Diagnostic? in
                guard let found = string(key, locale: locale), found.text.allSatisfy(\.isWhitespace),
                      said.insert(key + "\u{0}" + found.locale).inserted else { return nil }
                let file = "\(templates)/\(folder(of: found.locale))/Localizable.strings"
                let location = stringsFile(found.locale)?.lines[key].map { SourceLocation(file: file, line: $0, column: 1) } ?? SourceLocation(file: file)
                return Diagnostic(.error, at: location,
                                  "\"\(key)\" is empty for \(found.locale): an action's title is its button's label, and no platform shows an empty one")
            }
        }
    }

    /// The values of a configuration that name a key when one has them: a category's
    /// placeholder and summary format, its actions' titles and text inputs' words.
    private static func localizableValues(_ configuration: Configuration) -> [String] {
        configuration.categories.flatMap { category in
            [category.hiddenPreviewsBodyPlaceholder, category.categorySummaryFormat].compactMap { $0 }
                + category.actions.flatMap { [$0.title, $0.textInput?.buttonTitle, $0.textInput?.placeholder].compactMap { $0 } }
        }
    }

    /// A warning for each value of the configuration written as a key is (`shopping.placeholdr`,
    /// `ACTION_EDIT_LIST`: no space, words joined by a dot or an underscore) that no locale
    /// has: it is shown as written, to every recipient, the privacy placeholder of a hidden
    /// preview among them; with the key most like it.
    public func unknownKeys(_ configuration: Configuration, configurationFile: String) -> [Diagnostic] {
        var seen = Set<String>()
        let suspect = Self.localizableValues(configuration).filter { Self.looksLikeKey($0) && !isKey($0) && seen.insert($0).inserted }
        guard !suspect.isEmpty else { return [] }
        let known = allKeys
        return suspect.map { value in
            let meant = EditDistance.nearest(to: value, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
            return Diagnostic(.warning, at: SourceLocation(file: configurationFile),
                              "\"\(value)\" names no string of any locale\(meant), and is shown as written")
        }
    }

    /// Written as a key: ASCII letters, digits, `.`, `_` and `-` only, not ending in a dot,
    /// with a dot or an underscore between two letters (`shopping.placeholdr`,
    /// `ACTION_GO`; not `Done.`, `e.g.`, `v2.0`, `1.5h`, an address or a URL).
    static func looksLikeKey(_ value: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        let bytes = Array(value.utf8)
        guard bytes.count >= 3, bytes.last != UInt8(ascii: "."),
              bytes.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { return false }
        return bytes.indices.dropFirst().dropLast().contains { index in
            (bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "_")) && isLetter(bytes[index - 1]) && isLetter(bytes[index + 1])
        }
    }

    /// A warning for each recipient whose locale's language has no strings, built in or in
    /// `templates`: their messages are in the fallback language, dates aside.
    /// - Parameter configurationFile: where the warnings point.
    public func languageGaps(_ configuration: Configuration, templates: String, configurationFile: String) -> [Diagnostic] {
        configuration.recipients.compactMap { recipient in
            let locale = recipient.locale
            guard !LocaleFallback.chain(locale).contains(where: locales.contains) else { return nil }
            let language = LocaleFallback.language(of: locale)
            return Diagnostic(.warning, at: SourceLocation(file: configurationFile),
                              "recipient \"\(recipient.id)\" has locale \"\(locale)\" (\(Self.englishName(language))), in which chime has no strings: their messages are in \(Self.englishName(fallbackLanguage)), dates aside; add \(templates)/\(language)/Localizable.strings to translate them")
        }
    }

    /// `sv` → `Swedish`; the code itself when Foundation has no name for it.
    private static func englishName(_ language: String) -> String {
        Locale(identifier: "en").localizedString(forLanguageCode: language) ?? language
    }

    /// An error for each string that cannot be formatted when its message is sent, which
    /// would hold every message of its locale that uses it: a translation whose specifiers
    /// take its arguments otherwise than the original (`%2$u` where argument 2 is text),
    /// and a stringsdict format naming a variable its entry lacks. The original is
    /// Chime's English for its own strings (`ui.reply`), else the templates' own in the
    /// fallback language: a translator who put a summary's words in another order without
    /// numbering them (`De %@ : %#@more@` for `%#@more@ from %@`) held that language's
    /// digests at every run, though `chime check` said ok.
    func formatProblems(templates: String) -> [Diagnostic] {
        let english = BuiltInStrings.parsed.strings["en"]?.table ?? [:]
        let fallbackName = Self.englishName(fallbackLanguage)
        /// What each argument of a stringsdict entry takes, its variants in their places:
        /// "%#@more@" alone says nothing of the name its variant "%u more from %@" takes.
        func kinds(of entry: StringsDictFile.Entry) -> [Int: Bool] {
            StringFormat.argumentKinds(entry.format) { entry.variables[$0].map { Array($0.values) } ?? [] }
        }
        /// The original of a key, what its arguments take, and the language it is in,
        /// for a translation in `locale`.
        func original(of key: String, for locale: String) -> (format: String, kinds: [Int: Bool], language: String)? {
            if let builtIn = english[key] { return (builtIn, StringFormat.argumentKinds(builtIn), "English") }
            guard locale != fallbackLanguage else { return nil }
            if let entry = pluralsFile(fallbackLanguage)?[key] { return (entry.format, kinds(of: entry), fallbackName) }
            return stringsFile(fallbackLanguage)?[key].map { ($0, StringFormat.argumentKinds($0), fallbackName) }
        }
        var problems: [Diagnostic] = []
        for locale in locales {
            problems += pluralsFile(locale)?.problems ?? []
            var translations: [(key: String, kinds: [Int: Bool], at: SourceLocation)] = []
            if let file = stringsFile(locale) {
                let path = "\(templates)/\(folder(of: locale))/Localizable.strings"
                translations += file.lines.sorted { $0.value < $1.value }.compactMap { key, line in
                    file[key].map { (key, StringFormat.argumentKinds($0), SourceLocation(file: path, line: line, column: 1)) }
                }
            }
            if let plurals = pluralsFile(locale) {
                let path = "\(templates)/\(folder(of: locale))/Localizable.stringsdict"
                translations += plurals.formatLocations.sorted { $0.key < $1.key }.compactMap { key, at in
                    plurals[key].map { (key, kinds(of: $0), SourceLocation(file: path, line: at.line, column: at.column)) }
                }
            }
            for (key, translated, at) in translations {
                guard let (original, wanted, language) = original(of: key, for: locale) else { continue }
                // The first argument the translation takes otherwise: one the original has
                // not, or a number where the original gives text.
                guard let (position, _) = translated.sorted(by: { $0.key < $1.key })
                    .first(where: { position, number in wanted[position].map { number && !$0 } ?? true }) else { continue }
                let why = wanted[position] == nil ? "there is no argument \(position) (\(language): \"\(original)\")"
                    : "argument \(position) is text, written with %@ in \(language) (\"\(original)\")"
                problems.append(Diagnostic(.error, at: at, "\"\(key)\" cannot be formatted: \(why)"))
            }
        }
        return problems
    }

    /// A warning for each key a locale's `Localizable.strings` gives twice.
    func duplicateKeys(templates: String) -> [Diagnostic] {
        locales.flatMap { locale in
            (stringsFile(locale)?.duplicates ?? []).map { duplicate in
                Diagnostic(.warning, at: SourceLocation(file: "\(templates)/\(folder(of: locale))/Localizable.strings", line: duplicate.line, column: duplicate.column),
                           "\"\(duplicate.key)\" is given twice (first on line \(duplicate.firstLine)); this later one wins")
            }
        }
    }
}
