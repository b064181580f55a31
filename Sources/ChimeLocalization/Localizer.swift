import ChimeCore
import Foundation
import Synchronization

/// The localized strings: those compiled into chime (the shipped `templates/`), with a
/// templates folder's `<locale>/Localizable.strings` and `Localizable.stringsdict` over
/// them key by key, looked up along a fallback chain (`de-AT → de → en`).
public final class Localizer: Sendable {
    /// A strings file that could not be read, with its path, line and column.
    public struct LoadError: Error, CustomStringConvertible {
        public var diagnostics: [Diagnostic]
        public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
    }

    /// The locale folders found, such as `en`, `fr`, `de-AT`.
    public let locales: [String]
    /// The language used when none of a recipient's own has a string.
    public let fallbackLanguage: String
    private let strings: [String: StringsFile]
    private let plurals: [String: StringsDictFile]
    /// The folder of the templates each locale was read from (`fr`, `pt_BR`, `fr.lproj`);
    /// none for a locale only Chime's built-in strings or a String Catalog give.
    let folders: [String: String]
    /// ``chain(for:)`` of each locale asked for; every message asks several times.
    private let chains = Mutex<[String: [String]]>([:])

    /// The bytes of a strings file, nil when the folder has none; one that cannot be read
    /// or is larger than 16 MiB (an app's are a few hundred KB) is said in `diagnostics`.
    private static func stringsFile(_ path: String, into diagnostics: inout [Diagnostic]) -> [UInt8]? {
        do {
            return try BoundedFile.read(path, atMost: 16 << 20)
        } catch .missing {
            return nil
        } catch {
            diagnostics.append(Diagnostic(.error, at: SourceLocation(file: path), error.reason))
            return nil
        }
    }

    /// Reads every locale folder of `directory` (one that does not exist has none) over
    /// the built-in strings.
    /// - Parameter builtIn: whether to start from the strings compiled into chime; without,
    ///   the folder alone.
    /// - Throws: ``LoadError`` naming each file that is not valid, with line and column.
    public init(directory: String, fallbackLanguage: String = "en", builtIn: Bool = true) throws {
        var strings = builtIn ? BuiltInStrings.parsed.strings : [:]
        var plurals = builtIn ? BuiltInStrings.parsed.plurals : [:]
        var diagnostics: [Diagnostic] = []
        var named: [String: String] = [:]
        // The locales the folder gives strings of its own for: a catalog's, and a folder
        // whose files are not the shipped ones.
        var given: Set<String> = []
        // An Xcode String Catalog at the folder's top (`Localizable.xcstrings`, every
        // language in one file), over the built-in strings and under each locale folder's
        // own files.
        let catalogPath = (directory as NSString).appendingPathComponent("Localizable.xcstrings")
        if let data = Self.stringsFile(catalogPath, into: &diagnostics) {
            do {
                let catalog = try StringCatalog(bytes: data)
                given.formUnion(catalog.strings.keys)
                given.formUnion(catalog.plurals.keys)
                for (locale, table) in catalog.strings {
                    Self.overlay(StringsFile(table: table), locale: locale, strings: &strings, plurals: &plurals)
                }
                for (locale, entries) in catalog.plurals {
                    Self.overlay(StringsDictFile(entries: entries), locale: locale, plurals: &plurals)
                }
            } catch {
                diagnostics.append(Diagnostic(.error, at: SourceLocation(file: catalogPath, line: error.line, column: error.column), error.message))
            }
        }
        // Base.lproj first: its strings go over the built-in ones of the fallback language
        // too (below), and that language's own folder, read after it, over them.
        func rank(_ name: String) -> Int { name == "Base.lproj" || name == "Base" ? 0 : 1 }
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted { (rank($0), $0) < (rank($1), $1) }
        for name in folders where !name.hasPrefix(".") {
            let folder = (directory as NSString).appendingPathComponent(name)
            // Locale folders only: the catalog, a README or a backup file beside them is
            // no language (each was read as a folder, and the strings refused).
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { continue }
            // A folder is named by its locale as recipients' are written (`pt-BR`), or as
            // an Xcode project has it (`pt_BR`, `fr.lproj`).
            let stem = name.hasSuffix(".lproj") ? String(name.dropLast(".lproj".count)) : name
            let locale = Self.legacyFolders[stem] ?? LanguageTag.normalized(stem)
            named[locale] = name
            // A file the same as the built-in one (the shipped templates folder, as most
            // deployments use it) is not parsed again: it would change nothing, and parsing
            // the eight locales' files a second time was a tenth of the instructions of a
            // `chime run` firing 100 notifications (callgrind: 22 of 220 million).
            let shipped = builtIn ? BuiltInStrings.files.first { $0.locale == locale } : nil
            let stringsPath = (folder as NSString).appendingPathComponent("Localizable.strings")
            if let data = Self.stringsFile(stringsPath, into: &diagnostics), !(shipped.map { data.elementsEqual($0.strings) } ?? false) {
                do {
                    let file = try StringsFile(bytes: data)
                    given.insert(locale)
                    Self.overlay(file, locale: locale, strings: &strings, plurals: &plurals)
                    // Base internationalization's Base.lproj holds the development language,
                    // which iOS shows where a locale has no string of its own: its text goes
                    // over chime's built-in strings of the fallback language (which came before
                    // it in the chain and hid it: "Snooze" stayed "Snooze").
                    if locale == Self.baseLocale, builtIn {
                        Self.overlay(file, locale: fallbackLanguage, strings: &strings, plurals: &plurals)
                    }
                } catch let error as StringsFile.ParseError {
                    diagnostics.append(Diagnostic(.error, at: SourceLocation(file: stringsPath, line: error.line, column: error.column), error.message))
                }
            }
            let dictPath = (folder as NSString).appendingPathComponent("Localizable.stringsdict")
            if let data = Self.stringsFile(dictPath, into: &diagnostics), !(shipped.map { data.elementsEqual($0.stringsdict) } ?? false) {
                do {
                    let file = try StringsDictFile(bytes: data, path: dictPath)
                    given.insert(locale)
                    Self.overlay(file, locale: locale, plurals: &plurals)
                    if locale == Self.baseLocale, builtIn { Self.overlay(file, locale: fallbackLanguage, plurals: &plurals) }
                } catch let error as DiagnosticError {
                    diagnostics += error.diagnostics
                }
            }
        }
        if builtIn { Self.overlayRegions(given: given, strings: &strings, plurals: &plurals) }
        guard diagnostics.isEmpty else { throw LoadError(diagnostics: diagnostics) }
        self.folders = named
        self.strings = strings
        self.plurals = plurals
        self.locales = Array(Set(strings.keys).union(plurals.keys)).sorted()
        self.fallbackLanguage = fallbackLanguage
    }

