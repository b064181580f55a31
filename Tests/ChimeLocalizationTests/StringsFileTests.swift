import ChimeCore
@testable import ChimeLocalization
import Foundation
import Testing

@Suite("Apple strings files and formats")
struct StringsFileTests {
    @Test("old-style pairs, comments, escapes and unquoted words")
    func strings() throws {
        let file = try StringsFile(bytes: Array(#"""
            /* A comment, "with quotes"; and = signs */
            "greeting" = "Hello, %@!";
            // line comment
            "quote" = "She said \"hi\"\n\tand left \\ \U00E9\101";
            unquoted = word_1.2;
            "same";
            "dup" = "first"; "dup" = "second";
            """#.utf8))
        #expect(file["greeting"] == "Hello, %@!")
        #expect(file["quote"] == "She said \"hi\"\n\tand left \\ éA")
        #expect(file["unquoted"] == "word_1.2")
        #expect(file["same"] == "same")
        #expect(file["dup"] == "second")
    }

    /// Runs of one- to four-byte characters between escapes, and a string across lines:
    /// each run comes whole, and a later error's line and column count characters.
    @Test("multi-byte text between escapes, and the position of an error after it")
    func runs() throws {
        let text = "\"k\" = \"Grüße\\n日本 — \\\"ok\\\" 👍🏽\\U00E9\";\n\"l\" = \"line\none é\";\n"
        let file = try StringsFile(bytes: Array(text.utf8))
        #expect(file["k"] == "Grüße\n日本 — \"ok\" 👍🏽é")
        #expect(file["l"] == "line\none é")
        do {
            _ = try StringsFile(bytes: Array((text + "\"m\" = \"日本\" 👍").utf8))
            Issue.record("parsed")
        } catch {
            #expect("\(error)" == "4:11: expected \";\" after the value of \"m\", found \"👍\" at 4:12")
        }
    }

    @Test("UTF-16 with a byte-order mark, as Xcode writes it")
    func utf16() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "\"k\" = \"Grüße\";".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try StringsFile(bytes: bytes)["k"] == "Grüße")
    }

    @Test("UTF-16 without a byte-order mark, either order; an old-style dictionary's braces; the other property-list forms named plainly")
    func otherForms() throws {
        let text = "\"k\" = \"Grüße\";"
        var little: [UInt8] = [], big: [UInt8] = []
        for unit in text.utf16 {
            little += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            big += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        #expect(try StringsFile(bytes: little)["k"] == "Grüße")
        #expect(try StringsFile(bytes: big)["k"] == "Grüße")
        let braced = try StringsFile(bytes: Array("/* Xcode */\n{\n  \"a\" = \"b\";\n  c = d;\n}\n".utf8))
        #expect(braced["a"] == "b" && braced["c"] == "d")
        func error(_ text: String) -> String {
            do {
                _ = try StringsFile(bytes: Array(text.utf8))
                return "parsed"
            } catch {
                return "\(error)"
            }
        }
        #expect(error("{\n\"a\" = \"b\";\n") == "1:1: the { opened here is never closed with }")
        #expect(error("{ \"a\" = \"b\"; } x") == "1:16: nothing may follow the dictionary's closing }")
        #expect(error("<?xml version=\"1.0\"?><plist><dict/></plist>").hasPrefix("1:1: an XML property list"))
        #expect(error("bplist00\u{1}").hasPrefix("1:1: a binary property list"))
    }

    /// A templates folder of its own: each locale folder with its Localizable.strings.
    static func templates(_ folders: [(String, String)]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-folders-\(UUID().uuidString)").path
        for (folder, text) in folders {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/" + folder + "/Localizable.strings"))
        }
        return root
    }

    @Test("an app localized by region only (fr-FR.lproj, en-US.lproj, as Xcode's guide has it) goes over chime's built-in strings of the language for every reader of it, as Apple's bundles give a fr reader fr-FR; a folder of the language itself still comes first")
    func regionFoldersOverBuiltIn() throws {
        let root = try Self.templates([("fr-FR.lproj", #""ui.replyAbove" = "Répondez ici (app)";"#), ("en-US.lproj", #""ui.replyAbove" = "Reply here (app)";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let localizer = try Localizer(directory: root)
        for locale in ["fr", "fr-CA", "fr-FR", "fr-BE"] {
            #expect(localizer.string("ui.replyAbove", locale: locale)?.text == "Répondez ici (app)", "\(locale)")
        }
        for locale in ["en", "en-GB", "en-US", "en-AU"] {
            #expect(localizer.string("ui.replyAbove", locale: locale)?.text == "Reply here (app)", "\(locale)")
        }
        // A key the app does not give is still chime's French, not the app's English.
        #expect(localizer.string("ui.open", locale: "fr-CA")?.text == BuiltInStrings.parsed.strings["fr"]?["ui.open"])
        #expect(localizer.string("ui.replyAbove", locale: "de")?.text == BuiltInStrings.parsed.strings["de"]?["ui.replyAbove"])
        // The language's own folder wins over its region's for a reader of the language alone.
        let both = try Self.templates([("fr.lproj", #""ui.replyAbove" = "fr (app)";"#), ("fr-FR.lproj", #""ui.replyAbove" = "fr-FR (app)";"#)])
        defer { try? FileManager.default.removeItem(atPath: both) }
        #expect(try Localizer(directory: both).string("ui.replyAbove", locale: "fr-CA")?.text == "fr (app)")
        #expect(try Localizer(directory: both).string("ui.replyAbove", locale: "fr-FR")?.text == "fr-FR (app)")
    }

    @Test("what chime check takes for a key written in chime.xml: words joined by a dot or an underscore; not a title, an abbreviation, a version, a duration, an address or a URL")
    func keyLike() {
        for key in ["shopping.placeholdr", "ACTION_GO", "c.summary", "app-name.title_short"] {
            #expect(Localizer.looksLikeKey(key), "\(key)")
        }
        for value in ["OK", "Done.", "e.g.", "v2.0", "1.5h", "Mark_2", "you@example.com", "https://example.org/a.b", "Snooze 1h", "OK, got it", "Éditer.liste"] {
            #expect(!Localizer.looksLikeKey(value), "\(value)")
        }
    }

    @Test("a locale's folder named as Xcode names it: pt_BR, fr.lproj")
    func xcodeFolders() throws {
        let root = try Self.templates([("pt_BR", #""k" = "Olá";"#), ("it.lproj", #""k" = "Ciao";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let localizer = try Localizer(directory: root)
        #expect(localizer.string("k", locale: "pt-BR")?.text == "Olá")
        #expect(localizer.string("k", locale: "it-CH")?.text == "Ciao")
    }

    @Test("an old Xcode project's French.lproj is French; Base.lproj's strings are every locale's last fallback")
    func legacyAndBaseFolders() throws {
        let root = try Self.templates([("French.lproj", #""k" = "Bonjour";"#), ("Base.lproj", #""k" = "Hello";"# + "\n" + #""only.base" = "From Base";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let localizer = try Localizer(directory: root, builtIn: false)
        #expect(localizer.string("k", locale: "fr-CA")?.text == "Bonjour")
        #expect(localizer.string("k", locale: "de")?.text == "Hello")
        #expect(localizer.string("only.base", locale: "fr")?.text == "From Base")
    }

    @Test("Base.lproj holds the development language: its strings go over chime's built-in English for an English recipient and every locale falling back to English; en.lproj, where there is one, over Base's")
    func baseOverBuiltIn() throws {
        let root = try Self.templates([("Base.lproj", #""Snooze" = "Remind me later";"# + "\n" + #""shopping.placeholder" = "Something to buy";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let localizer = try Localizer(directory: root)
        #expect(localizer.string("Snooze", locale: "en")?.text == "Remind me later")
        #expect(localizer.string("shopping.placeholder", locale: "en-GB")?.text == "Something to buy")
        #expect(localizer.string("shopping.placeholder", locale: "ko")?.text == "Something to buy", "Korean has no strings: English's")
        #expect(localizer.string("Snooze", locale: "fr")?.text != "Remind me later", "French has its own")
        let both = try Self.templates([("Base.lproj", #""Snooze" = "Remind me later";"#), ("en.lproj", #""Snooze" = "Later";"#)])
        defer { try? FileManager.default.removeItem(atPath: both) }
        #expect(try Localizer(directory: both).string("Snooze", locale: "en")?.text == "Later")
    }

    @Test("CLDR's likely scripts and parent locales, as Apple's bundles match them; a tag in any case", arguments: [
        ("zh-TW", ["zh-TW", "zh-Hant-TW", "zh-Hant", "zh", "en"]), ("zh-CN", ["zh-CN", "zh-Hans-CN", "zh-Hans", "zh", "en"]),
        ("zh-Hant-HK", ["zh-Hant-HK", "zh-HK", "zh-Hant", "zh", "en"]), ("zh", ["zh", "zh-Hans", "en"]),
        ("es-MX", ["es-MX", "es-419", "es", "en"]), ("pt-AO", ["pt-AO", "pt-PT", "pt", "en"]), ("pt-BR", ["pt-BR", "pt", "en"]),
        ("FR", ["fr", "en"]), ("Fr-ca", ["fr-CA", "fr", "en"]), ("de-AT", ["de-AT", "de", "en"]), ("en-US", ["en-US", "en"]),
        ("en-AU", ["en-AU", "en-001", "en-GB", "en"]), ("en-IN", ["en-IN", "en-001", "en-GB", "en"]),
    ])
    func fallbackChain(tag: String, chain: [String]) {
        #expect(LocaleFallback.chain(tag, fallback: "en") == chain)
    }

    @Test("an iOS app's zh-Hans and zh-Hant folders serve zh-CN and zh-TW; es-419 serves es-MX")
    func scriptFolders() throws {
        let root = try Self.templates([("zh-Hans.lproj", #""k" = "简体";"#), ("zh-Hant.lproj", #""k" = "繁體";"#), ("es-419", #""k" = "Latinoamérica";"#), ("es", #""k" = "España";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let localizer = try Localizer(directory: root, builtIn: false)
        #expect(localizer.string("k", locale: "zh-CN")?.text == "简体")
        #expect(localizer.string("k", locale: "zh-TW")?.text == "繁體")
        #expect(localizer.string("k", locale: "zh-HK")?.text == "繁體")
        #expect(localizer.string("k", locale: "es-MX")?.text == "Latinoamérica")
        #expect(localizer.string("k", locale: "es-ES")?.text == "España")
        #expect(localizer.string("k", locale: "ZH-hant")?.text == "繁體")
    }

    @Test("a language's other regions serve it, as Apple's bundles match: en finds en-US.lproj, fr and fr-CA find fr-FR before English, pt-PT finds pt-BR; English outside the US takes en-GB before en; never another script's Chinese")
    func siblingRegions() throws {
        let regional = try Self.templates([("en-US.lproj", #""k" = "color";"#), ("fr-FR.lproj", #""k" = "couleur";"#), ("pt-BR.lproj", #""k" = "cor";"#),
                                           ("zh-Hans.lproj", #""k" = "颜色";"#)])
        defer { try? FileManager.default.removeItem(atPath: regional) }
        let localizer = try Localizer(directory: regional, builtIn: false)
        #expect(localizer.string("k", locale: "en")?.text == "color")
        #expect(localizer.string("k", locale: "fr")?.text == "couleur")
        #expect(localizer.string("k", locale: "fr-CA")?.text == "couleur")
        #expect(localizer.string("k", locale: "pt-PT")?.text == "cor")
        #expect(localizer.string("k", locale: "ja")?.text == "color", "the fallback language's region")
        #expect(localizer.string("k", locale: "zh-TW")?.text == "color", "Traditional Chinese never reads Simplified")
        #expect(localizer.chain(for: "fr-CA") == ["fr-FR", "en-US"])

        let british = try Self.templates([("en.lproj", #""c" = "color";"#), ("en-GB.lproj", #""c" = "colour";"#), ("en-CA.lproj", #""c" = "colour, eh";"#)])
        defer { try? FileManager.default.removeItem(atPath: british) }
        let english = try Localizer(directory: british, builtIn: false)
        #expect(english.string("c", locale: "en-AU")?.text == "colour")
        #expect(english.string("c", locale: "en-IN")?.text == "colour")
        #expect(english.string("c", locale: "en-CA")?.text == "colour, eh")
        #expect(english.string("c", locale: "en-US")?.text == "color")
        #expect(english.string("c", locale: "en")?.text == "color")
    }

    @Test("an emoji written as Apple writes it, a surrogate pair of \\U escapes")
    func surrogatePairs() throws {
        #expect(try StringsFile(bytes: Array(#""k" = "ok \UD83D\UDE00!";"#.utf8))["k"] == "ok 😀!")
    }

    @Test("bytes that are not text, a NUL and half a surrogate pair are errors at their line and column", arguments: [
        (Array("\"a\" = \"b\";\n\"c\" = \"caf".utf8) + [0xE9] + Array("\";".utf8), "2:11: not UTF-8 text here (a byte of another encoding, such as Latin-1?); save the file as UTF-8"),
        (Array("\"a\" = \"b\\0c\";".utf8), "1:9: a NUL character (\\0) cannot be sent in a message"),
        (Array("\"a\" = \"b\\U0000\";".utf8), "1:9: a NUL character (\\0) cannot be sent in a message"),
        (Array("\"a\" = \"b".utf8) + [0] + Array("\";".utf8), "1:9: a NUL character (\\0) cannot be sent in a message"),
        (Array("\"a\" = \"\\UD83D\";".utf8), "1:8: \\UD83D is half of a surrogate pair: the \\U of its second half must follow"),
        (Array("\"a\" = \"\\UDE00\";".utf8), "1:8: \\UDE00 is half of a surrogate pair without its first half"),
        ([0xFF, 0xFE, 0x22, 0x00, 0x00, 0xD8, 0x22, 0x00], "1:2: not UTF-16 text here (half of a surrogate pair); save the file as UTF-8 or UTF-16"),
        ([0xFF, 0xFE, 0x22, 0x00, 0x61], "1:2: the file ends in half a UTF-16 character (an odd number of bytes)"),
    ] as [([UInt8], String)])
    func notText(bytes: [UInt8], message: String) {
        do {
            _ = try StringsFile(bytes: bytes)
            Issue.record("parsed")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test("errors give line and column", arguments: [
        ("\"a\" = \"b\"\n\"c\" = \"d\";", "1:10: expected \";\" after the value of \"a\", found \"\"\" at 2:1"),
        ("\"a\" = \"b\" // no semicolon\n", "1:10: expected \";\" after the value of \"a\", found the end of the file"),
        ("\"a\" = \"b;", "1:7: a string is never closed"),
        ("/* open", "1:1: a /* comment is never closed"),
        ("\"a\" \"b\";", "1:5: expected \"=\", found \"\"\""),
    ])
    func errors(text: String, message: String) {
        do {
            _ = try StringsFile(bytes: Array(text.utf8))
            Issue.record("parsed")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test("format specifiers, positional and not", arguments: [
        ("%@ has %d items", ["Matt", "3"], "Matt has 3 items"),
        ("%2$@ before %1$@", ["one", "two"], "two before one"),
        ("%u%% done, %ld left, %lld total", ["50", "7", "100"], "50% done, 7 left, 100 total"),
        ("100%%", [], "100%"),
    ] as [(String, [FormatArgument], String)])
    func formats(format: String, arguments: [FormatArgument], expected: String) throws {
        #expect(try StringFormat.format(format, arguments) == expected)
    }

    @Test("%f, %e and %g write the language's decimal separator, as iOS's localizedStringWithFormat does: 2,5 km in French and German, 2.5 in English and without a language; integers are left alone")
    func localizedDecimals() throws {
        #expect(try StringFormat.format("%.1f km, %d stops", ["2.5", "3"], locale: "fr") == "2,5 km, 3 stops")
        #expect(try StringFormat.format("%.2f", ["2.5"], locale: "de-AT") == "2,50")
        #expect(try StringFormat.format("%.1f", ["2.5"], locale: "en-GB") == "2.5")
        #expect(try StringFormat.format("%.1f", ["2.5"]) == "2.5")
        #expect(try StringFormat.format("%5.1f|%g", ["2.5", "0.25"], locale: "ru") == "  2,5|0,25")
        // printf's zeros, rounding and no grouping, as %d has none, the separator alone changed.
        #expect(try StringFormat.format("%02d:%02d | %06.2f | %.1f | %.1f | %d", [5, 7, "3.14159", "12345.5", "2.45", 12345], locale: "pl")
            == "05:07 | 003,14 | 12345,5 | 2,5 | 12345")
        #expect(try StringFormat.format("%06.2f | %.1f", ["3.14159", "12345.5"], locale: "en") == "003.14 | 12345.5")
        // Arabic's separator goes with its own digits, never with Latin ones.
        let arabic = try StringFormat.format("%.1f", ["2.5"], locale: "ar")
        #expect(arabic == "\u{662}\u{66B}\u{665}" || arabic == "2.5", "\(arabic.unicodeScalars.map { String($0.value, radix: 16) })")
        // Through the templates' strings, for the recipient's language, plain or plural.
        let root = try Self.templates([("fr", #""run.distance" = "Course : %.1f km";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let localizer = try Localizer(directory: root)
        #expect(try localizer.formatted("run.distance", ["2.5"], locale: "fr-FR") == "Course : 2,5 km")
        let entry = StringsDictFile.Entry(format: "%#@n@", variables: ["n": [.one: "%.1f kilomètre", .other: "%.1f kilomètres"]])
        #expect(try entry.format(["2.5"], rules: PluralData.rules(for: "fr"), locale: "fr") == "2,5 kilomètres")
    }

    @Test("text around the specifiers is copied as it is, in any script, and the specifiers read whatever follows them", arguments: [
        ("é %@ ü", ["ß"], "é ß ü"),
        ("%@👍%d👍🏽", ["a", 2], "a👍2👍🏽"),
        ("日本 %1$@ と %2$@。", ["x", "y"], "日本 x と y。"),
        ("%%%@%%", ["z"], "%z%"),
        ("ends with %", [], "ends with %"),
        // Flags, width and precision as iOS applies them: a clock's "%02d:%02d".
        ("%5d|%-3@|%.2ld|%'d", ["7", "ab", "9", 12], "    7|ab |09|12"),
        ("%02d:%02d", [9, 5], "09:05"),
        ("[%+d] [%-4d] [%#x] [%5@]", [42, 42, 255, "ab"], "[+42] [42  ] [0xff] [   ab]"),
        ("%.2f € · %f · %.1e · %g", ["3.14159", 2, "1234.5", "0.5"], "3.14 € · 2.000000 · 1.2e+03 · 0.5"),
        ("%x %X %o %u", [255, 255, 8, -1], "ff FF 10 18446744073709551615"),
        ("%10$@", ["1", "2", "3", "4", "5", "6", "7", "8", "9", "ten"], "ten"),
        ("", [], ""),
        ("no specifier, ünïcödé", [], "no specifier, ünïcödé"),
    ] as [(String, [FormatArgument], String)])
    func formatText(format: String, arguments: [FormatArgument], expected: String) throws {
        #expect(try StringFormat.format(format, arguments) == expected)
    }

    @Test("a variable is the closure's text for its argument, positional or not, beside other specifiers")
    func formatVariables() throws {
        let variable: (String, FormatArgument) -> String = { name, argument in "<\(name) \(argument.textValue)>" }
        #expect(try StringFormat.format("%#@items@ left", [3], variable: variable) == "<items 3> left")
        #expect(try StringFormat.format("%1$#@n@ und %2$@ %%", [1, "b"], variable: variable) == "<n 1> und b %")
        #expect(try StringFormat.format("ü%#@ä@ü", ["x"], variable: variable) == "ü<ä x>ü")
        #expect(throws: StringFormat.Failure.self) { try StringFormat.format("%#@items@", [3]) }
        // A name never closed (a typo in a strings file) runs to the end: it read past
        // the text, a crash, before.
        #expect(try StringFormat.format("left: %#@items", [3], variable: variable) == "left: <items 3>")
    }

    @Test("a missing argument or a word for %d is an error, never a crash")
    func formatErrors() {
        #expect(throws: StringFormat.Failure.self) { try StringFormat.format("%@ and %@", ["one"]) }
        #expect(throws: StringFormat.Failure.self) { try StringFormat.format("%d", ["many"]) }
        #expect(throws: StringFormat.Failure.self) { try StringFormat.format("%é", ["a"]) }
        #expect(throws: StringFormat.Failure.self) { try StringFormat.format("%0$@", ["a"]) }
    }

    private let stringsdict = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
          <key>reminders.more</key>
          <dict>
            <key>NSStringLocalizedFormatKey</key>
            <string>%#@reminders@ from %@</string>
            <key>reminders</key>
            <dict>
              <key>NSStringFormatSpecTypeKey</key>
              <string>NSStringPluralRuleType</string>
              <key>NSStringFormatValueTypeKey</key>
              <string>d</string>
              <key>one</key>
              <string>%d напоминание</string>
              <key>few</key>
              <string>%d напоминания</string>
              <key>many</key>
              <string>%d напоминаний</string>
              <key>other</key>
              <string>%d напоминания</string>
            </dict>
          </dict>
        </dict>
        </plist>
        """

    @Test("stringsdict plurals by CLDR rules", arguments: [
        (1, "1 напоминание от Matt"), (2, "2 напоминания от Matt"), (5, "5 напоминаний от Matt"),
        (21, "21 напоминание от Matt"), (22, "22 напоминания от Matt"), (111, "111 напоминаний от Matt"),
    ])
    func stringsdictPlurals(count: Int, expected: String) throws {
        let file = try StringsDictFile(bytes: Array(stringsdict.replacingOccurrences(of: " from ", with: " от ").utf8), path: "ru.stringsdict")
        let entry = try #require(file["reminders.more"])
        #expect(try entry.format([.integer(count), "Matt"], rules: PluralData.rules(for: "ru")) == expected)
    }

    @Test("a variant without its number leaves the arguments after it where they were: one more from Bob, not from 1")
    func variantWithoutNumber() throws {
        let entry = StringsDictFile.Entry(format: "%#@more@ from %@", variables: ["more": [.one: "one more reminder", .two: "two more reminders", .other: "%u more reminders"]])
        #expect(try entry.format([1, "Bob"], rules: PluralData.rules(for: "en")) == "one more reminder from Bob")
        #expect(try entry.format([5, "Bob"], rules: PluralData.rules(for: "en")) == "5 more reminders from Bob")
        #expect(try entry.format([2, "Bob"], rules: PluralData.rules(for: "ar")) == "two more reminders from Bob")
        let second = StringsDictFile.Entry(format: "%@: %#@left@ (%@)", variables: ["left": [.one: "last one", .other: "%d left, %%"]])
        #expect(try second.format(["Milk", 1, "today"], rules: PluralData.rules(for: "en")) == "Milk: last one (today)")
        #expect(try second.format(["Milk", 3, "today"], rules: PluralData.rules(for: "en")) == "Milk: 3 left, % (today)")
    }

    @Test("a decimal chooses its variant by CLDR's operands, not as 0", arguments: [
        ("en", "2.5", "2.5 km to go"), ("en", "1.0", "1.0 km to go"), ("en", "1", "1 kilometre to go"), ("en", "0", "You have arrived"),
        ("ru", "1.5", "1.5 км осталось"), ("ru", "5", "5 километров осталось"), ("fr", "1.5", "1.5 kilomètre restant"),
    ])
    func decimalPlurals(locale: String, value: String, expected: String) throws {
        let variants: [String: [PluralCategory: String]] = [
            "en": [.zero: "You have arrived", .one: "%@ kilometre to go", .other: "%@ km to go"],
            "ru": [.zero: "Вы на месте", .one: "%@ километр остался", .few: "%@ километра осталось", .many: "%@ километров осталось", .other: "%@ км осталось"],
            "fr": [.zero: "Vous êtes arrivé", .one: "%@ kilomètre restant", .many: "%@ kilomètres restants", .other: "%@ kilomètres restants"],
        ]
        let entry = StringsDictFile.Entry(format: "%#@km@", variables: ["km": variants[locale]!])
        #expect(try entry.format([.string(value)], rules: PluralData.rules(for: locale)) == expected)
    }

    @Test("width variants (Xcode's Vary by Device) are read as the widest, the plural entries beside them as they are")
    func widthVariants() throws {
        let file = try StringsDictFile(bytes: Array(stringsdict.replacingOccurrences(of: "<dict>\n  <key>reminders.more</key>", with: """
            <dict>
              <key>welcome</key>
              <dict>
                <key>NSStringVariableWidthRuleType</key>
                <dict>
                  <key>20</key>
                  <string>Hi</string>
                  <key>100</key>
                  <string>Welcome back to your reminders</string>
                  <key>50</key>
                  <string>Welcome back</string>
                </dict>
              </dict>
              <key>reminders.more</key>
            """).utf8), path: "en.stringsdict")
        #expect(try file["welcome"]?.format([], rules: PluralData.rules(for: "en")) == "Welcome back to your reminders")
        #expect(try file["reminders.more"]?.format([5, "Matt"], rules: PluralData.rules(for: "ru")) == "5 напоминаний from Matt")
    }

    @Test("a stringsdict variable without an other variant (Russian's one, few and many) is read as iOS reads it: every whole number written, a fraction refused by name, and a warning at its line for chime check")
    func stringsdictWithoutOther() throws {
        let file = try StringsDictFile(bytes: Array(stringsdict.replacingOccurrences(of: "<key>other</key>\n      <string>%d напоминания</string>", with: "").utf8),
                                       path: "x.stringsdict")
        let entry = try #require(file["reminders.more"])
        let russian = PluralData.rules(for: "ru")
        #expect(try entry.format([1, "Matt"], rules: russian) == "1 напоминание from Matt")
        #expect(try entry.format([3, "Matt"], rules: russian) == "3 напоминания from Matt")
        #expect(try entry.format([11, "Matt"], rules: russian) == "11 напоминаний from Matt")
        #expect(throws: StringFormat.Failure.self) { try entry.format(["1.5", "Matt"], rules: russian) }
        #expect(file.problems.map(\.description) == [
            #"x.stringsdict:10:5: warning: variable "reminders" of "reminders.more" has no "other" variant: a count of a category it lacks (a fraction such as 1.5, in most languages) cannot be written, and its message is held"#,
        ])
    }
}
