import Foundation
import Testing

/// What a person answering a reminder meets, as the operator's first week found it.
extension OperatorTests {
    /// `chime.xml` in `etc/`, the store in `var/` (as `/etc/chime` and `/var/lib/chime`):
    /// an action whose hook fails until `service-up` exists in the folder it runs in.
    static func answersConfiguration(_ ws: Workspace) -> String {
        """
        <chime version="1">
          <categories>
            <category identifier="shop">
              <action identifier="archive" title="Archive">
                <hook command="cat >> archived.jsonl; test -e service-up || { echo 'the archive service is down' >&amp;2; exit 3; }"/>
              </action>
            </category>
          </categories>
          <channels>
            <channel id="mail" url="maildir:\(ws.path("outbox"))" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
            <channel id="log" url="file:\(ws.path("sent.jsonl"))"/>
          </channels>
          <replies linkBase="http://127.0.0.1"/>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris">
              <address channel="mail">alice@example.org</address>
              <address channel="log"/>
            </recipient>
          </recipients>
        </chime>
        """
    }

    @Test("a failed hook is carried out again: a second reply, a second press of the link and chime respond --retry each try once more, until it succeeds; after that, answers are replays; hooks run in the state folder (the store's, or --state-dir), never beside chime.xml")
    func failedHookAgain() throws {
        let ws = try ReplyCorpusTests.workspace()
        for folder in ["etc", "var", "state"] { try FileManager.default.createDirectory(at: ws.url.appendingPathComponent(folder), withIntermediateDirectories: true) }
        try ws.write("etc/chime.xml", Self.answersConfiguration(ws))
        let global = ["--config", "etc/chime.xml", "--store", "sqlite:var/chime.sqlite", "--templates", "templates"]
        let sent = try ReplyCorpusTests.send(ws, ["a", "b", "c"], category: "shop", options: global)
        func ingest(_ reminder: String, at time: String) throws -> String {
            try ws.write("incoming.eml", ReplyCorpusTests.reply(sent[reminder]!, body: "Archive"))
            let result = try ws.chime(["ingest"] + global, now: "2026-11-21T\(time)Z", input: "incoming.eml")
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout
        }
        func attempts(_ reminder: String, in folder: String = "var") throws -> [[String: Any]] {
            try ws.lines("\(folder)/archived.jsonl").filter { $0["identifier"] as? String == reminder }
        }
        func responses() throws -> [[String: Any]] {
            try JSONSerialization.jsonObject(with: Data(try ws.chime(["responses", "--json"] + global).stdout.utf8)) as? [[String: Any]] ?? []
        }

        // A reply while the service is down: told to try again later. The hook ran in the
        // store's folder, not in chime.xml's.
        var printed = try ingest("a", at: "10:00:00")
        #expect(printed.contains("responded: archive (failed)") && printed.contains("could not be carried out. Please try again later."), "\(printed)")
        #expect(try attempts("a").count == 1)
        #expect(!FileManager.default.fileExists(atPath: ws.path("etc/archived.jsonl")), "nothing written beside chime.xml")
        // Trying again later, as told: tried again (not "already done"), still failing.
        printed = try ingest("a", at: "10:05:00")
        #expect(printed.contains("responded: archive (failed)") && !printed.contains("already done"), "\(printed)")
        // The service is back: the third reply carries it out; a fourth is a replay.
        try ws.write("var/service-up", "")
        printed = try ingest("a", at: "10:10:00")
        #expect(printed.contains("responded: archive (carried out)") && printed.contains("Done: Archive."), "\(printed)")
        printed = try ingest("a", at: "10:15:00")
        #expect(printed.contains("replayed: archive") && printed.contains("This was already done."), "\(printed)")
        let tries = try attempts("a")
        #expect(tries.count == 3, "three tries, the last one successful, none after: \(tries)")
        #expect(Set(tries.map { $0["id"] as? Int ?? -1 }).count == 1, "one response, tried three times, under one id")
        var recorded = try responses().filter { $0["identifier"] as? String == "a" }
        #expect(recorded.count == 1 && recorded.first?["status"] as? String == "carried out", "\(recorded)")

        // By hand: chime respond --retry, with the hooks run in --state-dir's folder.
        try FileManager.default.removeItem(atPath: ws.path("var/service-up"))
        #expect(try ingest("b", at: "10:20:00").contains("responded: archive (failed)"))
        let id = try #require(try responses().first { $0["identifier"] as? String == "b" }?["id"] as? Int)
        let down = try ws.chime(["respond", "--retry", "\(id)", "--state-dir", "state"] + global, now: "2026-11-21T10:25:00Z")
        #expect(down.status == 75 && down.stderr == "b: archive failed: command exit 3: the archive service is down\n" && down.stdout.isEmpty, "on standard error, as run's: \(down)")
        #expect(try attempts("b", in: "state").count == 1, "run in the folder --state-dir names")
        try ws.write("state/service-up", "")
        let up = try ws.chime(["respond", "--retry", "\(id)", "--state-dir", "state"] + global, now: "2026-11-21T10:30:00Z")
        #expect(up.status == 0 && up.stdout == "b: archive carried out: command exit 0\n", "\(up)")
        let again = try ws.chime(["respond", "--retry", "\(id)", "--state-dir", "state"] + global, now: "2026-11-21T10:35:00Z")
        #expect(again.status == 0 && again.stdout == "b: archive was carried out already; not carried out again\n", "\(again)")
        #expect(try attempts("b", in: "state").count == 2)
        let unknown = try ws.chime(["respond", "--retry", "999"] + global)
        #expect(unknown.status == 65 && unknown.stderr.contains("no response 999"), "\(unknown)")

        // By link, through chime serve: the page says to try again later; pressing again
        // does, and once it worked a press is a replay.
        let link = try #require(try ServeTests.chat(ws, "c").links["archive"])
        let server = try ServeTests.Server(ws, ["--now", "2026-11-21T10:40:00Z"] + global)
        defer { server.stop() }
        var page = try server.request("POST", link)
        #expect(page.status == 200 && page.body.contains("“Archive” could not be carried out. Please try again later."), "\(page)")
        try ws.write("var/service-up", "")
        page = try server.request("POST", link)
        #expect(page.body.contains("Done: Archive.") && !page.body.contains("could not"), "\(page)")
        page = try server.request("POST", link)
        #expect(page.body.contains("already done"), "\(page)")
        #expect(try attempts("c").count == 2)
        recorded = try responses()
        #expect(recorded.map { $0["status"] as? String } == ["carried out", "carried out", "carried out"], "\(recorded)")
    }
}