    /// An app localized by region only (`fr-FR.lproj`, `en-US.lproj`, as Xcode's guide has
    /// it) has its strings go over chime's built-in ones of the language (`fr`), as Apple's
    /// bundles give a `fr` reader `fr-FR.lproj`: the language's own link, where the
    /// built-in French is, comes before its regions in every French chain, and its "Snooze"
    /// hid the app's. Each built-in language the app gave no strings of its own (the
    /// shipped templates folder's are the built-in ones) takes its region that a reader of
    /// the language alone is given (the likely one first), key by key.
    private static func overlayRegions(given: Set<String>, strings: inout [String: StringsFile], plurals: inout [String: StringsDictFile]) {
        for language in BuiltInStrings.files.map(\.locale) where !given.contains(language) {
            guard let region = LocaleFallback.chain(language, among: Array(given))
                .first(where: { $0 != language && LocaleFallback.language(of: $0) == language }) else { continue }
            if let file = strings[region] { overlay(file, locale: language, strings: &strings, plurals: &plurals) }
            if let file = plurals[region] { overlay(file, locale: language, plurals: &plurals) }
        }
    }

    /// Puts a strings file's keys over a locale's. A plural key read before it (built in,
    /// or a String Catalog's) that it gives again ("digest.subject" reworded without
    /// plural forms) is the file's text now; a stringsdict read after it may give it back.
    private static func overlay(_ file: StringsFile, locale: String, strings: inout [String: StringsFile],
                                plurals: inout [String: StringsDictFile]) {
        strings[locale] = strings[locale].map { $0.overlaid(by: file) } ?? file
        if let before = plurals[locale] { plurals[locale]?.entries = before.entries.filter { file[$0.key] == nil } }
    }

    /// Puts a stringsdict's entries over a locale's, key by key.
    private static func overlay(_ file: StringsDictFile, locale: String, plurals: inout [String: StringsDictFile]) {
        plurals[locale] = plurals[locale].map { $0.overlaid(by: file) } ?? file
    }

    /// Folder names of old Xcode projects (`French.lproj`), and `Base.lproj`, Base
    /// internationalization's: the strings every locale falls back to last.
    static let legacyFolders = ["English": "en", "French": "fr", "German": "de", "Spanish": "es", "Italian": "it",
                                "Japanese": "ja", "Dutch": "nl", "Base": baseLocale]

    /// Where `Base.lproj`'s strings are kept: after every locale's chain.
    static let baseLocale = "Base"

