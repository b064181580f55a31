import ChimeTestSupport
import Foundation
import Testing

extension ReplyCorpusTests {
    /// A workspace that sent `count` reminders of the `plain` category to Alice (named
    /// `r0000`…, in order), and an empty Maildir `replies` for her replies to them.
    static func maildirOfReplies(_ count: Int, configuration: String = configuration) throws -> (Workspace, [String], [String: Sent], URL) {
        let ws = try workspace(configuration)
        let identifiers = (0..<count).map { String(format: "r%04d", $0) }
        let sent = try send(ws, identifiers, category: "plain")
        #expect(sent.count == count)
        return (ws, identifiers, sent, try ws.maildir("replies"))
    }

    /// Runs `chime ingest --maildir replies`, which must print one line per reply in the
    /// Maildir's order; its lines, and the answers it wrote (names in `outbox/new`).
    static func ingestMaildir(_ ws: Workspace, _ identifiers: [String]) throws -> (lines: [Substring], answers: [String]) {
        let outbox = ws.url.appendingPathComponent("outbox/new")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: outbox.path))
        let ingest = try ws.chime(["ingest", "--maildir", "replies"], now: "2026-11-21T10:00:00Z")
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let lines = ingest.stdout.split(separator: "\n")
        #expect(lines.map { String($0.prefix(5)) } == identifiers, "one line per reply, in the Maildir's order")
        return (lines, try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter { !before.contains($0) })
    }

    /// More replies than one batch of `chime ingest --maildir` (500): the next batch is read
    /// while one is recorded, and the one before finished (its answers written, its replies
    /// moved) meanwhile. What a user sees must be as if each were taken in turn.
    @Test("1,100 replies in a Maildir (three batches, read ahead and finished while the next is taken): one line each in the Maildir's order, each answered once in its thread, the open count exact in that order, every reply moved to cur/ and every answer in new/")
    func maildirBatches() throws {
        let count = 1_100
        let (ws, identifiers, sent, replies) = try Self.maildirOfReplies(count)
        // Every 10th from someone else (refused, not answered), every 25th an
        // out-of-office (ignored); the others choose the category's one action.
        enum Kind { case answer, forged, away }
        func kind(_ index: Int) -> Kind { index % 10 == 3 ? .forged : index % 25 == 7 ? .away : .answer }
        for (index, identifier) in identifiers.enumerated() {
            let reply: String
            switch kind(index) {
            case .answer: reply = Self.reply(sent[identifier]!, headers: ["References: <\(identifier)@example.org>"], body: "1")
            case .forged: reply = Self.reply(sent[identifier]!, from: "mallory@example.org", body: "1")
            case .away: reply = Self.reply(sent[identifier]!, headers: ["Auto-Submitted: auto-replied"], body: "I am away.")
            }
            try Data(reply.utf8).write(to: replies.appendingPathComponent("new/\(identifier).test:2,"))
        }
        let (lines, newAnswers) = try Self.ingestMaildir(ws, identifiers)
        let expected = identifiers.indices.map { index in
            switch kind(index) {
            case .answer: "responded: seen (carried out)"
            case .forged: "forged-sender"
            case .away: "auto-reply"
            }
        }
        let outcomes = lines.map { line in String(line.drop { $0 != " " }.dropFirst().prefix { $0 != "—" }).trimmingCharacters(in: .whitespaces) }
        let wrong = zip(identifiers, zip(expected, outcomes)).filter { !$1.1.hasPrefix($1.0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")

        #expect(try FileManager.default.contentsOfDirectory(atPath: replies.appendingPathComponent("new").path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: replies.appendingPathComponent("cur").path).count == count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/tmp")).isEmpty, "no answer left unpublished")
        // Each answer names the reply it answers in its References.
        var answers: [String: [String]] = [:]
        for name in newAnswers {
            let text = try String(contentsOf: ws.url.appendingPathComponent("outbox/new/" + name), encoding: .utf8)
            let answered = text.firstMatch(of: /<(r\d{4})@example.org>/).map { String($0.output.1) } ?? "?"
            answers[answered, default: []].append(text)
        }
        let answered = identifiers.indices.filter { kind($0) == .answer }.map { identifiers[$0] }
        #expect(answers.keys.sorted() == answered, "an answer to each reply that chose an action, and to no other")
        #expect(answers.values.allSatisfy { $0.count == 1 }, "each answered once")
        // Taken in the Maildir's order, the k-th carried-out reply leaves count - k open.
        var wrongCounts: [String] = []
        for (k, identifier) in answered.enumerated() {
            let open = count - (k + 1)
            let says = open == 1 ? "1 reminder is still open." : "\(open) reminders are still open."
            if !(answers[identifier]?.first?.contains(says) ?? false) { wrongCounts.append("\(identifier): not \"\(says)\"") }
        }
        #expect(wrongCounts.count == 0, "first wrong: \(wrongCounts.prefix(3))")
    }

    /// A batch's messages are read ahead only up to a budget of bytes (16 MiB); the rest
    /// are read when their turn comes. Large replies are all taken just the same.
    @Test("24 replies of 1 MiB each in a Maildir (more than a batch keeps read ahead): each recorded and answered once, in the Maildir's order")
    func maildirLargeReplies() throws {
        let count = 24
        let (ws, identifiers, sent, replies) = try Self.maildirOfReplies(count)
        // A photo attached to each: 1 MiB of base64 after the typed answer.
        let line = String(repeating: "QUJD", count: 19) + "\r\n"
        let attachment = String(repeating: line, count: (1 << 20) / line.utf8.count)
        for identifier in identifiers {
            let reply = Self.reply(sent[identifier]!, headers: [], body: "")
                .replacingOccurrences(of: "Content-Type: text/plain; charset=utf-8", with: #"Content-Type: multipart/mixed; boundary="b1""#)
                + ["--b1", "Content-Type: text/plain; charset=utf-8", "", "1", "--b1", "Content-Type: image/jpeg",
                   "Content-Transfer-Encoding: base64", "", attachment + "--b1--", ""].joined(separator: "\r\n")
            try Data(reply.utf8).write(to: replies.appendingPathComponent("new/\(identifier).test:2,"))
        }
        let (lines, answers) = try Self.ingestMaildir(ws, identifiers)
        #expect(lines.allSatisfy { $0.contains(": responded: seen (carried out)") }, "\(lines.first { !$0.contains("responded") } ?? "")")
        #expect(try FileManager.default.contentsOfDirectory(atPath: replies.appendingPathComponent("cur").path).count == count)
        #expect(answers.count == count, "one answer each")
    }

    /// The same reply twice in the Maildir (an MTA's retry delivered beside the first, a
    /// fetcher's duplicate) is answered once, though both are in one batch. And a run
    /// killed after it published a batch's answers, before it moved the replies to `cur/`,
    /// leaves them in `new/` for the next run: that one must not answer them again.
    @Test("the same reply twice in one chime ingest --maildir is answered once; replies answered and found in new/ again (a run killed before it moved them) are replays, none answered twice")
    func maildirRepliesReadAgain() throws {
        let count = 30
        let (ws, identifiers, sent, replies) = try Self.maildirOfReplies(count)
        for identifier in identifiers {
            try Data(Self.reply(sent[identifier]!, body: "1").utf8).write(to: replies.appendingPathComponent("new/\(identifier).test:2,"))
        }
        // r0005's copy, named to come first.
        try FileManager.default.copyItem(at: replies.appendingPathComponent("new/r0005.test:2,"), to: replies.appendingPathComponent("new/r0005.copy:2,"))
        let taken = identifiers[...5] + identifiers[5...]
        let (first, firstAnswers) = try Self.ingestMaildir(ws, Array(taken))
        #expect(first[5].hasSuffix(": responded: seen (carried out) — answered: Done: Seen.") && first[6].hasSuffix(": replayed: seen"),
                "\(first[5...6])")
        #expect(firstAnswers.count == count, "one answer each, the copy's none")
        let cur = replies.appendingPathComponent("cur")
        for name in try FileManager.default.contentsOfDirectory(atPath: cur.path) {
            try FileManager.default.moveItem(at: cur.appendingPathComponent(name), to: replies.appendingPathComponent("new/" + name))
        }
        let (lines, answers) = try Self.ingestMaildir(ws, Array(taken))
        #expect(lines.allSatisfy { $0.hasSuffix(": replayed: seen") }, "\(lines.first { !$0.hasSuffix(": replayed: seen") } ?? "")")
        #expect(answers.isEmpty, "\(answers.count) answered again")
    }

    /// Replies are recorded and carried out many to a transaction of the store; a reply
    /// whose action runs a command must not run it while that transaction holds the store,
    /// since the command may write to it (here: taking the store's write lock, waiting at
    /// most 2 s for it).
    @Test("250 replies in a Maildir, every 50th choosing an action whose command writes to the store: each command gets the store at once and succeeds, and every reply around it is carried out and answered")
    func maildirCommandHooks() throws {
        let count = 250
        let writer = #"python3 -c 'import sqlite3; db = sqlite3.connect(&quot;chime.sqlite&quot;, timeout=2); db.execute(&quot;BEGIN IMMEDIATE&quot;); db.rollback()'"#
        let configuration = Self.configuration.replacingOccurrences(of: #"<action identifier="seen" title="Seen"/>"#, with: """
            <action identifier="seen" title="Seen"/>
            <action identifier="log" title="Log"><hook command="\(writer)"/></action>
            """)
        let (ws, identifiers, sent, replies) = try Self.maildirOfReplies(count, configuration: configuration)
        for (index, identifier) in identifiers.enumerated() {
            let reply = Self.reply(sent[identifier]!, body: index % 50 == 25 ? "2" : "1")
            try Data(reply.utf8).write(to: replies.appendingPathComponent("new/\(identifier).test:2,"))
        }
        let (lines, answers) = try Self.ingestMaildir(ws, identifiers)
        let expected = identifiers.indices.map { $0 % 50 == 25 ? ": responded: log (carried out)" : ": responded: seen (carried out)" }
        let wrong = zip(lines, expected).filter { !$0.contains($1) }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
        #expect(answers.count == count, "one answer each")
        let logged = try Self.json(ws, "responses").filter { $0["actionIdentifier"] as? String == "log" }
        #expect(logged.count == 5)
        #expect(logged.allSatisfy { ($0["result"] as? String) == "command exit 0" }, "\(logged.map { $0["result"] ?? "" })")
    }
}