extension OperatorTests {
    @Test("a reply whose carrying out was cut short (chime killed while its hook ran) is kept as carrying out: the MTA's retry within ten minutes exits 75 and runs nothing, the one after carries it out once; chime respond --retry likewise waits ten minutes; a press meanwhile is told it was received")
    func cutShortCarriedOutLater() throws {
        let ws = try ReplyCorpusTests.workspace()
        for folder in ["etc", "var"] { try FileManager.default.createDirectory(at: ws.url.appendingPathComponent(folder), withIntermediateDirectories: true) }
        // The hook's first run for each reminder (each odd run: the first for a, the
        // second for a, the first for b…) kills the chime running it, as a crash or an OOM
        // kill would.
        let killing = #"cat >> archived.jsonl; test $(( $(wc -l < archived.jsonl) % 2 )) -eq 0 || kill -9 $PPID"#
        try ws.write("etc/chime.xml", Self.answersConfiguration(ws).replacingOccurrences(
            of: #"<hook command="cat >> archived.jsonl; test -e service-up || { echo 'the archive service is down' >&amp;2; exit 3; }"/>"#,
            with: "<hook command=\"\(killing.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;"))\"/>"))
        let global = ["--config", "etc/chime.xml", "--store", "sqlite:var/chime.sqlite", "--templates", "templates"]
        let sent = try ReplyCorpusTests.send(ws, ["a", "b", "c"], category: "shop", options: global)
        func ingest(_ reminder: String, at time: String) throws -> ChimeProcess.Result {
            try ws.write("incoming.eml", ReplyCorpusTests.reply(sent[reminder]!, body: "Archive"))
            return try ws.chime(["ingest"] + global, now: "2026-11-21T\(time)Z", input: "incoming.eml")
        }
        func attempts(_ reminder: String) throws -> Int {
            try ws.lines("var/archived.jsonl").filter { $0["identifier"] as? String == reminder }.count
        }
        func status(_ reminder: String) throws -> String? {
            let listed = try JSONSerialization.jsonObject(with: Data(try ws.chime(["responses", "--json"] + global).stdout.utf8)) as? [[String: Any]]
            return listed?.first { $0["identifier"] as? String == reminder }?["status"] as? String
        }

        // Killed while the hook ran: the response is kept, as being carried out.
        let killed = try ingest("a", at: "10:00:00")
        #expect(killed.status != 0 && killed.status != 75, "\(killed)")
        #expect(try attempts("a") == 1)
        #expect(try status("a") == "carrying out")
        // The MTA tries again five minutes on: too soon to tell a crash from a slow hook.
        let soon = try ingest("a", at: "10:05:00")
        #expect(soon.status == 75 && soon.stderr.contains("stdin: not recorded, try again later: archive is being carried out"), "\(soon)")
        #expect(try attempts("a") == 1, "nothing run twice")
        // Eleven minutes on: taken again and carried out, once; after that, a replay.
        let later = try ingest("a", at: "10:11:00")
        #expect(later.status == 0 && later.stdout.contains("responded: archive (carried out)"), "\(later)")
        #expect(try attempts("a") == 2)
        #expect(try status("a") == "carried out")
        let replay = try ingest("a", at: "10:30:00")
        #expect(replay.status == 0 && replay.stdout.contains("replayed: archive"), "\(replay)")
        #expect(try attempts("a") == 2)

        // By hand: chime respond --retry refuses while it may still be running, then carries it out.
        #expect(try ingest("b", at: "11:00:00").status != 0)
        let id = try #require(try JSONSerialization.jsonObject(with: Data(try ws.chime(["responses", "--json"] + global).stdout.utf8)) as? [[String: Any]])
            .first { $0["identifier"] as? String == "b" }?["id"] as? Int
        let early = try ws.chime(["respond", "--retry", "\(try #require(id))"] + global, now: "2026-11-21T11:05:00Z")
        #expect(early.status == 0 && early.stdout == "b: archive is being carried out (since 2026-11-21T11:00:00Z); not carried out twice\n", "\(early)")
        let retried = try ws.chime(["respond", "--retry", "\(try #require(id))"] + global, now: "2026-11-21T11:10:00Z")
        #expect(retried.status == 0 && retried.stdout == "b: archive carried out: command exit 0\n", "\(retried)")
        #expect(try attempts("b") == 2)

        // By link, through chime serve: a press while the first is being carried out is
        // told it was received, and runs nothing.
        #expect(try ingest("c", at: "10:40:00").status != 0)
        let link = try #require(try ServeTests.chat(ws, "c").links["archive"])
        let server = try ServeTests.Server(ws, ["--no-scheduler", "--now", "2026-11-21T10:45:00Z"] + global)
        defer { server.stop() }
        let page = try server.request("POST", link)
        #expect(page.status == 200 && page.body.contains("“Archive” received."), "\(page)")
        #expect(try attempts("c") == 1)
        #expect(try status("c") == "carrying out")
    }
}

