import Foundation
import Testing

/// What a person reads in their inbox and their chat: the snippet, text input, the
/// replies Chime understands besides the actions.
extension OperatorTests {
    /// A nightly backup reminder with an action whose title holds a built-in word
    /// ("done") and a text-input action; alice reads French and hides previews.
    static let backupConfiguration = configuration
        .replacingOccurrences(of: #"<category identifier="shop"><action identifier="ok" title="OK, got it"/></category>"#, with: """
            <category identifier="backup" hiddenPreviewsBodyPlaceholder="Backup reminder">
                  <action identifier="ok" title="Backup done"/>
                  <textInputAction identifier="note" title="Add a note" textInputButtonTitle="Send" textInputPlaceholder="Why was it late?"/>
                </category>
            """)
        .replacingOccurrences(of: #"timeZone="Europe/Paris">"#, with: #"timeZone="Europe/Paris" showPreviews="whenAuthenticated">"#)

    /// The nightly backup reminder, repeating every hour, fired once into the outbox.
    static func sendBackup(_ ws: Workspace) throws -> ReplyCorpusTests.Sent {
        try #require(ReplyCorpusTests.send(ws, ["nightly"], category: "backup", repeats: true)["nightly"])
    }

    /// The text and HTML parts of the one message in the outbox (or of the message in
    /// `file`), as a mail client's parser decodes them (Python's `email`).
    static func parts(_ ws: Workspace, file: String? = nil) throws -> (text: String, html: String) {
        let name = try file ?? "outbox/new/" + #require(try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new")).first)
        try ws.write("parts.py", """
            import email, email.policy, json, sys
            message = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
            print(json.dumps({part.get_content_type(): part.get_content() for part in message.walk() if not part.is_multipart()}))
            """)
        let parsed = try ChimeProcess.runProgram("/usr/bin/python3", [ws.path("parts.py"), ws.path(name)])
        let parts = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: String], "\(parsed.stderr)")
        return (try #require(parts["text/plain"]), try #require(parts["text/html"]))
    }

    /// A string of a shipped locale, as its `templates/LOCALE/Localizable.strings` has it,
    /// with `%1$u`, `%2$@` (or `%@`) filled in.
    static func shipped(_ key: String, _ locale: String, _ values: [String]) throws -> String {
        let file = try String(contentsOf: ChimeProcess.repositoryRoot.appendingPathComponent("templates/\(locale)/Localizable.strings"), encoding: .utf8)
        let line = try #require(file.split(separator: "\n").first { $0.hasPrefix("\"\(key)\" = ") }, "\(key) in \(locale)")
        var text = String(line.dropFirst(key.count + 6).dropLast(2))
        for (index, value) in values.enumerated() {
            text = text.replacingOccurrences(of: "%\(index + 1)$u", with: value).replacingOccurrences(of: "%\(index + 1)$@", with: value)
        }
        return values.count == 1 ? text.replacingOccurrences(of: "%@", with: values[0]) : text
    }

    /// The snippet an inbox shows under the subject: the first `length` characters (as a
    /// client counts and shows them) of the text a part shows or hides, runs of white space
    /// as one, as HTML collapses them (a no-break space is never collapsed); for HTML, the
    /// body's text with tags dropped, hidden ones included. Invisible characters are
    /// dropped from what it returns.
    static func snippet(_ part: String, html: Bool, length: Int = 200) -> String {
        var text = part
        if html {
            text = text.replacing(/(?s)<head>.*<\/head>/, with: "").replacing(/<[^>]*>/, with: " ")
                .replacingOccurrences(of: "&nbsp;", with: "\u{00A0}").replacingOccurrences(of: "&zwnj;", with: "\u{200C}")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
        var collapsed = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let blank = [" ", "\n", "\t", "\r"].contains(scalar)
            if blank, collapsed.last == " " || collapsed.isEmpty { continue }
            collapsed.append(blank ? " " : scalar)
        }
        let shown = String(String(collapsed).prefix(length))
        return String(String.UnicodeScalarView(shown.unicodeScalars.filter { !["\u{200C}", "\u{034F}"].contains($0) }))
    }

    @Test("with previews shown only in the message, the inbox snippet is the placeholder and ends there: neither the HTML nor the text part lets the title or body into the first 200 characters, and the message itself still shows them")
    func hiddenPreviewSnippet() throws {
        let ws = try ReplyCorpusTests.workspace(Self.backupConfiguration)
        _ = try Self.sendBackup(ws)
        let (text, html) = try Self.parts(ws)
        for (part, isHTML) in [(html, true), (text, false)] {
            let snippet = Self.snippet(part, html: isHTML)
            #expect(snippet.contains("Backup reminder"), "the placeholder shows: \(snippet)")
            for hidden in ["Shopping", "shopping", "remember"] {
                #expect(!snippet.contains(hidden), "\(isHTML ? "HTML" : "text"): the snippet stops before the content: \(snippet)")
            }
            #expect(part.contains("Shopping") && part.contains("Hey, you must go shopping, remember?"), "the message itself shows the content")
        }
        // Where previews always show, nothing is hidden and nothing is padded.
        let always = try ReplyCorpusTests.workspace(Self.backupConfiguration.replacingOccurrences(of: #" showPreviews="whenAuthenticated""#, with: ""))
        _ = try Self.sendBackup(always)
        let shown = try Self.parts(always)
        #expect(Self.snippet(shown.text, html: false).contains("Shopping"), "\(shown.text)")
        #expect(!shown.text.contains("\u{034F}") && !shown.html.contains("\u{200C}"))
    }

    @Test("a text-input action says how to answer it with text and shows its placeholder: in the email's text and HTML parts in every shipped language (its mailto: link leaves room for the text), and in Slack and Telegram messages, whose text comes back; answering as told records the text")
    func textInputExplained() throws {
        let ws = try ReplyCorpusTests.workspace(Self.backupConfiguration)
        try ws.write("r.json", #"{"identifier": "p", "recipient": "alice", "content": {"title": "Nightly backup", "categoryIdentifier": "backup"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        var lines: [String: String] = [:]
        for locale in ["en", "fr", "de", "es", "ru", "pl", "ar", "ja"] {
            let shown = try ws.chime(["preview", "--json", "r.json", "--channel", "mail", "--locale", locale])
            try ws.write("preview.eml", shown.stdout)
            let (text, html) = try Self.parts(ws, file: "preview.eml")
            let line = try Self.shipped("ui.replyText", locale, ["2", "Add a note"]) + " (Why was it late?)"
            #expect(text.contains(line) && html.contains(line.replacingOccurrences(of: "'", with: "&#39;")), "\(locale): \(line)\n\(text)")
            #expect(html.contains("body=2%20\""), "the link's reply starts with the number and a space, where the text goes")
            lines[locale] = line
        }
        #expect(Set(lines.values).count == 8, "each language says it its own way: \(lines)")

        // Answered as the email says: the text is the note.
        let sent = try Self.sendBackup(ws)
        let answered = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: "2 The disk was full"), now: "2026-11-21T10:01:00Z")
        #expect(answered.stdout.hasPrefix("stdin: responded: note"), "\(answered.stdout) \(answered.stderr)")
        let responses = try ReplyCorpusTests.json(ws, "responses")
        #expect(responses.last?["userText"] as? String == "The disk was full", "\(responses)")

        // Chat: where the text comes back, the message says how, with the placeholder.
        try ws.write("chat.key", String(repeating: "s", count: 32))
        let secret = #"secret="file:\#(ws.path("chat.key"))""#
        try ws.write("chime.xml", Self.backupConfiguration.replacingOccurrences(of: "</channels>", with: """
            <channel id="slack" url="slack://hooks.slack.com/services/T0/B0/X" \(secret)/>
            <channel id="telegram" url="telegram://api.telegram.org/bot1:AAA/42" \(secret)/>
            </channels>
            """))
        let hint = try Self.shipped("ui.textReply", "fr", ["Add a note"]) + " (Why was it late?)"
        let slack = try ws.chime(["preview", "--json", "r.json", "--channel", "slack"])
        let section = try #require(try JSONSerialization.jsonObject(with: Data(slack.stdout.utf8)) as? [String: Any], "\(slack.stderr)")["blocks"] as? [[String: Any]]
        let sectionText = section?.first { $0["type"] as? String == "section" }.flatMap { ($0["text"] as? [String: Any])?["text"] as? String }
        #expect(sectionText?.contains(hint) == true, "\(slack.stdout)")
        let telegram = try ws.chime(["preview", "--json", "r.json", "--channel", "telegram"])
        let telegramText = try #require(try JSONSerialization.jsonObject(with: Data(telegram.stdout.utf8)) as? [String: Any], "\(telegram.stderr)")["text"] as? String
        #expect(telegramText?.contains(hint) == true, "\(telegram.stdout)")
        // A body longer than the platform takes is cut before the hint, not the hint with it.
        try ws.write("long.json", #"{"identifier": "l", "recipient": "alice", "content": {"title": "Nightly backup", "body": "\#(String(repeating: "Disk full. ", count: 600))", "categoryIdentifier": "backup"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        for channel in ["slack", "telegram"] {
            let long = try ws.chime(["preview", "--json", "long.json", "--channel", channel]).stdout
            #expect(long.contains(hint) && long.contains("Disk full. Disk"), "\(channel): \(long)")
        }

        // A title of spaces alone is none: the message is headed by its body's first line,
        // as one without a title is, where a blank header stood (previews shown always).
        try ws.write("chime.xml", try ws.read("chime.xml").replacingOccurrences(of: #" showPreviews="whenAuthenticated""#, with: ""))
        try ws.write("blank.json", #"{"identifier": "b", "recipient": "alice", "content": {"title": "   ", "body": "Milk\nand eggs"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let blank = try ws.chime(["preview", "--json", "blank.json", "--channel", "slack"])
        let blocks = try #require(try JSONSerialization.jsonObject(with: Data(blank.stdout.utf8)) as? [String: Any], "\(blank.stderr)")["blocks"] as? [[String: Any]]
        #expect(((blocks?.first?["text"] as? [String: Any])?["text"] as? String) == "Milk", "\(blank.stdout)")
        let blankTelegram = try ws.chime(["preview", "--json", "blank.json", "--channel", "telegram"]).stdout
        #expect(blankTelegram.contains("<b>Milk</b>") && !blankTelegram.contains("<b>   </b>"), "\(blankTelegram)")
    }

    @Test("\"done\" next to an action titled \"Backup done\" answers that action, and the series goes on; the footer lists the built-in replies in the person's language, less those the category's actions take")
    func builtInRepliesListed() throws {
        let ws = try ReplyCorpusTests.workspace(Self.backupConfiguration)
        let sent = try Self.sendBackup(ws)
        let (text, html) = try Self.parts(ws)
        for builtIn in ["snooze", "done", "quietly", "off"] {
            let word = try Self.shipped("action.\(builtIn)", "fr", [])
            let line = try Self.shipped("ui.otherReply.\(builtIn)", "fr", [word])
            #expect(text.contains(line) && html.contains(line), "the French footer lists \(word): \(text)")
        }
        #expect(text.contains(try Self.shipped("ui.otherReplies", "fr", [])))

        let answered = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: "done"), now: "2026-11-21T10:01:00Z")
        #expect(answered.stdout.hasPrefix("stdin: responded: ok "), "the category's Backup done, not the built-in done: \(answered.stdout)")
        #expect(try ws.chime(["pending"], now: "2026-11-21T10:02:00Z").stdout.contains("nightly"), "the series goes on")
        // The built-in done in French still ends it.
        let ended = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: try Self.shipped("action.done", "fr", [])), now: "2026-11-21T10:03:00Z")
        #expect(ended.stdout.hasPrefix("stdin: responded: chime.done"), "\(ended.stdout)")

        // In English "Done" is the category's: its footer does not offer it.
        try ws.write("r.json", #"{"identifier": "p", "recipient": "alice", "content": {"title": "Nightly backup", "categoryIdentifier": "backup"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        try ws.write("preview.eml", try ws.chime(["preview", "--json", "r.json", "--channel", "mail", "--locale", "en"]).stdout)
        let english = try Self.parts(ws, file: "preview.eml").text
        #expect(english.contains(try Self.shipped("ui.otherReply.snooze", "en", ["Snooze"])), "\(english)")
        #expect(!english.contains(try Self.shipped("ui.otherReply.done", "en", ["Done"])), "\(english)")
    }
}
