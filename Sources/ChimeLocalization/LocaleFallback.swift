/// BCP 47 fallback: `de-AT` → `de`; `zh-Hant-TW` → `zh-Hant` → `zh`; then a configured
/// fallback language (English unless set).
public enum LocaleFallback {
    /// The tag and its shorter prefixes, most specific first, then `fallback` when it is
    /// not already among them.
    public static func chain(_ tag: String, fallback: String? = nil) -> [String] {
        var subtags = tag.replacingOccurrences(of: "_", with: "-").split(separator: "-").map(String.init)
        var chain: [String] = []
        while !subtags.isEmpty {
            chain.append(subtags.joined(separator: "-"))
            subtags.removeLast()
        }
        if let fallback, !chain.contains(fallback) { chain.append(fallback) }
        return chain
    }

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
