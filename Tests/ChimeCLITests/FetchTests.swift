import ChimeTestSupport
import Foundation
import Testing

/// `chime fetch` against a real IMAP server (Dovecot) on 127.0.0.1.
@Suite("Replies fetched over IMAP", .serialized)
struct FetchTests {
    typealias Replies = ReplyCorpusTests

    /// The reply corpus's configuration, with an IMAP channel named `inbox`.
    static func configuration(_ channel: String) -> String {
        Replies.configuration.replacingOccurrences(of: "</channels>", with: channel + "\n  </channels>")
    }

    /// The mailbox password in a file of its own, as `${file:…}` reads it.
    static func passwordFile(_ password: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-imap-password-\(UUID().uuidString.prefix(8))")
        try password.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("chime fetch acts on each unseen reply once over IMAPS, moves it, ignores machines, and takes up what a killed run left marked")
    func fetchOverIMAPS() throws {
        let (certificate, certificates) = try ScriptServer.temporaryCertificate("imap")
        defer { try? FileManager.default.removeItem(at: certificates) }
        let server = try DovecotServer(certificate: certificate)
        let secret = try Self.passwordFile(server.password)
        defer { try? FileManager.default.removeItem(at: secret) }
        let url = "imaps://\(server.user):${file:\(secret.path)}@127.0.0.1:\(server.imapsPort)/INBOX"
        let ws = try Replies.workspace(Self.configuration(#"<channel id="inbox" url="\#(url)" caFile="\#(certificate.cert)" moveTo="Chime/Handled"/>"#))
        let sent = try Replies.send(ws, ["milk", "bread", "eggs"])

        try server.deliver(Replies.reply(sent["milk"]!, body: "1\n\nAlice"), named: "1.reply")
        try server.deliver(Replies.reply(sent["bread"]!, body: "Add item oat milk, 2 lemons"), named: "2.reply")
        try server.deliver(Replies.reply(sent["eggs"]!, subject: "Abwesenheitsnotiz: Shopping", headers: ["Auto-Submitted: auto-replied"],
                                         body: "Ich bin bis Montag nicht im Büro."), named: "3.reply")
        try server.deliver("From: someone@example.net\r\nTo: bot@reply.example.org\r\nSubject: hello\r\nMessage-ID: <x1@example.net>\r\n\r\nHi!\r\n", named: "4.stranger")

        let fetch = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(fetch.status == 0, "\(fetch.stderr)")
        let lines = fetch.stdout.split(separator: "\n")
        #expect(lines.count == 4, "one line per message: \(fetch.stdout)")
        #expect(lines.allSatisfy { $0.hasPrefix("inbox:") }, "\(fetch.stdout)")
        #expect(fetch.stdout.contains("auto-reply"), "\(fetch.stdout)")
        #expect(!(fetch.stdout + fetch.stderr).contains(server.password), "the password is never printed")

        let responses = try Replies.json(ws, "responses")
        let byIdentifier = Dictionary(responses.map { ($0["identifier"] as! String, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(responses.count == 2, "\(responses)")
        #expect(byIdentifier["milk"]?["actionIdentifier"] as? String == "justInform")
        #expect(byIdentifier["bread"]?["actionIdentifier"] as? String == "addItem")
        #expect(byIdentifier["bread"]?["userText"] as? String == "oat milk, 2 lemons")

        // Every message handled left the INBOX for the moveTo mailbox, created on the way.
        #expect(DovecotServer.messages(in: server.inbox, "new").isEmpty && DovecotServer.messages(in: server.inbox, "cur").isEmpty)
        let handled = server.mailbox("Chime.Handled")
        #expect(DovecotServer.messages(in: handled, "cur").count + DovecotServer.messages(in: handled, "new").count == 4)

        // Nothing new: nothing done, nothing printed.
        let again = try ws.chime(["fetch"], now: "2026-11-21T10:05:00Z")
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)\(again.stderr)")
        #expect(try Replies.json(ws, "responses").count == 2)

        // A run killed after fetching a message (seen, still marked) is taken up next time.
        try server.leaveMarked(Replies.reply(sent["eggs"]!, body: "done"), keyword: "ChimeFetching")
        let resumed = try ws.chime(["fetch", "--channel", "inbox"], now: "2026-11-21T10:06:00Z")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.split(separator: "\n").count == 1, "\(resumed.stdout)")
        let eggs = try Replies.json(ws, "responses").filter { $0["identifier"] as? String == "eggs" }
        #expect(eggs.map { $0["actionIdentifier"] as? String } == ["chime.done"], "\(eggs)")
        #expect(DovecotServer.messages(in: server.inbox, "cur").isEmpty)
    }

    @Test("chime fetch over IMAP with STARTTLS leaves handled messages flagged seen; a refused certificate, a wrong password and a wrong channel are clear errors")
    func fetchFailures() throws {
        let (certificate, certificates) = try ScriptServer.temporaryCertificate("imap")
        defer { try? FileManager.default.removeItem(at: certificates) }
        let server = try DovecotServer(certificate: certificate)
        let secret = try Self.passwordFile(server.password)
        defer { try? FileManager.default.removeItem(at: secret) }
        let url = "imap://\(server.user):${file:\(secret.path)}@127.0.0.1:\(server.imapPort)/INBOX?starttls=required"
        let good = #"<channel id="inbox" url="\#(url)" caFile="\#(certificate.cert)"/>"#
        let ws = try Replies.workspace(Self.configuration(good))
        let sent = try Replies.send(ws, ["milk"])
        try server.deliver(Replies.reply(sent["milk"]!, body: "OK, got it"), named: "1.reply")

        // The server's certificate is the test's own: without caFile it is refused.
        try ws.write("chime.xml", Self.configuration(#"<channel id="inbox" url="\#(url)"/>"#))
        let refused = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(refused.status == 69, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("certificate"), "\(refused.stderr)")
        #expect(!(refused.stdout + refused.stderr).contains(server.password))

        try ws.write("chime.xml", Self.configuration(good))
        let wrong = "not-" + server.password
        try wrong.write(to: secret, atomically: true, encoding: .utf8)
        let denied = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(denied.status == 69, "\(denied.stdout)\(denied.stderr)")
        #expect(denied.stderr.hasPrefix("inbox: "), "\(denied.stderr)")
        #expect(!(denied.stdout + denied.stderr).contains(wrong))
        #expect(try Replies.json(ws, "responses").isEmpty, "nothing was read")
        #expect(DovecotServer.messages(in: server.inbox, "new").count == 1, "the reply still waits, unseen")

        try server.password.write(to: secret, atomically: true, encoding: .utf8)
        let notIMAP = try ws.chime(["fetch", "--channel", "mail"])
        #expect(notIMAP.status == 65 && notIMAP.stderr.contains("not an imap"), "\(notIMAP.stderr)")

        let fetched = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(try Replies.json(ws, "responses").map { $0["actionIdentifier"] as? String } == ["justInform"])
        // No moveTo: the message stays in the INBOX, flagged seen (Maildir flag S).
        let kept = DovecotServer.messages(in: server.inbox, "cur")
        #expect(kept.count == 1 && kept[0].hasSuffix(":2,S"), "\(kept)")

        // Over maxMessageSize, a message is recorded too large from the size the server
        // gives, without its body being fetched, and flagged seen all the same.
        try ws.write("chime.xml", Self.configuration(good).replacingOccurrences(of: "</channels>", with: "</channels>\n  <replies maxMessageSize=\"2K\"/>"))
        try server.deliver(Replies.reply(sent["milk"]!, body: "OK, got it\n" + String(repeating: "padding line\n", count: 400)), named: "2.large")
        let large = try ws.chime(["fetch"], now: "2026-11-21T10:01:00Z")
        #expect(large.status == 0, "\(large.stderr)")
        #expect(large.stdout.contains("too-large"), "\(large.stdout)")
        #expect(DovecotServer.messages(in: server.inbox, "new").isEmpty)
        #expect(DovecotServer.messages(in: server.inbox, "cur").filter { $0.hasSuffix(":2,S") }.count == 2)
    }

    /// A Dovecot on IMAPS with the test's certificate, a workspace whose `inbox` channel
    /// reads `mailbox` (as a URL path segment) with `attributes`, and reminders sent.
    static func imapsWorkspace(mailbox: String = "INBOX", attributes: String = "", send identifiers: [String])
        throws -> (DovecotServer, Workspace, [String: ReplyCorpusTests.Sent], cleanup: () -> Void) {
        let (certificate, certificates) = try ScriptServer.temporaryCertificate("imap")
        let server = try DovecotServer(certificate: certificate)
        let secret = try Self.passwordFile(server.password)
        let url = "imaps://\(server.user):${file:\(secret.path)}@127.0.0.1:\(server.imapsPort)/\(mailbox)"
        let ws = try Replies.workspace(Self.configuration(#"<channel id="inbox" url="\#(url)" caFile="\#(certificate.cert)" \#(attributes)/>"#))
        let sent = try Replies.send(ws, identifiers)
        return (server, ws, sent, { try? FileManager.default.removeItem(at: certificates); try? FileManager.default.removeItem(at: secret) })
    }

    @Test("mailbox names in any language: replies read from Antwörten (written in the URL as it is, or percent-encoded) and moved to Erledigt/Antworten-ä, created on the way, as IMAP's modified UTF-7 names them")
    func nonASCIIMailboxes() throws {
        let (server, ws, sent, cleanup) = try Self.imapsWorkspace(mailbox: "Antw%C3%B6rten", attributes: #"moveTo="Erledigt/Antworten-ä""#,
                                                                  send: ["milk", "bread"])
        defer { cleanup() }
        // Dovecot keeps a mailbox's modified UTF-7 name on disk (Maildir++: .Antw&APY-rten).
        try server.deliver(Replies.reply(sent["milk"]!, body: "1"), named: "1.reply", into: "Antw&APY-rten")
        try server.deliver(Replies.reply(sent["bread"]!, body: "1"), named: "2.reply", into: "Antw&APY-rten")
        let fetch = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(fetch.status == 0, "\(fetch.stdout)\(fetch.stderr)")
        #expect(fetch.stdout.split(separator: "\n").filter { $0.contains(": responded: justInform") }.count == 2, "\(fetch.stdout)")
        let moved = server.mailbox("Erledigt.Antworten-&AOQ-")
        #expect(DovecotServer.messages(in: moved, "cur").count + DovecotServer.messages(in: moved, "new").count == 2)
        #expect(DovecotServer.messages(in: server.mailbox("Antw&APY-rten"), "cur").isEmpty)
    }

    @Test("a message the server cannot send (unreadable on its disk) is said and left unseen, and a reply after it is still taken (it had held every reply after it, run after run); read from Chime/Replies, which Dovecot's Maildir++ names Chime.Replies; once readable, the next run takes it")
    func unfetchableMessage() throws {
        let (server, ws, sent, cleanup) = try Self.imapsWorkspace(mailbox: "Chime/Replies", send: ["milk", "bread"])
        defer { cleanup() }
        try server.deliver(Replies.reply(sent["milk"]!, body: "1"), named: "1.reply", into: "Chime.Replies")
        let folder = server.mailbox("Chime.Replies")
        // Unreadable to Dovecot's mail user (nobody, when the tests run as root).
        func setMode(_ mode: mode_t) {
            for sub in ["new", "cur"] { for name in DovecotServer.messages(in: folder, sub) { chmod(folder.appendingPathComponent("\(sub)/\(name)").path, mode) } }
        }
        setMode(0)
        let first = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(first.status == 69 && first.stderr.contains("inbox:1: could not be fetched, left unseen for the next run"), "\(first.stdout)\(first.stderr)")
        // A reply that comes after it.
        try server.deliver(Replies.reply(sent["bread"]!, body: "1"), named: "2.reply", into: "Chime.Replies")
        let second = try ws.chime(["fetch"], now: "2026-11-21T10:01:00Z")
        #expect(second.status == 69, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.split(separator: "\n").filter { $0.contains(": responded: justInform") }.count == 1, "\(second.stdout)\(second.stderr)")
        #expect(try Replies.json(ws, "responses").map { $0["identifier"] as? String } == ["bread"])
        setMode(0o666)
        let third = try ws.chime(["fetch"], now: "2026-11-21T10:02:00Z")
        #expect(third.status == 0 && third.stdout.contains("inbox:1: responded: justInform"), "\(third.stdout)\(third.stderr)")
        #expect(try Replies.json(ws, "responses").count == 2)
        // A signing key too short is the configuration's fault (65), not a try-later (75).
        let badKey = try ws.chime(["fetch"], now: "2026-11-21T10:03:00Z", environment: ["CHIME_SECRET_KEY": "short"])
        #expect(badKey.status == 65, "\(badKey.stderr)")
    }

    @Test("a moveTo the server refuses: every waiting reply is still handled once, each one not moved said on standard error, and the run exits 69; the next run handles nothing again")
    func refusedMove() throws {
        // Longer than a file name may be: Dovecot cannot create it.
        let folder = String(repeating: "x", count: 300)
        let (server, ws, sent, cleanup) = try Self.imapsWorkspace(attributes: #"moveTo="\#(folder)""#, send: ["milk", "bread", "eggs"])
        defer { cleanup() }
        for (index, name) in ["milk", "bread", "eggs"].enumerated() {
            try server.deliver(Replies.reply(sent[name]!, body: "1"), named: "\(index).reply")
        }
        let fetch = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(fetch.status == 69, "\(fetch.stdout)\(fetch.stderr)")
        #expect(fetch.stdout.split(separator: "\n").filter { $0.contains(": responded: justInform") }.count == 3, "all three taken in one run: \(fetch.stdout)")
        #expect(fetch.stderr.split(separator: "\n").filter { $0.contains("handled, but not moved to") }.count == 3, "\(fetch.stderr)")
        let again = try ws.chime(["fetch"], now: "2026-11-21T10:01:00Z")
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)\(again.stderr)")
        #expect(try Replies.json(ws, "responses").count == 3)
    }

    @Test("two chime fetch at once on one mailbox (chime serve's workers each fetch on the minute): each reply is taken by one of them, once, and nobody is answered twice")
    func concurrentFetches() throws {
        let names = (0..<30).map { "r\($0)" }
        let (server, ws, sent, cleanup) = try Self.imapsWorkspace(send: names)
        defer { cleanup() }
        for (index, name) in names.enumerated() {
            try server.deliver(Replies.reply(sent[name]!, body: "1"), named: "\(index).reply")
        }
        final class Collected: @unchecked Sendable { // results guarded by lock
            let lock = NSLock()
            var results: [ChimeProcess.Result] = []
        }
        let collected = Collected(), group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                if let result = try? ws.chime(["fetch"], now: "2026-11-21T10:00:00Z") { collected.lock.withLock { collected.results.append(result) } }
            }
        }
        group.wait()
        let results = collected.results
        #expect(results.count == 2 && results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        // Besides each reply's line, the one that found the mailbox held may say so.
        let lines = results.flatMap { $0.stdout.split(separator: "\n") }.filter { !$0.contains("being read by another chime process") }
        #expect(lines.count == 30, "\(lines.count) lines: \(lines.filter { !$0.contains("responded") }.prefix(3))")
        #expect(lines.allSatisfy { $0.contains(": responded: justInform") }, "\(lines.filter { !$0.contains("responded") }.prefix(3))")
        #expect(try Replies.json(ws, "replies").count == 30, "each reply recorded once")

    }

    @Test("a chime fetch killed while it read the mailbox leaves its hold: the next run says the mailbox is being read and leaves it, exit 0; ten minutes after the hold was taken, a run takes the mailbox over")
    func abandonedHold() throws {
        let (server, ws, sent, cleanup) = try Self.imapsWorkspace(send: ["milk"])
        defer { cleanup() }
        try server.deliver(Replies.reply(sent["milk"]!, body: "1"), named: "1.reply")
        // What a killed run leaves in the store: its hold on the channel, taken a minute ago.
        func holdTaken(secondsAgo: Int) throws {
            let taken = Int(Date().timeIntervalSince1970) - secondsAgo
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                db.execute("DELETE FROM idempotency")
                db.execute("INSERT INTO idempotency VALUES (?, 'fetch inbox', '', 0, x'', ?)", ("\\x01hold", int(sys.argv[2])))
                db.commit()
                """, ws.path("chime.sqlite"), String(taken)]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        try holdTaken(secondsAgo: 60)
        let held = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(held.status == 0, "\(held.stdout)\(held.stderr)")
        #expect(held.stdout.contains("inbox: being read by another chime process; left to it") && held.stderr.isEmpty, "\(held.stdout) \(held.stderr)")
        try holdTaken(secondsAgo: 601)
        let takenOver = try ws.chime(["fetch"], now: "2026-11-21T10:00:00Z")
        #expect(takenOver.status == 0, "\(takenOver.stderr)")
        #expect(takenOver.stdout.contains(": responded: justInform"), "\(takenOver.stdout)")
    }
}
