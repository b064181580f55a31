import ChimeCore

/// BCP 47 fallback: `de-AT` → `de`; `zh-Hant-TW` → `zh-Hant` → `zh`; with CLDR's likely
/// scripts and parent locales, as Apple's bundles match them (`zh-TW` → `zh-Hant`,
/// `es-MX` → `es-419`, `pt-AO` → `pt-PT`, `en-AU` → `en-001` → `en-GB`); then a
/// configured fallback language (English unless set).
public enum LocaleFallback {
    /// The tag (written as BCP 47 writes it, `FR` → `fr`) and its shorter prefixes, most
    /// specific first, with the forms CLDR relates to it after the tag itself, then
    /// `fallback` when it is not already among them.
    public static func chain(_ tag: String, fallback: String? = nil) -> [String] {
        let normalized = LanguageTag.normalized(tag)
        var subtags = normalized.split(separator: "-").map(String.init)
        var chain: [String] = []
        while !subtags.isEmpty {
            chain.append(subtags.joined(separator: "-"))
            subtags.removeLast()
        }
        let related = relatives(of: normalized)
        if !related.isEmpty, !chain.isEmpty {
            chain = [chain[0]] + related + chain.dropFirst()
            var seen = Set<String>()
            chain = chain.filter { seen.insert($0).inserted }
        }
        if let fallback, !chain.contains(fallback) { chain.append(fallback) }
        return chain
    }

    /// What CLDR relates to a tag besides its prefixes: the tag with its region's likely
    /// script (`zh-TW` → `zh-Hant-TW`, `zh-Hant`), without a script it gives (`zh-Hant-HK`
    /// → `zh-HK`), and its region's parent (`es-MX` → `es-419`).
    private static func relatives(of tag: String) -> [String] {
        let parts = tag.split(separator: "-").map(String.init)
        guard let language = parts.first else { return [] }
        let rest = parts.dropFirst().prefix { $0.count > 1 } // up to an extension
        let script = rest.first { $0.count == 4 }
        let region = rest.first { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }
        var related: [String] = []
        let likely = script ?? likelyScripts[region.map { "\(language)-\($0)" } ?? language]
        if let region {
            if script == nil, let likely { related.append("\(language)-\(likely)-\(region)") }
            if script != nil { related.append("\(language)-\(region)") }
            if let parent = parentLocales["\(language)-\(region)"] {
                related.append(parent)
                if let standIn = standIns[parent] { related.append(standIn) }
            }
        }
        if let likely { related.append("\(language)-\(likely)") }
        return related
    }

    /// CLDR's likely subtags (supplemental/likelySubtags.xml), the scripts of the
    /// languages written in more than one: Chinese by region.
    private static let likelyScripts: [String: String] = [
        "zh": "Hans", "zh-CN": "Hans", "zh-SG": "Hans", "zh-MY": "Hans",
        "zh-TW": "Hant", "zh-HK": "Hant", "zh-MO": "Hant",
    ]

    /// CLDR's parent locales (supplemental/supplementalData.xml, parentLocales) of the
    /// regions whose language has a regional form of its own: Latin American Spanish,
    /// European Portuguese.
    private static let parentLocales: [String: String] = {
        var parents: [String: String] = [:]
        for region in ["AR", "BO", "BR", "BZ", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY", "SV", "US", "UY", "VE"] {
            parents["es-\(region)"] = "es-419"
        }
        for region in ["AO", "CH", "CV", "GQ", "GW", "LU", "MO", "MZ", "ST", "TL"] {
            parents["pt-\(region)"] = "pt-PT"
        }
        // English outside the United States and its territories: `en-001`, whose
        // spelling is British (its stand-in below, `en-GB`, comes before `en`: TN2418's
        // `en-IN` with `en-GB` present finds `en-GB`). The regions most often met.
        for region in ["AU", "BE", "BW", "BZ", "CA", "CY", "DE", "DK", "FI", "GH", "HK", "IE", "IL", "IN", "JM", "KE", "MT", "MU", "MY",
                       "NG", "NL", "NZ", "PK", "SE", "SG", "TT", "TZ", "UG", "ZA", "ZM", "ZW", "150"] {
            parents["en-\(region)"] = "en-001"
        }
        return parents
    }()

    /// For a CLDR parent no app has a folder of, the localization Apple's bundles take in
    /// its place: `en-001`'s British spelling is `en-GB`'s (TN2418).
    private static let standIns = ["en-001": "en-GB"]

    /// `chain` among the localizations `present`, then those of each of its languages'
    /// other regions, as Apple's bundles match a preference: `en` finds `en-US.lproj` (the
    /// form Xcode's guide recommends) when there is no `en.lproj`, `fr-CA` finds `fr-FR`
    /// before English. The language's likely region first (`en-US`, `fr-FR`, `pt-BR`),
    /// then the others in order.
    public static func chain(_ tag: String, fallback: String? = nil, among present: [String]) -> [String] {
        let full = chain(tag, fallback: fallback)
        var result: [String] = []
        for (index, link) in full.enumerated() {
            if present.contains(link) { result.append(link) }
            let language = Self.language(of: link)
            // After a language's last link: its regions nothing above named. Not for a
            // language written in more than one script, whose forms are the script's
            // (`zh-Hant` for Taiwan, never `zh-CN`): CLDR's relatives above chose them.
            guard index + 1 == full.count || Self.language(of: full[index + 1]) != language,
                  !Self.multiScript.contains(language) else { continue }
            let likely = likelyRegions[language].map { "\(language)-\($0)" }
            let siblings = present.filter { $0.hasPrefix(language + "-") && !full.contains($0) && !result.contains($0) }
                .sorted { ($0 == likely ? 0 : 1, $0) < ($1 == likely ? 0 : 1, $1) }
            result += siblings
        }
        return result
    }

    /// Languages written in more than one script, whose regions are not siblings.
    private static let multiScript: Set<String> = ["zh", "sr", "uz", "az", "bs", "pa", "sd", "ks", "mn", "ha"]

    /// CLDR's likely region of the languages an app is most often localized in
    /// (supplemental/likelySubtags.xml), the sibling tried first; none for ``multiScript``'s,
    /// which have no siblings.
    private static let likelyRegions: [String: String] = [
        "en": "US", "fr": "FR", "de": "DE", "es": "ES", "pt": "BR", "it": "IT", "nl": "NL", "ru": "RU", "ja": "JP",
        "ko": "KR", "ar": "EG", "sv": "SE", "da": "DK", "nb": "NO", "fi": "FI", "pl": "PL", "tr": "TR",
        "cs": "CZ", "el": "GR", "he": "IL", "hu": "HU", "ro": "RO", "uk": "UA", "ca": "ES",
    ]

    /// A locale's language, as an HTML page's `lang` says it: `fr-CA` → `fr`.
    public static func language(of locale: String) -> String {
        // The chain's last link, without building the chain: asked for every message.
        locale.utf8.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }).first.map { String(decoding: $0, as: UTF8.self) } ?? "en"
    }

    /// `rtl` for the languages written right to left, else `ltr`: an HTML page's `dir`.
    public static func direction(of locale: String) -> String {
        ["ar", "he", "fa", "ur"].contains(language(of: locale)) ? "rtl" : "ltr"
    }
}
