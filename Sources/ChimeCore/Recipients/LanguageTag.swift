import Foundation

/// A recipient's locale as a BCP 47 language tag (`fr-FR`, `zh-Hant-TW`), checked against
/// the languages Foundation (CLDR and ISO 639) knows.
public enum LanguageTag {
    /// The tag as BCP 47 writes it: `fr_FR` → `fr-FR`, `FR-fr` → `fr-FR`,
    /// `zh_hant_tw` → `zh-Hant-TW`. Subtags after a singleton (`-u-…`) keep their case.
    public static func normalized(_ tag: String) -> String {
        var subtags = tag.replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard !subtags.isEmpty else { return tag }
        subtags[0] = subtags[0].lowercased()
        for i in subtags.indices.dropFirst() {
            let subtag = subtags[i]
            if subtag.count == 1 { break } // an extension or private use follows
            if subtag.count == 4, subtag.allSatisfy(\.isLetter) {
                subtags[i] = subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased()
            } else if subtag.count == 2, subtag.allSatisfy(\.isLetter) {
                subtags[i] = subtag.uppercased()
            } else {
                subtags[i] = subtag.lowercased()
            }
        }
        return subtags.joined(separator: "-")
    }

    /// Why a (normalized) tag cannot be a recipient's locale, with the tag meant when one is
    /// near (`jp` → `ja`); nil when it can.
    public static func problem(_ tag: String) -> String? {
        guard isWellFormed(tag) else {
            return "\"\(tag)\" is not a BCP 47 language tag such as fr-FR" + hint(suggestion(for: tag, language: tag))
        }
        let language = String(tag.prefix { $0 != "-" })
        guard !known.contains(language) else { return nil }
        let meant = suggestion(for: tag, language: language)
        let whole = tag == language ? "" : " in \"\(tag)\""
        return "unknown language \"\(language)\"\(whole) (not an ISO 639 code)" + hint(meant)
    }

    /// `language[-script][-region]...`: letters and digits in subtags of 1 to 8.
    static func isWellFormed(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = subtags.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    private static func hint(_ meant: String?) -> String {
        meant.map { "; did you mean \($0)?" } ?? ""
    }

    /// The tag with its language replaced by the one likely meant: a country's language
    /// for its code (`jp` → `ja`, `gr` → `el`), a language's English name (`french` → `fr`),
    /// else the one language with locales in Foundation a typo away (`fre` → `fr`).
    private static func suggestion(for tag: String, language: String) -> String? {
        let lowered = language.lowercased()
        let meant = countryLanguage(lowered) ?? englishNames[lowered]
            ?? EditDistance.nearest(to: lowered, among: withLocales.filter { $0.count <= 3 })
        guard let meant else { return nil }
        return tag == language ? meant : meant + tag.dropFirst(language.count)
    }

    /// The language CLDR's likely subtags give a country (`JP` → `ja`), when `code` is one.
    private static func countryLanguage(_ code: String) -> String? {
        guard code.count == 2 else { return nil }
        let region = code.uppercased()
        guard Locale.Region(region).isISORegion else { return nil }
        let likely = Locale.Language(identifier: "und-\(region)")
        // An unknown region maximizes to und-Latn-US: only take one that kept its country.
        guard likely.maximalIdentifier.hasSuffix("-\(region)") else { return nil }
        return Locale.Language(identifier: likely.maximalIdentifier).languageCode?.identifier
    }

    /// ISO 639 codes, as Foundation lists them.
    private static let known = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))

    /// The languages Foundation has locales for (some 300).
    private static let withLocales = Set(Locale.availableIdentifiers.compactMap { Locale(identifier: $0).language.languageCode?.identifier })

    /// Those languages by their English name, lowercased: `french` → `fr`.
    private static let englishNames: [String: String] = {
        let english = Locale(identifier: "en")
        var names: [String: String] = [:]
        for code in withLocales.sorted() {
            guard let name = english.localizedString(forLanguageCode: code)?.lowercased(), names[name] == nil else { continue }
            names[name] = code
        }
        return names
    }()
}