    /// The locales to look in for a recipient's locale, most specific first, among those
    /// present: `de-AT` → `de-AT`, `de`, its language's other regions (`de-DE`), then the
    /// fallback language (and its regions), then `Base.lproj`.
    public func chain(for locale: String) -> [String] {
        if let known = chains.withLock({ $0[locale] }) { return known }
        let chain = LocaleFallback.chain(locale, fallback: fallbackLanguage, among: locales) + (locales.contains(Self.baseLocale) ? [Self.baseLocale] : [])
        chains.withLock { $0[locale] = chain }
        return chain
    }

    /// The languages a person may choose among: the locales read, without `Base.lproj`'s.
    public var languages: [String] { locales.filter { $0 != Self.baseLocale } }

    /// A built-in answer's reply word in a locale ("Snooze", "Оставить"): its
    /// `action.NAME` string, through the locale's chain.
    public func word(for builtIn: BuiltInAction, locale: String) -> String? {
        string("action.\(builtIn.shortName)", locale: locale)?.text
    }

    /// The other words a reply may name a built-in answer by in a locale, besides its reply
    /// word (``word(for:locale:)``): its `action.NAME.also` string, separated by commas
    /// ("Remind me later, Remind me, Later" for snooze), through the locale's chain.
    public func otherWords(for builtIn: BuiltInAction, locale: String) -> [String] {
        let also = string("action.\(builtIn.shortName).also", locale: locale)?.text ?? ""
        return also.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A locale's own `Localizable.strings`, as read.
    func stringsFile(_ locale: String) -> StringsFile? { strings[locale] }

    /// A locale's own `Localizable.stringsdict`, as read.
    func pluralsFile(_ locale: String) -> StringsDictFile? { plurals[locale] }

    /// The name of the folder a locale's files were read from.
    func folder(of locale: String) -> String { folders[locale] ?? locale }

    /// Every key of every locale.
    var allKeys: Set<String> {
        Set(strings.values.flatMap(\.table.keys)).union(plurals.values.flatMap(\.entries.keys))
    }

    /// Whether any locale has this key: then a configuration value naming it is localized.
    public func isKey(_ value: String) -> Bool {
        strings.values.contains { $0[value] != nil } || plurals.values.contains { $0[value] != nil }
    }

    /// The string of `key` for a locale, from the first locale of its chain that has it.
    public func string(_ key: String, locale: String) -> (text: String, locale: String)? {
        for candidate in chain(for: locale) {
            if let text = strings[candidate]?[key] { return (text, candidate) }
        }
        return nil
    }

    /// A configuration value for a locale: its localization when it names a key, else
    /// the value itself (literal text).
    public func localized(_ value: String, locale: String) -> String {
        string(value, locale: locale)?.text ?? value
    }

    /// The pluralized entry of `key` for a locale, with the plural rules to apply to it:
    /// the rules of the locale whose file has it, `Base.lproj`'s those of the fallback
    /// language, the one Base holds (the project's development language: with none, every
    /// count read as `other`, "1 items"). Nil when the first locale of the chain to have
    /// the key has it in its `Localizable.strings`: as iOS reads one `.lproj`, a Japanese
    /// "新着%d件" there wins over the English file's plural forms of the same key.
    public func plural(_ key: String, locale: String) -> (entry: StringsDictFile.Entry, rules: PluralRules)? {
        for candidate in chain(for: locale) {
            if let entry = plurals[candidate]?[key] {
                return (entry, PluralData.rules(for: candidate == Self.baseLocale ? fallbackLanguage : candidate))
            }
            if strings[candidate]?[key] != nil { return nil }
        }
        return nil
    }

    /// For each key and locale, where the key is missing from that locale's own files and
    /// which locale supplies it instead (nil: none does).
    public func gaps(keys: [String], locales wanted: [String]) -> [(key: String, locale: String, suppliedBy: String?)] {
        var result: [(String, String, String?)] = []
        for locale in wanted {
            for key in keys {
                let own = LocaleFallback.chain(locale).first { locales.contains($0) }
                let inOwn = own.map { strings[$0]?[key] != nil || plurals[$0]?[key] != nil } ?? false
                guard !inOwn else { continue }
                let supplier = chain(for: locale).first { strings[$0]?[key] != nil || plurals[$0]?[key] != nil }
                result.append((key, locale, supplier))
            }
        }
        return result
    }

    /// A key's text for the locale with `values` in it, pluralized when the stringsdict
    /// has the key; nil when no locale of the chain has it.
    /// - Throws: ``StringFormat/Failure`` when the text does not fit the values.
    public func formatted(_ key: String, _ values: [FormatArgument], locale: String) throws -> String? {
        if let plural = plural(key, locale: locale) {
            return try plural.entry.format(values, rules: plural.rules, locale: locale)
        }
        if let text = string(key, locale: locale)?.text {
            return try StringFormat.format(text, values, locale: locale)
        }
        return nil
    }
}
