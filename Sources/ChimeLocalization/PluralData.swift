import ChimeCore
import ChimeXML

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

    /// Every language code, with its rules in CLDR's order.
    public static var entries: [String: [Entry]] { loaded.entries }

    /// Rules of the file that could not be read, as `locales count: reason`; empty unless
    /// the data and the rule parser disagree (the tests check it is empty).
    public static var unreadable: [String] { loaded.unreadable }

    private static let loaded: (entries: [String: [Entry]], unreadable: [String]) = {
        // The file is part of the binary and its tests read every rule; a failure here
        // is a broken build, not bad input.
        // swiftlint:disable:next force_try
        let document = try! XMLDocument(bytes: PackageResources.plurals_xml, path: "plurals.xml")
        var result: [String: [Entry]] = [:]
        var unreadable: [String] = []
        for plurals in document.root.children(named: "plurals") where plurals.attribute("type") == "cardinal" {
            for group in plurals.children(named: "pluralRules") {
                let locales = group.attribute("locales") ?? ""
                var entries: [Entry] = []
                for element in group.children(named: "pluralRule") {
                    do {
                        entries.append(try entry(element))
                    } catch {
                        unreadable.append("\(locales) \(element.attribute("count") ?? "?"): \(error)")
                    }
                }
                for locale in locales.split(separator: " ") {
                    result[String(locale)] = entries
                }
            }
        }
        return (result, unreadable)
    }()

    private static func entry(_ element: XMLElement) throws -> Entry {
        let name = element.attribute("count") ?? ""
        guard let category = PluralCategory(rawValue: name) else {
            throw PluralRule.ParseError(message: "unknown plural category \"\(name)\"")
        }
        let text = element.text
        return Entry(category: category, rule: try PluralRule(text), text: text)
    }

    /// The rules of a language tag: `de-AT` uses `de`'s, `pt-PT` its own; unknown
    /// languages have only `other`.
    public static func rules(for languageTag: String) -> PluralRules {
        for candidate in LocaleFallback.chain(languageTag) {
            if let entries = entries[candidate.replacingOccurrences(of: "-", with: "_")] ?? entries[candidate] {
                return PluralRules(entries.map { ($0.category, $0.rule) })
            }
        }
        return .otherOnly
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
