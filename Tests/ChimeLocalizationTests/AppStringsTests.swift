import ChimeCore
@testable import ChimeLocalization
import Foundation
import Testing

/// An iOS app's strings as its developer brings them: plural variants that carry the other
/// arguments, variables within variants, device variants, and a language that words a key
/// without plural forms where the fallback language has them.
@Suite("An iOS app's strings brought over")
struct AppStringsTests {
    private let english = PluralData.rules(for: "en")

    /// A `.stringsdict` plist of entries, each a format and its variables' variants, as
    /// Xcode writes one (the variables in the order given).
    static func plist(_ entries: [(key: String, format: String, variables: [(String, [(String, String)])])]) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        var body = ""
        for entry in entries {
            body += "  <key>\(entry.key)</key>\n  <dict>\n    <key>NSStringLocalizedFormatKey</key>\n    <string>\(escaped(entry.format))</string>\n"
            for (name, variants) in entry.variables {
                body += "    <key>\(name)</key>\n    <dict>\n      <key>NSStringFormatSpecTypeKey</key>\n      <string>NSStringPluralRuleType</string>\n"
                body += "      <key>NSStringFormatValueTypeKey</key>\n      <string>d</string>\n"
                for (category, text) in variants { body += "      <key>\(category)</key>\n      <string>\(escaped(text))</string>\n" }
                body += "    </dict>\n"
            }
            body += "  </dict>\n"
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)</dict>
            </plist>
            """
    }

    /// A templates folder: each locale's files by name.
    static func folder(_ files: [(locale: String, name: String, text: String)]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-app-strings-\(UUID().uuidString)").path
        for file in files {
            try FileManager.default.createDirectory(atPath: root + "/" + file.locale, withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: root + "/" + file.locale + "/" + file.name))
        }
        return root
    }

    @Test("a variant's own %@ takes the argument after the count, as Foundation reads it: 3 more messages from Matt, not from 3")
    func variantArguments() throws {
        let entry = StringsDictFile.Entry(format: "%#@more@", variables: ["more": [.one: "%u more message from %@", .other: "%u more messages from %@"]])
        #expect(try entry.format([3, "Matt"], rules: english) == "3 more messages from Matt")
        #expect(try entry.format([1, "Matt"], rules: english) == "1 more message from Matt")
        // Numbered in the variant, the numbers are the whole format's.
        let numbered = StringsDictFile.Entry(format: "%#@more@", variables: ["more": [.other: "%2$@: %1$u more"]])
        #expect(try numbered.format([4, "Ops"], rules: english) == "Ops: 4 more")
    }

    @Test("the summary of a thread worded in a stringsdict names its senders, and without any falls back to the count alone")
    func summaryFromStringsdict() throws {
        let root = try Self.folder([("en", "Localizable.stringsdict", Self.plist([
            ("msg.summary", "%#@more@", [("more", [("one", "%u more message from %@"), ("other", "%u more messages from %@")])]),
        ]))])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let summary = ThreadSummary(localizer: try Localizer(directory: root))
        #expect(try summary.text(format: "msg.summary", count: 3, arguments: ["Matt", "Anna"], locale: "en") == "3 more messages from Matt and Anna")
        #expect(try summary.text(format: "msg.summary", count: 3, arguments: [], locale: "en") == "3 more notifications")
    }

    @Test("a variable named in a variant is expanded in turn: 1 photo and 2 videos")
    func nestedVariables() throws {
        let entry = StringsDictFile.Entry(format: "%#@photos@", variables: [
            "photos": [.one: "%d photo and %#@videos@", .other: "%d photos and %#@videos@"],
            "videos": [.one: "%d video", .other: "%d videos"],
        ])
        #expect(try entry.format([1, 2], rules: english) == "1 photo and 2 videos")
        #expect(try entry.format([3, 1], rules: english) == "3 photos and 1 video")
    }

    @Test("a variant that names itself, or whose variables multiply, is an error, not a run without end")
    func endlessVariables() {
        let itself = StringsDictFile.Entry(format: "%#@a@", variables: ["a": [.other: "%d and %#@a@"]])
        #expect(throws: StringFormat.Failure.self) { try itself.format([1], rules: english) }
        // Three deep, each variant naming the next 60 times: 3,600 copies of the last.
        let fanned = StringsDictFile.Entry(format: "%#@a@", variables: [
            "a": [.other: String(repeating: "%1$#@b@ ", count: 60)], "b": [.other: String(repeating: "%1$#@c@ ", count: 60)],
            "c": [.other: String(repeating: "x", count: 100)],
        ])
        #expect(throws: StringFormat.Failure.self) { try fanned.format([1], rules: english) }
    }

    @Test("chime check names a variable a variant uses and the entry does not define")
    func undefinedNestedVariable() throws {
        let text = Self.plist([("k", "%#@photos@", [("photos", [("other", "%d photos and %#@videos@")])])])
        let file = try StringsDictFile(bytes: Array(text.utf8), path: "en.stringsdict")
        #expect(file.problems.map(\.message) == [#"entry "k": %#@videos@ names no variable of the entry (it has photos)"#])
    }

    @Test("device variants (Xcode's Vary by Device) are read as other's text, else the iPhone's, and the file beside them still works")
    func deviceVariants() throws {
        func entry(_ devices: [(String, String)]) -> String {
            let pairs = devices.map { "        <key>\($0.0)</key>\n        <string>\($0.1)</string>\n" }.joined()
            return "  <key>tap</key>\n  <dict>\n    <key>NSStringDeviceSpecificRuleType</key>\n    <dict>\n\(pairs)    </dict>\n  </dict>\n"
        }
        let plural = Self.plist([("n", "%#@n@", [("n", [("one", "%d item"), ("other", "%d items")])])])
        for (devices, expected) in [([("mac", "Click to open"), ("iphone", "Tap to open")], "Tap to open"),
                                    ([("mac", "Click to open"), ("other", "Open it")], "Open it")] {
            let text = plural.replacingOccurrences(of: "<dict>\n  <key>n</key>", with: "<dict>\n" + entry(devices) + "  <key>n</key>")
            let file = try StringsDictFile(bytes: Array(text.utf8), path: "en.stringsdict")
            #expect(try file["tap"]?.format([], rules: english) == expected)
            #expect(try file["n"]?.format([2], rules: english) == "2 items")
        }
    }

    @Test("a language's own strings file wins over the fallback language's plural forms of the key, as iOS reads one folder")
    func ownStringsBeforeFallbackPlurals() throws {
        let root = try Self.folder([
            ("en", "Localizable.stringsdict", Self.plist([("NEW_ITEMS", "%#@n@", [("n", [("one", "%d new item"), ("other", "%d new items")])])])),
            ("ja", "Localizable.strings", #""NEW_ITEMS" = "新着%d件";"#),
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let localizer = try Localizer(directory: root)
        #expect(try localizer.formatted("NEW_ITEMS", [3], locale: "ja") == "新着3件")
        #expect(try localizer.formatted("NEW_ITEMS", [1], locale: "en") == "1 new item")
        #expect(try localizer.formatted("NEW_ITEMS", [1], locale: "de") == "1 new item")
    }

    @Test("a built-in plural key worded again in a folder's strings file is that wording; with the folder's own stringsdict, the stringsdict's")
    func builtInPluralReworded() throws {
        let builtIn = try Localizer(directory: "/nonexistent/templates")
        let shipped = try #require(try builtIn.formatted("digest.subject", [3], locale: "fr"))
        let root = try Self.folder([("fr", "Localizable.strings", #""digest.subject" = "Vos rappels (%d)";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let reworded = try Localizer(directory: root)
        #expect(try reworded.formatted("digest.subject", [3], locale: "fr") == "Vos rappels (3)")
        #expect(try reworded.formatted("digest.subject", [3], locale: "de") == builtIn.formatted("digest.subject", [3], locale: "de"))
        try Data(Self.plist([("digest.subject", "%#@n@", [("n", [("one", "%d rappel"), ("other", "%d rappels")])])]).utf8)
            .write(to: URL(fileURLWithPath: root + "/fr/Localizable.stringsdict"))
        #expect(try Localizer(directory: root).formatted("digest.subject", [3], locale: "fr") == "3 rappels")
        #expect(shipped != "Vos rappels (3)")
    }

    @Test("a String Catalog's plural variations and substitutions are plural entries; a key without source text is its own; a locale folder's strings win over the catalog")
    func stringCatalog() throws {
        let catalog = #"""
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Hello" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "Bonjour" } } } },
                "%lld items" : {
                  "localizations" : {
                    "en" : { "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld item" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld items" } } } } },
                    "pl" : { "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld element" } },
                      "few" : { "stringUnit" : { "state" : "translated", "value" : "%lld elementy" } },
                      "many" : { "stringUnit" : { "state" : "translated", "value" : "%lld elementów" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld elementu" } } } } }
                  }
                },
                "from %@: %lld new" : {
                  "localizations" : {
                    "en" : { "variations" : { "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "From %@: one new reminder" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "From %@: %lld new reminders" } } } } }
                  }
                },
                "media" : {
                  "localizations" : {
                    "en" : {
                      "stringUnit" : { "state" : "translated", "value" : "%#@photos@ and %#@videos@" },
                      "substitutions" : {
                        "photos" : { "argNum" : 1, "formatSpecifier" : "lld", "variations" : { "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg photo" } },
                          "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg photos" } } } } },
                        "videos" : { "argNum" : 2, "formatSpecifier" : "lld", "variations" : { "plural" : {
                          "one" : { "stringUnit" : { "state" : "translated", "value" : "%arg video" } },
                          "other" : { "stringUnit" : { "state" : "translated", "value" : "%arg videos" } } } } }
                      }
                    }
                  }
                },
                "Overridden" : { "localizations" : { "fr" : { "stringUnit" : { "state" : "translated", "value" : "Du catalogue" } } } }
              },
              "version" : "1.0"
            }
            """#
        let root = try Self.folder([("fr", "Localizable.strings", #""Overridden" = "Du dossier";"#)])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data(catalog.utf8).write(to: URL(fileURLWithPath: root + "/Localizable.xcstrings"))
        let localizer = try Localizer(directory: root)
        #expect(localizer.string("Hello", locale: "fr-CA")?.text == "Bonjour")
        #expect(localizer.string("Hello", locale: "en")?.text == "Hello")
        #expect(try localizer.formatted("%lld items", [1], locale: "en") == "1 item")
        #expect(try localizer.formatted("%lld items", [5], locale: "pl") == "5 elementów")
        #expect(try localizer.formatted("%lld items", [22], locale: "pl") == "22 elementy")
        #expect(try localizer.formatted("from %@: %lld new", ["Anna", 1], locale: "en") == "From Anna: one new reminder")
        #expect(try localizer.formatted("from %@: %lld new", ["Anna", 3], locale: "en") == "From Anna: 3 new reminders")
        #expect(try localizer.formatted("media", [1, 2], locale: "en") == "1 photo and 2 videos")
        #expect(try localizer.formatted("media", [3, 1], locale: "en") == "3 photos and 1 video")
        #expect(localizer.string("Overridden", locale: "fr")?.text == "Du dossier")
        #expect(localizer.locales.contains("pl"))
    }

    @Test("a String Catalog that is not one is refused naming the file")
    func brokenCatalog() throws {
        let root = try Self.folder([])
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for text in [#"{"sourceLanguage": "en", "strings": {"a": {}},, }"#, #"{"sourceLanguage": "en"}"#, #"{"strings": {"k": {"localizations": {"en": {"variations": {"plural": {"one": {"stringUnit": {"value": "x"}}}}}}}}}"#] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/Localizable.xcstrings"))
            let error = #expect(throws: Localizer.LoadError.self) { try Localizer(directory: root) }
            #expect(error?.diagnostics.first?.location.file == root + "/Localizable.xcstrings", "\(String(describing: error))")
        }
    }
}
