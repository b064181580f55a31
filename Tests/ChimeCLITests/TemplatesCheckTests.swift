import Foundation
import Testing

@Suite("chime check reads the templates")
struct TemplatesCheckTests {
    private static let configuration = """
        <chime version="1">
          <categories>
            <category identifier="c" hiddenPreviewsBodyPlaceholder="c.placeholder">
              <action identifier="ok" title="OK"/>
            </category>
          </categories>
          <channels><channel id="log" url="file:./sent.jsonl"/></channels>
          <recipients>
            <recipient id="francois" locale="fr-CA" timeZone="America/Toronto"><address channel="log"/></recipient>
          </recipients>
        </chime>
        """

    private func workspace(fr: String) throws -> Workspace {
        let ws = try Workspace(configuration: Self.configuration)
        try FileManager.default.createDirectory(atPath: ws.path("templates/en"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws.path("templates/fr"), withIntermediateDirectories: true)
        try ws.write("templates/en/Localizable.strings", "\"c.placeholder\" = \"Reminder\";\n\"OK\" = \"OK\";\n")
        try ws.write("templates/fr/Localizable.strings", fr)
        return ws
    }

    @Test("a key missing for a recipient's language is reported with the locale that supplies it")
    func missingKey() throws {
        let ws = try workspace(fr: "\"OK\" = \"D'accord\";\n")
        let result = try ws.chime(["check"])
        #expect(result.status == 0)
        #expect(result.stdout == "ok: 1 category, 1 action, 1 channel, 1 recipient\n")
        #expect(result.stderr == "templates/fr: warning: \"c.placeholder\" is missing for fr-CA; en supplies it\n")
    }

    @Test("an action title a recipient's locale translates as nothing is an error, exit 65, at that locale's strings file: no platform shows an empty button")
    func emptyTitle() throws {
        let ws = try workspace(fr: "\"c.placeholder\" = \"Rappel\";\n\"OK\" = \"  \";\n")
        let result = try ws.chime(["check"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("templates/fr/Localizable.strings:2:1: error: \"OK\" is empty for fr: an action's title is its button's label"), "\(result.stderr)")
    }

    @Test("a missing key is reported at the folder its locale's strings came from (pt-BR.lproj), or at the templates folder when the locale has none there (none at all, or only chime's built-in Arabic)")
    func missingKeyFolders() throws {
        let ws = try Workspace(configuration: Self.configuration
            .replacingOccurrences(of: #"locale="fr-CA""#, with: #"locale="pt-BR""#)
            .replacingOccurrences(of: "</recipients>", with: #"<recipient id="li" locale="zh-Hans" timeZone="Asia/Shanghai"><address channel="log"/></recipient>"#
                + #"<recipient id="amal" locale="ar" timeZone="Africa/Cairo"><address channel="log"/></recipient></recipients>"#))
        try FileManager.default.createDirectory(atPath: ws.path("templates/en.lproj"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws.path("templates/pt-BR.lproj"), withIntermediateDirectories: true)
        try ws.write("templates/en.lproj/Localizable.strings", "\"c.placeholder\" = \"Reminder\";\n\"OK\" = \"OK\";\n")
        try ws.write("templates/pt-BR.lproj/Localizable.strings", "\"OK\" = \"OK\";\n")
        let result = try ws.chime(["check"])
        #expect(result.stderr.contains("templates/pt-BR.lproj: warning: \"c.placeholder\" is missing for pt-BR; en supplies it"), "\(result.stderr)")
        #expect(result.stderr.contains("templates: warning: \"c.placeholder\" is missing for zh-Hans; en supplies it"), "\(result.stderr)")
        #expect(result.stderr.contains("templates: warning: \"c.placeholder\" is missing for ar; en supplies it"), "\(result.stderr)")
        #expect(!result.stderr.contains("templates/ar"), "\(result.stderr)")
    }

    @Test("an Xcode String Catalog (templates/Localizable.xcstrings) serves every language it holds: chime check finds no key missing, a reminder in French carries its words; a broken one is an error at its line and column, exit 65")
    func stringCatalog() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try FileManager.default.createDirectory(atPath: ws.path("templates"), withIntermediateDirectories: true)
        try ws.write("templates/README", "Our translations.\n")
        try ws.write("templates/Localizable.xcstrings", #"""
            {
              "sourceLanguage" : "en",
              "strings" : {
                "c.placeholder" : {
                  "localizations" : {
                    "en" : { "stringUnit" : { "state" : "translated", "value" : "Reminder" } },
                    "fr" : { "stringUnit" : { "state" : "translated", "value" : "Rappel privé" } }
                  }
                },
                "OK" : {
                  "localizations" : {
                    "fr" : { "variations" : { "device" : {
                      "mac" : { "stringUnit" : { "state" : "translated", "value" : "Cliquer : d'accord" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "D'accord" } }
                    } } }
                  }
                }
              },
              "version" : "1.0"
            }
            """#)
        let result = try ws.chime(["check"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        try ws.write("r.json", #"{"identifier": "r", "recipient": "francois", "content": {"title": "Thé", "categoryIdentifier": "c"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let shown = try ws.chime(["preview", "--json", "r.json", "--channel", "log", "--previews", "never"])
        #expect(shown.status == 0 && shown.stdout.contains("Rappel privé") && shown.stdout.contains("D'accord") && !shown.stdout.contains("Cliquer"), "\(shown.stdout)")
        try ws.write("templates/Localizable.xcstrings", "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"OK\" : { } ,, }\n}\n")
        let broken = try ws.chime(["check"])
        #expect(broken.status == 65 && broken.stderr.hasPrefix("templates/Localizable.xcstrings:3:29: error: not a String Catalog"), "\(broken.stderr)")
    }

    @Test("a malformed strings file is an error at its line and column: a missing ; where it belongs, after the value")
    func malformed() throws {
        let ws = try workspace(fr: "\"OK\" = \"D'accord\"\n\"c.placeholder\" = \"Rappel\";\n")
        let result = try ws.chime(["check"])
        #expect(result.status == 65)
        #expect(result.stderr == "templates/fr/Localizable.strings:1:18: error: expected \";\" after the value of \"OK\", found \"\"\" at 2:1\n")
    }

    @Test("a key given twice in one strings file is a warning at the later one, which wins")
    func duplicateKey() throws {
        let ws = try workspace(fr: "\"c.placeholder\" = \"Rappel\";\n\"OK\" = \"D'accord\";\n/* again */\n  \"c.placeholder\" = \"Autre\";\n\"c.placeholder\" = \"Encore\";\n")
        let result = try ws.chime(["check"])
        #expect(result.status == 0)
        #expect(result.stderr == """
            templates/fr/Localizable.strings:4:3: warning: "c.placeholder" is given twice (first on line 1); this later one wins
            templates/fr/Localizable.strings:5:1: warning: "c.placeholder" is given twice (first on line 1); this later one wins

            """, "\(result.stderr)")
    }

    @Test("a templates folder named but missing exits 66")
    func missingFolder() throws {
        let ws = try workspace(fr: "")
        #expect(try ws.chime(["check", "--templates", "nowhere"]).status == 66)
    }

    @Test("chime check warns of what would quietly not be used: a template override no message uses (with the name meant), a value written as a key that no locale has (shown as written), a state folder missing while an action runs a command")
    func quietlyUnused() throws {
        let ws = try Workspace(configuration: Self.configuration
            .replacingOccurrences(of: #"hiddenPreviewsBodyPlaceholder="c.placeholder""#, with: #"hiddenPreviewsBodyPlaceholder="c.placeholdr""#)
            .replacingOccurrences(of: #"<action identifier="ok" title="OK"/>"#,
                                  with: #"<action identifier="ok" title="OK"/><action identifier="go" title="ACTION_GO"><hook command="true"/></action><action identifier="fine" title="Done."/>"#))
        try FileManager.default.createDirectory(atPath: ws.path("templates/en"), withIntermediateDirectories: true)
        try ws.write("templates/en/Localizable.strings", "\"c.placeholder\" = \"Reminder\";\n")
        try FileManager.default.createDirectory(atPath: ws.path("templates/mustache/cc"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: ws.path("templates/mustache/c"), withIntermediateDirectories: true)
        for file in ["email.txt.mustache", "cc/email.text.mustache", "c/chat.text.mustache", "chat.text.mustache"] {
            try ws.write("templates/mustache/" + file, "{{title}}\n")
        }
        let result = try ws.chime(["--state-dir", "no-such-state", "check"])
        #expect(result.status == 0, "warnings only: \(result)")
        let warnings = result.stderr.split(separator: "\n").map(String.init)
        #expect(warnings.contains { $0.hasPrefix("templates/mustache/email.txt.mustache: warning: no message uses this template (did you mean email.text.mustache?)") }, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("templates/mustache/cc/email.text.mustache: warning: no message uses this template (did you mean c/email.text.mustache?)") }, "\(warnings)")
        #expect(!warnings.contains { $0.contains("c/chat.text.mustache:") || $0.hasPrefix("templates/mustache/chat.text.mustache") }, "used: \(warnings)")
        #expect(warnings.contains("chime.xml: warning: \"c.placeholdr\" names no string of any locale (did you mean \"c.placeholder\"?), and is shown as written"), "\(warnings)")
        #expect(warnings.contains("chime.xml: warning: \"ACTION_GO\" names no string of any locale, and is shown as written"), "\(warnings)")
        #expect(!warnings.contains { $0.contains("\"Done.\"") || $0.contains("\"OK\"") }, "plain words are words: \(warnings)")
        #expect(warnings.contains { $0.hasPrefix("no-such-state: warning: the state folder, where command hooks run, does not exist: every hook would fail") }, "\(warnings)")
        try FileManager.default.createDirectory(atPath: ws.path("state"), withIntermediateDirectories: true)
        #expect(!(try ws.chime(["--state-dir", "state", "check"]).stderr.contains("state folder")))
    }

    @Test("the shipped templates cover the example configuration in every shipped language")
    func shipped() throws {
        for locale in ["en", "fr", "de", "es", "ru", "pl", "ar", "ja"] {
            let config = try String(contentsOf: ChimeProcess.repositoryRoot.appendingPathComponent("deploy/chime.example.xml"), encoding: .utf8)
                .replacingOccurrences(of: "locale=\"en\"", with: "locale=\"\(locale)\"")
            let ws = try Workspace(configuration: config)
            let result = try ws.chime(["check", "--templates", ChimeProcess.repositoryRoot.appendingPathComponent("templates").path])
            #expect(result.status == 0, "\(locale): \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(locale): \(result.stderr)")
        }
    }
}
