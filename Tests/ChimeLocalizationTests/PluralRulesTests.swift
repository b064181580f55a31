import ChimeCore
import ChimeLocalization
import Testing

@Suite("CLDR plural rules")
struct PluralRulesTests {
    struct Sample: CustomTestStringConvertible, Sendable {
        var locale: String
        var category: PluralCategory
        var number: String
        var testDescription: String { "\(locale) \(number) → \(category.rawValue)" }
    }

    /// Every `@integer` and `@decimal` sample of every rule of every locale in plurals.xml.
    static let samples: [Sample] = PluralData.entries.keys.sorted().flatMap { locale in
        PluralData.entries[locale]!.flatMap { entry in
            (entry.integerSamples + entry.decimalSamples).map { Sample(locale: locale, category: entry.category, number: $0) }
        }
    }

    @Test("the data has every locale and every rule parses")
    func data() {
        #expect(PluralData.unreadable.isEmpty)
        #expect(PluralData.entries.count > 200)
        for locale in ["en", "fr", "de", "es", "ru", "pl", "ar", "ja", "cy", "lt", "mt", "root"] {
            #expect(PluralData.entries[locale] != nil, "missing \(locale)")
        }
        #expect(Self.samples.count > 5_000)
    }

    @Test("every CLDR sample selects its own category")
    func everySample() throws {
        var wrong: [String] = []
        for sample in Self.samples {
            let operands = try #require(PluralOperands(sample.number), "unreadable sample \(sample.number)")
            let found = PluralData.rules(for: sample.locale).category(for: operands)
            if found != sample.category { wrong.append("\(sample.testDescription), got \(found.rawValue)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5))")
    }

    @Test("counts in Russian, Polish, Arabic, French and English", arguments: [
        ("ru", [0: "many", 1: "one", 2: "few", 3: "few", 5: "many", 11: "many", 21: "one", 22: "few", 25: "many", 101: "one", 1000: "many"]),
        ("pl", [0: "many", 1: "one", 2: "few", 3: "few", 5: "many", 11: "many", 21: "many", 22: "few", 25: "many", 101: "many", 1000: "many"]),
        ("ar", [0: "zero", 1: "one", 2: "two", 3: "few", 5: "few", 11: "many", 21: "many", 22: "many", 25: "many", 101: "other", 1000: "other"]),
        ("fr", [0: "one", 1: "one", 2: "other", 3: "other", 5: "other", 11: "other", 21: "other", 22: "other", 25: "other", 101: "other", 1000: "other"]),
        ("en", [0: "other", 1: "one", 2: "other", 3: "other", 5: "other", 11: "other", 21: "other", 22: "other", 25: "other", 101: "other", 1000: "other"]),
    ])
    func counts(locale: String, expected: [Int: String]) {
        let rules = PluralData.rules(for: locale)
        for (count, category) in expected {
            #expect(rules.category(for: count).rawValue == category, "\(locale) \(count)")
        }
    }

    @Test("operands keep visible fraction digits and compact exponents")
    func operands() throws {
        let value = try #require(PluralOperands("1.50"))
        #expect([value.i, value.v, value.w, value.f, value.t] == [1, 2, 1, 50, 5])
        let compact = try #require(PluralOperands("1.2c3"))
        #expect([compact.i, compact.v, compact.c] == [1200, 0, 3])
        #expect(PluralOperands("1.") == nil)
        #expect(PluralOperands("x") == nil)
    }

    @Test("regional tags use their language's rules; unknown languages only other")
    func fallback() {
        #expect(PluralData.rules(for: "de-AT").category(for: 1) == .one)
        #expect(PluralData.rules(for: "pt-PT").category(for: 0) == .other)
        #expect(PluralData.rules(for: "pt").category(for: 0) == .one)
        #expect(PluralData.rules(for: "xx").category(for: 1) == .other)
        #expect(LocaleFallback.chain("zh-Hant-TW", fallback: "en") == ["zh-Hant-TW", "zh-TW", "zh-Hant", "zh", "en"])
    }
}
