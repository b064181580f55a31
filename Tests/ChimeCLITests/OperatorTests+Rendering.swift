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

    /// The text and HTML parts of the one message in the outbox, as a mail client's
    /// parser decodes them (Python's `email`).
    static func parts(_ ws: Workspace) throws -> (text: String, html: String) {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new")).first)
        try ws.write("parts.py", """
            import email, email.policy, json, sys
            message = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
            print(json.dumps({part.get_content_type(): part.get_content() for part in message.walk() if not part.is_multipart()}))
            """)
        let parsed = try ChimeProcess.runProgram("/usr/bin/python3", [ws.path("parts.py"), ws.path("outbox/new/\(name)")])
        let parts = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: String], "\(parsed.stderr)")
        return (try #require(parts["text/plain"]), try #require(parts["text/html"]))
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
}
