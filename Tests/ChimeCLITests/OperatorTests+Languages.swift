import Foundation
import Testing

/// Point 4 of the first week: the shipped strings are in the binary.
extension OperatorTests {
    static let twoLanguages = configuration.replacingOccurrences(of: "</recipients>", with: """
        <recipient id="kenji" locale="ja" timeZone="Asia/Tokyo"><address channel="mail">kenji@example.org</address></recipient></recipients>
        """)

    /// The text part of the message in the file at `path`, as a mail client's parser
    /// decodes it (Python's `email`).
    static func textPart(ofMessage path: String) throws -> String {
        let script = "import email, email.policy, sys; m = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=email.policy.default); "
            + "print(m.get_body(preferencelist=('plain',)).get_content())"
        let decoded = try ChimeProcess.runProgram("/usr/bin/python3", ["-c", script, path])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        return decoded.stdout
    }

    @Test("with no templates folder anywhere, a French and a Japanese recipient get their own language from the strings built into chime; a templates folder overrides them key by key")
    func builtInStrings() throws {
        let ws = try Workspace(configuration: Self.twoLanguages)
        #expect(!FileManager.default.fileExists(atPath: ws.path("templates")))
        func preview(_ recipient: String, _ arguments: [String] = []) throws -> String {
            try ws.write("\(recipient).json", #"{"identifier": "p", "recipient": "\#(recipient)", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
            let shown = try ws.chime(arguments + ["preview", "--json", "\(recipient).json", "--channel", "mail"], now: "2026-11-21T09:00:00Z")
            #expect(shown.status == 0, "\(shown.stderr)")
            try ws.write("preview.eml", shown.stdout)
            return try Self.textPart(ofMessage: ws.path("preview.eml"))
        }
        let french = try preview("alice")
        #expect(french.contains("Répondez au-dessus de cette ligne."), "\(french)")
        #expect(!french.contains("Reply above this line"))
        let japanese = try preview("kenji")
        let expected = try #require(try String(contentsOf: ChimeProcess.repositoryRoot.appendingPathComponent("templates/ja/Localizable.strings"), encoding: .utf8)
            .firstMatch(of: /"ui.replyAbove" = "([^"]+)";/)?.output.1)
        #expect(japanese.contains(String(expected)), "\(japanese)")
        let check = try ws.chime(["check"])
        #expect(check.status == 0 && !check.stderr.contains("missing"), "\(check.stderr)")

        // An operator's folder changes one French string; the rest stays French.
        try FileManager.default.createDirectory(atPath: ws.path("mine/fr"), withIntermediateDirectories: true)
        try ws.write("mine/fr/Localizable.strings", #""ui.replyAbove" = "Écrivez votre réponse ici, au-dessus.";"#)
        let overridden = try preview("alice", ["--templates", "mine"])
        #expect(overridden.contains("Écrivez votre réponse ici, au-dessus.") && !overridden.contains("Répondez au-dessus de cette ligne."), "\(overridden)")
        #expect(french.contains("Préférences de notification") && overridden.contains("Préférences de notification"), "the other French strings stay: \(overridden)")
    }
}
