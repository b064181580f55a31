import ChimeCore
import Foundation

/// Xcode's String Catalog (`Localizable.xcstrings`, Xcode 15 and later): one JSON file
/// holding every language's strings, read into what `Localizable.strings` and
/// `Localizable.stringsdict` give, language by language.
///
/// - A `stringUnit`'s value is the key's text.
/// - Plural variations (`variations.plural`) are a plural entry: the string's first
///   numeric argument chooses the variant, whose specifiers keep their places in the string.
/// - Substitutions (`%#@name@` in the value, each with its `argNum`, `formatSpecifier` and
///   plural variations, `%arg` standing for its argument) are the variables of a
///   `.stringsdict` entry.
/// - Device variations (`variations.device`) are read as `other`'s, else the iPhone's: a
///   message is read on any device, and an iOS app's notifications were worded for the
///   iPhone.
/// - A key with no text in the source language is its own text there, as Xcode writes a
///   catalog whose keys are the English strings.
///
/// Read with Foundation's JSON parser once ``JSONSyntax`` has passed the text (which
/// gives a syntax error its line and column, and refuses text nested too deep for
/// Foundation), bounded by the 16 MiB any strings file may be.
public struct StringCatalog: Sendable {
    /// Each language's plain strings and plural entries, by normalized locale.
    public private(set) var strings: [String: [String: String]] = [:]
    public private(set) var plurals: [String: [String: StringsDictFile.Entry]] = [:]

    /// Why a catalog cannot be read: where (0 when unknown), and what.
    public struct Failure: Error, Sendable {
        public var line = 0, column = 0
        public var message: String
    }

    public init(bytes: [UInt8]) throws(Failure) {
        if let problem = JSONSyntax.problem(in: bytes) {
            throw Failure(line: problem.line, column: problem.column, message: "not a String Catalog: \(problem.message)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
            throw Failure(message: "not a String Catalog: the JSON cannot be read")
        }
        guard let catalog = object as? [String: Any], let entries = catalog["strings"] as? [String: Any] else {
            throw Failure(message: "not a String Catalog: no \"strings\" object")
        }
        let source = (catalog["sourceLanguage"] as? String).map(LanguageTag.normalized)
        for (key, value) in entries {
            guard let entry = value as? [String: Any] else { throw Failure(message: "\"\(key)\": an entry must be an object") }
            let localizations = entry["localizations"] as? [String: Any] ?? [:]
            for (language, node) in localizations {
                guard let node = node as? [String: Any] else { throw Failure(message: "\"\(key)\" in \(language): a localization must be an object") }
                try add(key, Self.chosenDevice(node), locale: LanguageTag.normalized(language))
            }
            // The source language's text of a key Xcode found in code is the key itself.
            if let source, strings[source]?[key] == nil, plurals[source]?[key] == nil {
                strings[source, default: [:]][key] = key
            }
        }
    }

    /// One language's localization of `key`: its text, plural variations or substitutions.
    private mutating func add(_ key: String, _ node: [String: Any], locale: String) throws(Failure) {
        let value = (node["stringUnit"] as? [String: Any])?["value"] as? String
        if let plural = (node["variations"] as? [String: Any])?["plural"] as? [String: Any] {
            let variants = try Self.variants(plural, key: key, locale: locale)
            // The variants are whole strings: their specifiers numbered in place, the
            // variant chosen by the first number among them.
            let numbered = variants.mapValues(StringFormat.numbered)
            let other = numbered[.other] ?? ""
            let position = StringFormat.argumentKinds(other).filter(\.value).keys.min() ?? 1
            plurals[locale, default: [:]][key] = StringsDictFile.Entry(format: "%\(position)$#@plural@", variables: ["plural": numbered])
            return
        }
        guard let value else { return }
        guard let substitutions = node["substitutions"] as? [String: Any], !substitutions.isEmpty else {
            strings[locale, default: [:]][key] = value
            return
        }
        var format = value
        var variables: [String: [PluralCategory: String]] = [:]
        for (name, item) in substitutions {
            guard let item = item as? [String: Any],
                  let plural = (item["variations"] as? [String: Any])?["plural"] as? [String: Any] else {
                throw Failure(message: "\"\(key)\" in \(locale): substitution \"\(name)\" needs plural variations")
            }
            let position = item["argNum"] as? Int ?? 1
            let specifier = (item["formatSpecifier"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "lld"
            // `%arg` is the substitution's own argument; the value names it by position.
            variables[name] = try Self.variants(plural, key: key, locale: locale).mapValues {
                $0.replacingOccurrences(of: "%arg", with: "%\(position)$\(specifier)")
            }
            format = format.replacingOccurrences(of: "%#@\(name)@", with: "%\(position)$#@\(name)@")
        }
        plurals[locale, default: [:]][key] = StringsDictFile.Entry(format: format, variables: variables)
    }

    /// A node's device variation as a message takes it (`other`, else `iphone`, else the
    /// first), or the node itself when it has none.
    private static func chosenDevice(_ node: [String: Any]) -> [String: Any] {
        guard let devices = (node["variations"] as? [String: Any])?["device"] as? [String: Any] else { return node }
        let chosen = devices["other"] ?? devices["iphone"] ?? devices.keys.sorted().first.flatMap { devices[$0] }
        return (chosen as? [String: Any]).map(chosenDevice) ?? [:]
    }

    /// Plural variations as variants by category, each its string unit's value.
    private static func variants(_ plural: [String: Any], key: String, locale: String) throws(Failure) -> [PluralCategory: String] {
        var variants: [PluralCategory: String] = [:]
        for (name, node) in plural {
            guard let category = PluralCategory(rawValue: name) else { continue }
            guard let node = node as? [String: Any],
                  let value = (chosenDevice(node)["stringUnit"] as? [String: Any])?["value"] as? String else {
                throw Failure(message: "\"\(key)\" in \(locale): plural variant \"\(name)\" has no string unit")
            }
            variants[category] = value
        }
        guard variants[.other] != nil else { throw Failure(message: "\"\(key)\" in \(locale): plural variations need \"other\"") }
        return variants
    }
}