extension OperatorTests {
    /// Amélie reads French; her reminders come by email, to a log, and to Slack.
    static func frenchConfiguration(_ ws: Workspace) -> String {
        """
        <chime version="1">
          <categories>
            <category identifier="shoppingListReminderCategory">
              <action identifier="justInform" title="OK, got it"/>
              <action identifier="trashAction" title="Delete list" destructive="true"/>
            </category>
          </categories>
          <channels>
            <channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
            <channel id="log" url="file:./sent.jsonl"/>
            <channel id="team" \(ServeTests.slackChannel) secret="file:\(ws.path("slack.key"))"/>
          </channels>
          <replies linkBase="http://127.0.0.1"/>
          <recipients>
            <recipient id="amelie" locale="fr" timeZone="Europe/Paris">
              <address channel="mail">amelie@example.fr</address>
              <address channel="log"/>
              <address channel="team">U1</address>
            </recipient>
          </recipients>
        </chime>
        """
    }

    @Test("a French recipient's pages, Slack confirm dialog and answers are in French and name the reminder, never the raw category id; once she chooses Japanese on the preferences page, they are in Japanese")
    func pagesInTheirLanguage() throws {
        let ws = try ReplyCorpusTests.workspace()
        try ws.write("slack.key", UUID().uuidString)
        try ws.write("chime.xml", Self.frenchConfiguration(ws))
        let sent = try #require(try ReplyCorpusTests.send(ws, ["list"], category: "shoppingListReminderCategory", recipient: "amelie",
                                                          runMustSucceed: false)["list"])
        let chat = try ServeTests.chat(ws, "list")
        let server = try ServeTests.Server(ws)
        defer { server.stop() }

        // The action link's page asks, in French, about this reminder.
        let ok = try #require(chat.links["justInform"])
        var page = try server.request("GET", ok)
        #expect(page.status == 200 && page.body.contains(#"<html lang="fr""#) && page.body.contains("<h1>Shopping</h1>"), "\(page)")
        #expect(page.body.contains("Effectuer « OK, compris » ?") && page.body.contains(">OK, compris</button>"), "\(page)")
        page = try server.request("POST", ok)
        #expect(page.body.contains("Shopping : « OK, compris » bien reçu.") && page.body.contains("C’est fait : OK, compris."), "\(page)")
        page = try server.request("POST", ok)
        #expect(page.body.contains("Shopping : « OK, compris » était déjà fait."), "\(page)")
        // A link that names no action of it, and one past its time, say so in French too.
        page = try server.request("GET", ok.replacingOccurrences(of: "/justInform", with: "/nope"))
        #expect(page.status == 403, "a link's action cannot be changed: \(page)")
        let late = try ServeTests.Server(ws, ["--now", "2027-03-01T10:00:00Z"])
        page = try late.request("POST", try #require(chat.links["trashAction"]))
        late.stop()
        #expect(page.status == 410 && page.body.contains("Shopping : ce rappel n’accepte plus de réponses."), "\(page)")

        // Slack's answer to a press, and its confirm dialog for the destructive action.
        let press = #"{"type":"block_actions","user":{"id":"U1"},"actions":[{"action_id":"a","value":"\#(chat.button(2))"}]}"#
        let answered = try ServeTests.slack(server, form: press, secret: try ws.read("slack.key"))
        #expect(answered.body.contains("Shopping : « Supprimer la liste » bien reçu."), "\(answered)")
        try ws.write("r.json", #"{"identifier": "p", "recipient": "amelie", "content": {"title": "Shopping", "categoryIdentifier": "shoppingListReminderCategory"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let preview = try ws.chime(["preview", "--json", "r.json", "--channel", "team"], now: "2026-11-21T09:00:00Z")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(preview.stdout.utf8)) as? [String: Any], "\(preview)")
        let buttons = ((body["blocks"] as? [[String: Any]])?.last?["elements"] as? [[String: Any]]) ?? []
        let confirm = try #require(buttons.compactMap { $0["confirm"] as? [String: Any] }.first, "\(body)")
        func text(_ name: String) -> String? { (confirm[name] as? [String: Any])?["text"] as? String }
        #expect(text("title") == "Supprimer la liste")
        #expect(text("text") == "« Shopping » : êtes-vous sûr ? C’est irréversible.")
        #expect(text("confirm") == "Confirmer" && text("deny") == "Annuler")

        // The unsubscribe page names the category as the preferences page does, not by its id.
        page = try server.request("GET", sent.unsubscribe)
        #expect(page.body.contains("<h1>Shopping</h1>") && page.body.contains("Ne plus recevoir les rappels « Listes de courses » ?")
                && page.body.contains(">Se désabonner</button>") && !page.body.contains("shoppingListReminderCategory"), "\(page)")

        // She chooses Japanese on the preferences page: what she sees next is in Japanese.
        let email = PolicyTests.text(try #require(try PolicyTests.outbox(ws).values.first))
        let preferences = try #require(email.firstMatch(of: /http:\/\/127\.0\.0\.1(\/p\/[0-9a-z.]+)/)).output.1
        let form = try server.request("GET", String(preferences))
        let nonce = try #require(form.body.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)).output.1
        let saved = try server.request("POST", String(preferences), headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "chime_csrf=\(nonce)"],
                                       body: Array("csrf=\(nonce)&locale=ja".utf8))
        #expect(saved.status == 303 || saved.body.contains("保存しました"), "\(saved)")
        page = try server.request("POST", sent.unsubscribe, body: Array("List-Unsubscribe=One-Click".utf8))
        #expect(page.body.contains(#"<html lang="ja""#) && page.body.contains("「買い物リスト」のリマインダーは今後届きません。"), "\(page)")
    }
}
