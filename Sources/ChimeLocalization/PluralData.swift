import ChimeCore
import ChimeXML
import Synchronization

/// CLDR's cardinal plural rules for every language, read from the copy of `plurals.xml`
/// compiled into the binary (CLDR 41; see `CLDR/LICENSE`), so nothing depends on a
/// system package at run time.
public enum PluralData {
    /// One rule as CLDR writes it, with its samples.
    public struct Entry: Sendable {
        public var category: PluralCategory
        public var rule: PluralRule
        /// The rule's text as CLDR writes it, its samples included.
        var text: String
        /// The `@integer` and `@decimal` samples, as text (`…` left out): read when asked
        /// for (only the tests do), not when the file is loaded, where expanding them had
        /// been four fifths of the load and a sixth of a one-message `chime ingest`.
        public var integerSamples: [String] { PluralData.samples(in: text, after: "@integer") }
        public var decimalSamples: [String] { PluralData.samples(in: text, after: "@decimal") }
    }

    /// Every language code, with its rules in CLDR's order (the whole file parsed: the
    /// tests read every rule; ``rules(for:)`` parses only the language asked for).
    public static var entries: [String: [Entry]] { parsed.value.entries }

    /// Rules of the file that could not be read, as `locale count: reason`; empty unless
    /// the data and the rule parser disagree (the tests check it is empty).
    public static var unreadable: [String] { parsed.value.unreadable }

    /// Each language code's rules as the file writes them (category, text), not parsed
    /// yet: parsing every language's rules had been half the loading of the file, and a
    /// process needs a language or two.
    private static let groups: [String: [(count: String, text: String)]] = {
        // The file is part of the binary and its tests read every rule; a failure here
        // is a broken build, not bad input.
        // swiftlint:disable:next force_try
        let document = try! XMLDocument(bytes: PackageResources.plurals_xml, path: "plurals.xml")
        var result: [String: [(count: String, text: String)]] = [:]
        for plurals in document.root.children(named: "plurals") where plurals.attribute("type") == "cardinal" {
            for group in plurals.children(named: "pluralRules") {
                let rules = group.children(named: "pluralRule").map { ($0.attribute("count") ?? "", $0.text) }
                for locale in (group.attribute("locales") ?? "").split(separator: " ") {
                    result[String(locale)] = rules
                }
            }
        }
        return result
    }()

    private static let parsed = Lazily<(entries: [String: [Entry]], unreadable: [String])> {
        var entries: [String: [Entry]] = [:]
        var unreadable: [String] = []
        for (locale, rules) in groups {
            entries[locale] = rules.compactMap { rule in
                do {
                    return try entry(rule)
                } catch {
                    unreadable.append("\(locale) \(rule.count): \(error)")
                    return nil
                }
            }
        }
        return (entries, unreadable.sorted())
    }

    /// The rules of each language tag asked for so far.
    private static let cache = Mutex<[String: PluralRules]>([:])

    private static func entry(_ rule: (count: String, text: String)) throws -> Entry {
        guard let category = PluralCategory(rawValue: rule.count) else {
            throw PluralRule.ParseError(message: "unknown plural category \"\(rule.count)\"")
        }
        return Entry(category: category, rule: try PluralRule(rule.text), text: rule.text)
    }

    /// The rules of a language tag: `de-AT` uses `de`'s, `pt-PT` its own; unknown
    /// languages have only `other`. A rule that cannot be read is left out (the tests
    /// check there is none).
    public static func rules(for languageTag: String) -> PluralRules {
        if let known = cache.withLock({ $0[languageTag] }) { return known }
        var rules = PluralRules.otherOnly
        for candidate in LocaleFallback.chain(languageTag) {
            if let group = groups[candidate.replacingOccurrences(of: "-", with: "_")] ?? groups[candidate] {
                rules = PluralRules(group.compactMap { try? entry($0) }.map { ($0.category, $0.rule) })
                break
            }
        }
        cache.withLock { $0[languageTag] = rules }
        return rules
    }

    /// Expands `0~15, 100, 1000, …` and `0.0~1.5` into their numbers, keeping each
    /// range's number of fraction digits.
    static func samples(in text: String, after marker: String) -> [String] {
        guard let start = text.range(of: marker)?.upperBound else { return [] }
        var list = text[start...]
        if let next = list.range(of: "@")?.lowerBound { list = list[..<next] }
        var result: [String] = []
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty && item != "…" {
            let bounds = item.split(separator: "~").map(String.init)
            guard bounds.count == 2 else {
                result.append(item)
                continue
            }
            result += expand(from: bounds[0], to: bounds[1])
        }
        return result
    }

    private static func expand(from low: String, to high: String) -> [String] {
        let digits = low.split(separator: ".").dropFirst().first?.count ?? 0
        let scale = (0..<digits).reduce(1) { value, _ in value * 10 }
        guard let first = Int(low.replacingOccurrences(of: ".", with: "")),
              let last = Int(high.replacingOccurrences(of: ".", with: "")), first <= last else { return [low, high] }
        return (first...last).map { value in
            guard digits > 0 else { return String(value) }
            let fraction = String(value % scale)
            return "\(value / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
    }
}
