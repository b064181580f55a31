import Foundation
import Testing

/// Point 17 of the first week, in part: what `chime check` and `chime schedule` say of a
/// mistyped locale, element, attribute or JSON field.
extension OperatorTests {
    /// A `Localizable.stringsdict` of one entry, `key`, whose format is `format` and whose
    /// one variable, `more`, has `variants` by category (an `other` of "%u more" unless
    /// given); the entry's `<dict>` is at 5:3, the variable's at 9:5.
    static func stringsdict(_ key: String, _ format: String, variants: KeyValuePairs<String, String> = ["other": "%u more"]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
          <key>\(key)</key>
          <dict>
            <key>NSStringLocalizedFormatKey</key>
            <string>\(format)</string>
            <key>more</key>
            <dict>
              <key>NSStringFormatSpecTypeKey</key>
              <string>NSStringPluralRuleType</string>
        \(variants.map { "      <key>\($0.key)</key>\n      <string>\($0.value)</string>" }.joined(separator: "\n"))
            </dict>
          </dict>
        </dict>
        </plist>
        """
    }

    /// The configuration of the first week with alice's locale set to `locale`.
    static func configuration(locale: String) -> String {
        configuration.replacingOccurrences(of: #"locale="fr""#, with: #"locale="\#(locale)""#)
    }

    /// `file:line:col` of the first `text` in `source`, as chime prints it.
    static func place(of text: String, in source: String, file: String) throws -> String {
        let lines = source.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains(text) })
        let column = try #require(lines[line].range(of: text)).lowerBound
        return "\(file):\(line + 1):\(lines[line].distance(from: lines[line].startIndex, to: column) + 1)"
    }

    @Test("locale=\"jp\" is refused at its line and column with \"did you mean ja?\", a language no one is near is refused without a guess, fr_FR is taken as fr-FR, and a known language chime has no strings in is a warning that a templates folder answers")
    func locales() throws {
        let mistyped = try Workspace(configuration: Self.configuration(locale: "jp"))
        let refused = try mistyped.chime(["check"])
        #expect(refused.status == 65)
        let place = try Self.place(of: #"locale="jp""#, in: Self.configuration(locale: "jp"), file: "chime.xml")
        #expect(refused.stderr.hasPrefix("\(place): error: unknown language \"jp\" (not an ISO 639 code)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("did you mean ja?"), "\(refused.stderr)")
        try mistyped.write("chime.xml", Self.configuration(locale: "jp_JP"))
        #expect(try mistyped.chime(["check"]).stderr.contains("did you mean ja-JP?"))
        try mistyped.write("chime.xml", Self.configuration(locale: "qq"))
        let unknown = try mistyped.chime(["check"])
        #expect(unknown.status == 65 && unknown.stderr.contains("unknown language \"qq\"") && !unknown.stderr.contains("did you mean"), "\(unknown.stderr)")

        // fr_FR as fr-FR: accepted, no warning, French.
        let underscored = try Workspace(configuration: Self.configuration(locale: "fr_FR"))
        let accepted = try underscored.chime(["check"])
        #expect(accepted.status == 0 && accepted.stderr.isEmpty, "\(accepted.stderr)")
        try underscored.write("r.json", #"{"identifier": "p", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let shown = try underscored.chime(["preview", "--json", "r.json", "--channel", "mail"], now: "2026-11-21T09:00:00Z")
        try underscored.write("preview.eml", shown.stdout)
        #expect(try Self.textPart(ofMessage: underscored.path("preview.eml")).contains("Répondez au-dessus de cette ligne."))
        // --locale in any case, as BCP 47 reads tags.
        let upper = try underscored.chime(["preview", "--json", "r.json", "--channel", "mail", "--locale", "FR"], now: "2026-11-21T09:00:00Z")
        try underscored.write("upper.eml", upper.stdout)
        #expect(try Self.textPart(ofMessage: underscored.path("upper.eml")).contains("Répondez au-dessus de cette ligne."))
        // A key no locale has is the request's fault: 65, as chime schedule says, not 70.
        try underscored.write("k.json", #"{"identifier": "k", "recipient": "alice", "content": {"titleLocKey": "no.such.key"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let missing = try underscored.chime(["preview", "--json", "k.json", "--channel", "mail"], now: "2026-11-21T09:00:00Z")
        #expect(missing.status == 65 && missing.stderr.contains("no.such.key"), "\(missing.status) \(missing.stderr)")

        // Swedish is a language, but chime has no strings in it: a warning, exit 0.
        let swedish = try Workspace(configuration: Self.configuration(locale: "sv-SE"))
        let warned = try swedish.chime(["check"])
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains(#"chime.xml: warning: recipient "alice" has locale "sv-SE" (Swedish), in which chime has no strings: their messages are in English"#),
                "\(warned.stderr)")
        #expect(warned.stderr.contains("add templates/sv/Localizable.strings"), "\(warned.stderr)")
        try FileManager.default.createDirectory(atPath: swedish.path("templates/sv"), withIntermediateDirectories: true)
        try swedish.write("templates/sv/Localizable.strings", #""ui.replyAbove" = "Svara ovanför den här raden.";"# + "\n")
        let translated = try swedish.chime(["check"])
        #expect(translated.status == 0 && !translated.stderr.contains("no strings"), "\(translated.stderr)")

        // What would hold every Swedish message when it is sent is an error here, at its
        // file and line: a translation of one of chime's own strings that takes its
        // arguments otherwise, a stringsdict format naming a variable its entry lacks.
        try swedish.write("templates/sv/Localizable.strings", #""ui.replyAbove" = "Svara ovanför den här raden.";"# + "\n" + #""ui.reply" = "Svara %2$u för %1$@";"# + "\n")
        try swedish.write("templates/sv/Localizable.stringsdict", Self.stringsdict("shop.more", "%#@mroe@ från %@"))
        let broken = try swedish.chime(["check"])
        #expect(broken.status == 65, "\(broken.stderr)")
        #expect(broken.stderr.contains("sv/Localizable.strings:2:1: error: \"ui.reply\" cannot be formatted: argument 2 is text, written with %@ in English (\"Reply %1$u for %2$@\")"),
                "\(broken.stderr)")
        #expect(broken.stderr.contains("sv/Localizable.stringsdict:5:3: error: entry \"shop.more\": %#@mroe@ names no variable of the entry (it has more)"),
                "\(broken.stderr)")
    }

    @Test("a translation of the templates' own key whose arguments come in another order unnumbered (in .strings or .stringsdict) is an error of chime check at its place, against the fallback language's original; numbered, it is fine")
    func reorderedTranslation() throws {
        let ws = try Workspace(configuration: Self.configuration(locale: "sv-SE"))
        for folder in ["templates/en", "templates/sv"] {
            try FileManager.default.createDirectory(atPath: ws.path(folder), withIntermediateDirectories: true)
        }
        try ws.write("templates/en/Localizable.strings", #""shop.count" = "%d new from %@";"# + "\n" + #""shop.ok" = "%d new from %@";"# + "\n")
        try ws.write("templates/en/Localizable.stringsdict", Self.stringsdict("shop.sum", "%#@more@ from %@"))
        try ws.write("templates/sv/Localizable.strings", #""shop.ok" = "Från %2$@: %1$d nya";"# + "\n" + #""shop.count" = "Från %@: %d nya";"# + "\n")
        try ws.write("templates/sv/Localizable.stringsdict", Self.stringsdict("shop.sum", "Från %@: %#@more@"))
        let checked = try ws.chime(["check"])
        #expect(checked.status == 65, "\(checked.stderr)")
        let errors = checked.stderr.split(separator: "\n").filter { $0.contains("cannot be formatted") }
        #expect(errors == [
            #"templates/sv/Localizable.strings:2:1: error: "shop.count" cannot be formatted: argument 2 is text, written with %@ in English ("%d new from %@")"#,
            #"templates/sv/Localizable.stringsdict:7:5: error: "shop.sum" cannot be formatted: argument 2 is text, written with %@ in English ("%#@more@ from %@")"#,
        ], "\(checked.stderr)")

        // Numbered as the original takes them, both are fine.
        try ws.write("templates/sv/Localizable.strings", #""shop.ok" = "Från %2$@: %1$d nya";"# + "\n" + #""shop.count" = "Från %2$@: %1$d nya";"# + "\n")
        try ws.write("templates/sv/Localizable.stringsdict", Self.stringsdict("shop.sum", "Från %2$@: %1$#@more@"))
        let fixed = try ws.chime(["check"])
        #expect(fixed.status == 0 && !fixed.stderr.contains("cannot be formatted"), "\(fixed.stderr)")
    }

    @Test("translations as Xcode writes them pass chime check: a variant's own arguments count (\"%#@more@\" whose variant is \"%u more messages from %@\", reordered in French and Japanese), and a Russian variable without \"other\" is a warning at its line, not a templates folder refused: reminders still go")
    func translationsAsWritten() throws {
        let ws = try Workspace(configuration: Self.configuration(locale: "ru"))
        for folder in ["templates/en", "templates/fr", "templates/ja", "templates/ru"] {
            try FileManager.default.createDirectory(atPath: ws.path(folder), withIntermediateDirectories: true)
        }
        try ws.write("templates/en/Localizable.stringsdict", Self.stringsdict("shop.sum", "%#@more@", variants: ["one": "%u more message from %@", "other": "%u more messages from %@"]))
        try ws.write("templates/fr/Localizable.stringsdict", Self.stringsdict("shop.sum", "De %2$@ : %1$#@more@", variants: ["one": "%u autre message", "other": "%u autres messages"]))
        try ws.write("templates/ja/Localizable.strings", #""shop.sum" = "%2$@から%1$u件";"# + "\n")
        try ws.write("templates/ru/Localizable.stringsdict", Self.stringsdict("shop.sum", "%#@more@", variants: [
            "one": "%u новое сообщение от %@", "few": "%u новых сообщения от %@", "many": "%u новых сообщений от %@",
        ]))
        let checked = try ws.chime(["check"])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(!checked.stderr.contains("cannot be formatted"), "\(checked.stderr)")
        #expect(checked.stderr.contains(#"templates/ru/Localizable.stringsdict:9:5: warning: variable "more" of "shop.sum" has no "other" variant"#), "\(checked.stderr)")
        let sent = try ReplyCorpusTests.send(ws, ["a"], category: "shop")
        #expect(sent.count == 1)

        // Still an error: a French variant that takes the name where English gives the count.
        try ws.write("templates/fr/Localizable.stringsdict", Self.stringsdict("shop.sum", "%#@more@", variants: ["other": "De %@ : %u autres messages"]))
        let broken = try ws.chime(["check"])
        #expect(broken.status == 65, "\(broken.stderr)")
        #expect(broken.stderr.contains(#"templates/fr/Localizable.stringsdict:7:5: error: "shop.sum" cannot be formatted: argument 2 is text, written with %@ in English ("%#@more@")"#),
                "\(broken.stderr)")
    }

    @Test("a summary format or hidden-preview placeholder in chime.xml that cannot be written (a lone % in \"50% off\") is refused at its attribute's line and column by chime check and every command, where it held every grouped message and digest of its category at each run; %% is a percent sign")
    func unwritableFormats() throws {
        let written = Self.configuration.replacingOccurrences(of: #"<category identifier="shop">"#, with: """
            <category identifier="shop" categorySummaryFormat="%u more (50% off) from %@"
                      hiddenPreviewsBodyPlaceholder="50% off: %u new">
            """)
        let ws = try Workspace(configuration: written)
        for command in [["check"], ["run"]] {
            let result = try ws.chime(command)
            #expect(result.status == 65, "\(command): \(result.stderr)")
            let summary = try Self.place(of: "categorySummaryFormat=", in: written, file: "chime.xml")
            let placeholder = try Self.place(of: "hiddenPreviewsBodyPlaceholder=", in: written, file: "chime.xml")
            #expect(result.stderr.contains(#"\#(summary): error: categorySummaryFormat of category "shop" cannot be written with a count (%u) and the names (%@): % o needs a number, and argument 2 is "Ann and Bob"; a percent sign is written %%"#),
                    "\(result.stderr)")
            #expect(result.stderr.contains(#"\#(placeholder): error: hiddenPreviewsBodyPlaceholder of category "shop" cannot be written with a count (%u): "#), "\(result.stderr)")
        }
        try ws.write("chime.xml", written.replacingOccurrences(of: "50% off", with: "50%% off"))
        let fixed = try ws.chime(["check"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
    }

    @Test("a misspelt element or attribute is refused at its line and column with the name meant (\"did you mean `textInputAction`?\"); one near no name the schema allows there gets no guess")
    func schemaSuggestions() throws {
        let written = Self.configuration.replacingOccurrences(of: #"<action identifier="ok" title="OK, got it"/>"#, with: """
            <textInputActon identifier="note" title="Note"/></category>
                <category identifier="log"><textInputAction identifier="why" title="Why?" textInputPlaceholdr="Say why" colour="red"/>
            """)
        let ws = try Workspace(configuration: written)
        let result = try ws.chime(["check"])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let element = try Self.place(of: "<textInputActon", in: written, file: "chime.xml")
        #expect(lines.contains { $0.hasPrefix("\(element): error: Element 'textInputActon'") && $0.hasSuffix("did you mean `textInputAction`?") }, "\(result.stderr)")
        let attribute = try Self.place(of: "textInputPlaceholdr=", in: written, file: "chime.xml")
        #expect(lines.contains { $0.hasPrefix("\(attribute): error: ") && $0.hasSuffix("did you mean `textInputPlaceholder`?") }, "\(result.stderr)")
        let unknown = try #require(lines.first { $0.contains("'colour'") })
        #expect(unknown.hasPrefix(try Self.place(of: "colour=", in: written, file: "chime.xml")) && !unknown.contains("did you mean"), "\(unknown)")
        // Misspelt after a category's actions, where libxml2 expects only minimalActions.
        let late = Self.configuration.replacingOccurrences(of: #"<action identifier="ok" title="OK, got it"/>"#, with: """
            <action identifier="ok" title="OK, got it"/><action identifier="two" title="Two"/><action identifier="three" title="Three"/>
                  <textInputActon identifier="note" title="Note"/>
                  <minimalActions>ok two</minimalActions>
            """)
        try ws.write("chime.xml", late)
        let after = try ws.chime(["check"])
        let said = try #require(after.stderr.split(separator: "\n").first { $0.contains("'textInputActon'") }, "\(after.stderr)")
        #expect(said.hasPrefix(try Self.place(of: "<textInputActon", in: late, file: "chime.xml")) && said.hasSuffix("did you mean `textInputAction`?"), "\(said)")
        // A name spelt right in the wrong place is no typo of its plural.
        try ws.write("chime.xml", Self.configuration.replacingOccurrences(of: "<recipients>", with: #"<recipients><channel id="x" url="maildir:./x"/>"#))
        let misplaced = try ws.chime(["check"])
        let where_ = try #require(misplaced.stderr.split(separator: "\n").first { $0.contains("Element 'channel'") }, "\(misplaced.stderr)")
        #expect(misplaced.status == 65 && !where_.contains("did you mean"), "\(where_)")
    }

    @Test("what an iOS app's categories carry that means nothing here (allowInCarPlay, an action's icon) is refused saying to remove it; a flag written yes says to write true or false")
    func iOSOnlyAttributes() throws {
        let written = Self.configuration.replacingOccurrences(of: #"<action identifier="ok" title="OK, got it"/>"#,
                                                              with: #"<action identifier="ok" title="OK, got it" icon="checkmark" foreground="yes"/>"#)
            .replacingOccurrences(of: #"<category identifier="shop""#, with: #"<category identifier="shop" allowInCarPlay="true""#)
        let ws = try Workspace(configuration: written)
        let result = try ws.chime(["check"])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("'allowInCarPlay'") && $0.hasSuffix("an iOS option with no meaning in mail or chat: remove it") }, "\(result.stderr)")
        #expect(lines.contains { $0.contains("'icon'") && $0.hasSuffix("an iOS option with no meaning in mail or chat: remove it") }, "\(result.stderr)")
        #expect(lines.contains { $0.contains("'foreground'") && $0.hasSuffix("write true or false (or 1 or 0, or ${NAME} / file:PATH)") }, "\(result.stderr)")
    }

    @Test("a request file that is not JSON, or holds a value of the wrong type or an unknown field, is refused with its file, line and column (exit 65), from a file or standard input, and nothing is scheduled")
    func jsonPlaces() throws {
        let ws = try Workspace()
        let malformed = """
            {"identifier": "a",
             "recipient": "alice",
             "content": {"title": "Backup"}
             "trigger": {"type": "timeInterval", "seconds": 60}}
            """
        try ws.write("r.json", malformed)
        let refused = try ws.chime(["schedule", "--json", "r.json"])
        #expect(refused.status == 65)
        #expect(refused.stderr == "\(try Self.place(of: #""trigger""#, in: malformed, file: "r.json")): error: not valid JSON: expected , or } after a field, found `\"`\n")
        let piped = try ws.chime(["schedule", "--json", "-"], input: "r.json")
        #expect(piped.status == 65 && piped.stderr.hasPrefix("<stdin>:4:2: error: not valid JSON"), "\(piped.stderr)")

        let mistyped = """
            [{"identifier": "a", "recipient": "alice", "content": {"title": "Backup"}, "trigger": {"type": "timeInterval", "seconds": 60}},
             {"identifier": "b", "recipient": "alice",
              "content": {"title": "Backup", "badge": "one"},
              "trigger": {"type": "timeInterval", "seconds": 60}}]
            """
        try ws.write("r.json", mistyped)
        let wrongType = try ws.chime(["schedule", "--json", "r.json"])
        #expect(wrongType.status == 65)
        #expect(wrongType.stderr == "\(try Self.place(of: #""one""#, in: mistyped, file: "r.json")): error: at [1].content.badge: expected a number\n")

        let unknown = mistyped.replacingOccurrences(of: #""badge": "one""#, with: #""bagde": 1"#)
        try ws.write("r.json", unknown)
        let field = try ws.chime(["schedule", "--json", "r.json"])
        #expect(field.status == 65)
        #expect(field.stderr.hasPrefix("\(try Self.place(of: #""bagde""#, in: unknown, file: "r.json")): error: at [1].content.bagde: unknown field"), "\(field.stderr)")

        // A NUL would end the Subject GMime writes, and the identifier in every listing.
        for (text, said) in [(#""content": {"title": "a\u0000b"}"#, "content.title has a NUL character (U+0000)"),
                             (#""content": {"title": "a", "bodyLocArgs": ["\u0000"]}"#, "content.bodyLocArgs[0] has a NUL character (U+0000)")] {
            try ws.write("r.json", #"{"identifier": "n", "recipient": "alice", \#(text), "trigger": {"type": "timeInterval", "seconds": 60}}"#)
            let nul = try ws.chime(["schedule", "--json", "r.json"])
            #expect(nul.status == 65)
            #expect(nul.stderr.contains(said), "\(nul.stderr)")
        }
        // An attachment's unknown field is refused as the content's are.
        try ws.write("r.json", #"{"identifier": "f", "recipient": "alice", "content": {"title": "a", "attachments": [{"identifier": "c", "path": "c.pdf", "type": "pdf"}]}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let extra = try ws.chime(["schedule", "--json", "r.json"])
        #expect(extra.status == 65 && extra.stderr.contains("at content.attachments[0].type: unknown field"), "\(extra.stderr)")
        // A value out of its range is pointed at where it is written, not at the object
        // holding it; an empty title (given or left out) at the title, or the content.
        for (content, trigger, needle) in [
            (#"{"title": "a", "relevanceScore": 1.5}"#, #"{"type": "timeInterval", "seconds": 60}"#, "1.5"),
            (#"{"title": "a"}"#, #"{"type": "calendar", "dateComponents": {"hour": 25}, "repeats": true}"#, "25"),
            (#"{"title": "a"}"#, #"{"type": "timeInterval", "seconds": 30, "repeats": true}"#, "30"),
            (#"{"title": "", "body": " "}"#, #"{"type": "timeInterval", "seconds": 60}"#, #""""#),
            (#"{"body": " "}"#, #"{"type": "timeInterval", "seconds": 60}"#, #"{"body""#),
        ] {
            let text = #"{"identifier": "v", "recipient": "alice",\#n "content": \#(content),\#n "trigger": \#(trigger)}"#
            try ws.write("r.json", text)
            let range = try ws.chime(["schedule", "--json", "r.json"])
            let place = try Self.place(of: needle, in: text, file: "r.json")
            #expect(range.status == 65 && range.stderr.hasPrefix("\(place): error: "), "\(needle): \(range.stderr)")
        }
        // An identifier is a key of every store: one past 1,024 bytes is refused alike on
        // SQLite and PostgreSQL (whose index takes about 2,700).
        let long = String(repeating: "é", count: 513)
        try ws.write("r.json", #"{"identifier": "\#(long)", "recipient": "alice", "content": {"title": "a"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let tooLong = try ws.chime(["schedule", "--json", "r.json"])
        #expect(tooLong.status == 65 && tooLong.stderr.contains("identifier is 1026 bytes long, more than 1024"), "\(tooLong.stderr)")
        // A file that cannot be read says why: 66, as sysexits' "cannot open input".
        let absent = try ws.chime(["schedule", "--json", "nope.json"])
        #expect(absent.status == 66 && absent.stderr == "nope.json: error: no such file\n", "\(absent.stderr)")
        let folder = try ws.chime(["schedule", "--json", "."])
        #expect(folder.status == 66 && folder.stderr == ".: error: a directory, not a file\n", "\(folder.stderr)")
        #expect(try ws.chime(["preview", "--json", ".", "--channel", "log"]).stderr == ".: error: a directory, not a file\n")
        // One that never ends is refused past 256 MiB, as bad data.
        let endless = try ws.chime(["schedule", "--json", "/dev/zero"])
        #expect(endless.status == 65 && endless.stderr == "/dev/zero: error: larger than 256 MiB\n", "\(endless.stderr)")
        #expect(try ws.chime(["pending"]).stdout.isEmpty, "nothing was scheduled")
    }
}
