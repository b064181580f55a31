import ChimeLocalization
import Foundation
import Testing

/// The strings compiled into chime are the shipped templates/, every locale of it.
@Suite("Built-in strings")
struct BuiltInStringsTests {
    static let templates = ThreadSummaryTests.templates

    @Test("every locale folder of templates/ is compiled in, each of its strings and plurals read back as the folder has them")
    func everyLocale() throws {
        let builtIn = try Localizer(directory: "/nonexistent/templates")
        let folder = try Localizer(directory: Self.templates, builtIn: false)
        let shipped = try FileManager.default.contentsOfDirectory(atPath: Self.templates).filter { !$0.hasPrefix(".") }.sorted()
        #expect(shipped.count >= 8)
        #expect(builtIn.locales == shipped, "a locale of templates/ is missing from Package.swift's builtInLocales and BuiltInStrings")
        for locale in shipped {
            let text = try String(contentsOfFile: "\(Self.templates)/\(locale)/Localizable.strings", encoding: .utf8)
            let keys = text.matches(of: /(?m)^"([^"]+)"\s*=/).map { String($0.output.1) }
            #expect(keys.count > 20, "\(locale)")
            for key in keys {
                #expect(builtIn.string(key, locale: locale)?.text == folder.string(key, locale: locale)?.text, "\(locale): \(key)")
            }
            let dict = try String(contentsOfFile: "\(Self.templates)/\(locale)/Localizable.stringsdict", encoding: .utf8)
            let plurals = dict.matches(of: /(?m)^    <key>([^<]+)<\/key>/).map { String($0.output.1) }
            #expect(plurals.count >= 5, "\(locale)")
            for key in plurals {
                let entry = try #require(builtIn.plural(key, locale: locale)?.entry, "\(locale): \(key)")
                #expect(entry == folder.plural(key, locale: locale)?.entry, "\(locale): \(key)")
            }
        }
    }

    @Test("a folder with the shipped files and one changed: the changed file's strings win, the shipped ones read as built in")
    func shippedAndChanged() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-strings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(atPath: Self.templates, toPath: root.path)
        let english = root.appendingPathComponent("en/Localizable.strings")
        let text = try String(contentsOf: english, encoding: .utf8)
        let key = try #require(text.firstMatch(of: /(?m)^"([^"]+)"\s*=/)).output.1
        try (text + "\n\"\(key)\" = \"Changed here\";\n").write(to: english, atomically: true, encoding: .utf8)
        let changed = try Localizer(directory: root.path)
        let builtIn = try Localizer(directory: "/nonexistent/templates")
        #expect(changed.string(String(key), locale: "en")?.text == "Changed here")
        #expect(changed.string(String(key), locale: "fr")?.text == builtIn.string(String(key), locale: "fr")?.text)
        #expect(changed.locales == builtIn.locales)
        // A broken copy of a shipped file is still read, and refused.
        try (text + "\n\"unterminated = \"x\";\n").write(to: english, atomically: true, encoding: .utf8)
        #expect(throws: Localizer.LoadError.self) { try Localizer(directory: root.path) }
    }

    @Test("a strings file that never ends (a link to /dev/zero) is named and refused past 16 MiB, not read until memory runs out")
    func endlessStrings() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-strings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("fr"), withIntermediateDirectories: true)
        let strings = root.appendingPathComponent("fr/Localizable.strings").path
        try FileManager.default.createSymbolicLink(atPath: strings, withDestinationPath: "/dev/zero")
        let error = #expect(throws: Localizer.LoadError.self) { try Localizer(directory: root.path) }
        #expect(error?.description == "\(strings): error: larger than 16 MiB", "\(String(describing: error))")
    }
}
