import ChimeTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `GET`/`PUT /v1/recipients/{id}/settings` over real HTTP against `chime serve`: what a
/// recipient changed through the real flows (one-click unsubscribe, the preferences page,
/// confirming an opt-in) and what Chime concluded (a hard bounce through `chime ingest`)
/// read back, reset part by part, and the next `chime run` going by the reset.
@Suite("HTTP API: recipients' settings", .serialized)
struct APIRecipientSettingsTests {
    struct Keys {
        var read = UUID().uuidString
        var write = UUID().uuidString
        var admin = UUID().uuidString
    }

    static func configuration(_ ws: Workspace, smtpPort: Int) -> String {
        """
        <chime version="1">
          <categories>
            <category identifier="shop"><action identifier="justInform" title="OK, got it"/></category>
          </categories>
          <channels>
            <channel id="smtp" url="smtp://127.0.0.1:\(smtpPort)" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
            <channel id="log" url="file:./sent.jsonl"/>
          </channels>
          <replies linkBase="http://127.0.0.1"/>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris">
              <address channel="smtp">alice@example.org</address>
              <address channel="log"/>
            </recipient>
            <recipient id="erin" locale="en" timeZone="Europe/Paris" authorization="notDetermined">
              <address channel="smtp">erin@example.org</address>
            </recipient>
          </recipients>
          <api>
            <key id="dashboard" secret="file:\(ws.path("read.key"))" scope="read"/>
            <key id="backend" secret="file:\(ws.path("write.key"))" scope="write"/>
            <key id="ops" secret="file:\(ws.path("admin.key"))" scope="admin"/>
          </api>
        </chime>
        """
    }

    static func workspace(_ keys: Keys, smtpPort: Int) throws -> Workspace {
        let ws = try ReplyCorpusTests.workspace("")
        try ws.write("chime.xml", configuration(ws, smtpPort: smtpPort))
        try ws.write("read.key", keys.read)
        try ws.write("write.key", keys.write)
        try ws.write("admin.key", keys.admin)
        return ws
    }

    /// One HTTP exchange, any method with a body, its headers kept (no cookie jar).
    static func exchange(_ port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil) throws
        -> (status: Int, body: String, headers: [String: String]) {
        ServeTests.Server.exchange(port: port, method, path, headers: headers, body: Array((body ?? "").utf8))
    }

    static func object(_ body: String) -> [String: Any] {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]) ?? [:]
    }

    @Test("GET shows a fresh recipient's nothing, then an unsubscribe, a preferences-page save, a hard bounce and a confirmed opt-in; PUT resets each part (401, 403, 404, 400 refused), and the next chime run delivers again")
    func readAndReset() throws {
        let smtp = try SMTPServer()
        let keys = Keys()
        let ws = try Self.workspace(keys, smtpPort: smtp.port)
        func fire(_ items: [(String, String, String)], at minute: Int) throws -> ChimeProcess.Result {
            let json = items.map {
                #"{"identifier": "\#($0.0)", "recipient": "\#($0.1)", "content": {"title": "Title \#($0.0)", "body": "Body \#($0.0)", "categoryIdentifier": "\#($0.2)"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
            }
            try ws.write("requests.json", "[" + json.joined(separator: ",") + "]")
            let at = { (minute: Int) in String(format: "2026-11-21T%02d:%02d:00Z", 9 + minute / 60, minute % 60) }
            let scheduled = try ws.chime(["schedule", "--json", "requests.json"], now: at(minute))
            #expect(scheduled.status == 0, "\(scheduled.stderr)")
            return try ws.chime(["run"], now: at(minute + 2))
        }
        func mails(to address: String) throws -> [String] {
            try smtp.messages().filter { ($0["to"] as? [String]) == [address] }.compactMap { $0["data"] as? String }
        }

        let first = try fire([("s1", "alice", "shop"), ("e1", "erin", "shop")], at: 0)
        #expect(first.stdout == "fired 2, delivered 2, 1 awaiting opt-in, 1 asked to opt in\n", "\(first.stdout) \(first.stderr)")
        let reminder = try #require(try mails(to: "alice@example.org").first)
        let headers = reminder.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n\n")[0]
            .replacingOccurrences(of: "\n ", with: " ").replacingOccurrences(of: "\n\t", with: " ")
        let listUnsubscribe = try #require(headers.split(separator: "\n").first { $0.hasPrefix("List-Unsubscribe: ") })
        let unsubscribe = String(try #require(listUnsubscribe.firstMatch(of: /<https?:\/\/[^\/>]+(\/u\/[^>]+)>/)).output.1)
        let preferences = String(try #require(PolicyTests.text(reminder).firstMatch(of: /http:\/\/127\.0\.0\.1(\/p\/[0-9a-z.]+)\n/)).output.1)
        let returnPath = try #require(try smtp.messages().first { ($0["to"] as? [String]) == ["alice@example.org"] }?["from"] as? String)
        let ask = try #require(try mails(to: "erin@example.org").first)
        let confirm = String(try #require(PolicyTests.text(ask).firstMatch(of: /(\/a\/[a-z2-7]+\/confirm)\n/)).output.1)
        let askToken = String(try #require(ask.firstMatch(of: /Message-ID: <([a-z2-7]+)@/)).output.1)

        let started = Date()
        let server = try ServeTests.Server(ws, ["--no-scheduler", "--now", "2026-11-21T10:05:00Z"])
        defer { server.stop() }
        let admin = ["Authorization": "Bearer " + keys.admin]
        func get(_ id: String) throws -> [String: Any] {
            let answer = try Self.exchange(server.port, "GET", "/v1/recipients/\(id)/settings", headers: admin)
            #expect(answer.status == 200, "\(answer.body)")
            #expect(answer.headers["content-type"] == "application/json")
            return Self.object(answer.body)
        }
        func reset(_ id: String, _ body: String?) throws -> [String: Any] {
            let answer = try Self.exchange(server.port, "PUT", "/v1/recipients/\(id)/settings", headers: admin, body: body)
            #expect(answer.status == 200, "\(answer.body)")
            return Self.object(answer.body)
        }
        func settings(_ object: [String: Any]) -> [String: Any] { object["settings"] as? [String: Any] ?? [:] }
        func optIn(_ object: [String: Any]) -> [String: Any] { object["optIn"] as? [String: Any] ?? [:] }
        func addresses(_ object: [String: Any]) -> [[String: Any]] { object["addresses"] as? [[String: Any]] ?? [] }
        func deliver(_ object: [String: Any]) -> [String: String] {
            (object["preferences"] as? [String: [String: Any]] ?? [:]).compactMapValues { $0["deliver"] as? String }
        }

        // A fresh recipient: nothing changed, nothing concluded; every field written.
        let fresh = try get("alice")
        #expect(fresh["id"] as? String == "alice")
        #expect(settings(fresh).count == 4 && settings(fresh).values.allSatisfy { $0 is NSNull }, "\(fresh)")
        #expect(deliver(fresh).isEmpty)
        #expect(addresses(fresh).count == 2)
        #expect(addresses(fresh).first?["channel"] as? String == "smtp")
        #expect(addresses(fresh).first?["address"] as? String == "alice@example.org")
        #expect(addresses(fresh).allSatisfy { $0["undeliverable"] is NSNull }, "\(fresh)")
        #expect(addresses(fresh).last?["address"] as? String == "", "the file channel's address")
        #expect(optIn(fresh)["configured"] as? String == "authorized" && optIn(fresh)["authorization"] as? String == "authorized")
        #expect(optIn(fresh)["stored"] is NSNull && optIn(fresh)["askedAt"] is NSNull)
        let asked = try get("erin")
        #expect(optIn(asked)["configured"] as? String == "notDetermined" && optIn(asked)["authorization"] as? String == "notDetermined")
        #expect(optIn(asked)["askedAt"] as? String == "2026-11-21T09:02:00Z", "\(asked)")

        // Keys and recipients refused, each as a JSON error, changing nothing.
        for (headers, status) in [([:], 401), (["Authorization": "Bearer " + keys.read], 403), (["Authorization": "Bearer " + keys.write], 403)] {
            let read = try Self.exchange(server.port, "GET", "/v1/recipients/alice/settings", headers: headers)
            #expect(read.status == status, "\(headers)")
            #expect(APITests.error(read.body)?["code"] as? String == (status == 401 ? "unauthorized" : "forbidden"))
            #expect(try Self.exchange(server.port, "PUT", "/v1/recipients/erin/settings", headers: headers).status == status)
        }
        let unknown = try Self.exchange(server.port, "GET", "/v1/recipients/mallory/settings", headers: admin)
        #expect(unknown.status == 404)
        #expect(APITests.error(unknown.body)?["code"] as? String == "not_found")
        #expect((APITests.error(unknown.body)?["message"] as? String)?.contains("mallory") == true)
        #expect(try Self.exchange(server.port, "PUT", "/v1/recipients/mallory/settings", headers: admin).status == 404)
        #expect(optIn(try get("erin"))["askedAt"] as? String == "2026-11-21T09:02:00Z", "a refused PUT resets nothing")

        // One-click unsubscribe (RFC 8058's POST): shop turned off.
        #expect(try Self.exchange(server.port, "POST", unsubscribe).status == 200)
        #expect(deliver(try get("alice")) == ["shop": "off"])
        // The preferences page saved with only the language changed, every other field as
        // shown: only the language is stored, the rest stays chime.xml's.
        let shownPage = try Self.exchange(server.port, "GET", preferences)
        let firstNonce = String(try #require(shownPage.body.firstMatch(of: /name="csrf" value="([^"]+)"/)).output.1)
        let shownQuiet = String(try #require(shownPage.body.firstMatch(of: /name="quietHours" id="quietHours" value="([^"]*)"/)).output.1)
        let shownPreviews = String(try #require(shownPage.body.firstMatch(of: /<option value="([a-zA-Z]+)" selected>/)).output.1)
        let languageOnly = try Self.exchange(server.port, "POST", preferences,
                                             headers: ["Cookie": "chime_csrf=\(firstNonce)", "Content-Type": "application/x-www-form-urlencoded"],
                                             body: "csrf=\(firstNonce)&quietHours=\(shownQuiet)&showPreviews=\(shownPreviews)&locale=de")
        #expect(languageOnly.status == 303, "\(languageOnly.body)")
        let languageSaved = try get("alice")
        #expect(settings(languageSaved)["locale"] as? String == "de")
        #expect(settings(languageSaved)["showPreviews"] is NSNull && settings(languageSaved)["quietHours"] is NSNull, "\(languageSaved)")
        // The preferences page: its form's cookie and nonce, then quiet hours, no previews, French.
        let page = try Self.exchange(server.port, "GET", preferences)
        #expect(page.status == 200)
        let nonce = String(try #require(page.body.firstMatch(of: /name="csrf" value="([^"]+)"/)).output.1)
        let saved = try Self.exchange(server.port, "POST", preferences,
                                      headers: ["Cookie": "chime_csrf=\(nonce)", "Content-Type": "application/x-www-form-urlencoded"],
                                      body: "csrf=\(nonce)&quietHours=21%3A00-06%3A00&showPreviews=never&locale=fr")
        #expect(saved.status == 303, "\(saved.body)")
        // A hard bounce to alice's own return path.
        let bounce = try InboundTrustTests.ingest(ws, InboundTrustTests.postfixBounce(to: returnPath, failed: "alice@example.org"))
        #expect(bounce.hasPrefix("stdin: bounce: alice@example.org marked undeliverable"), "\(bounce)")
        let changed = try get("alice")
        #expect(settings(changed)["locale"] as? String == "fr")
        #expect(settings(changed)["showPreviews"] as? String == "never")
        #expect(settings(changed)["quietHours"] as? String == "21:00-06:00")
        // The server's --now, running on from when it started.
        let changedAt = try #require((settings(changed)["changedAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
        let serverStart = try #require(ISO8601DateFormatter().date(from: "2026-11-21T10:05:00Z"))
        #expect(changedAt >= serverStart && changedAt <= serverStart.addingTimeInterval(Date().timeIntervalSince(started) + 1),
                "\(changedAt): the server's --now")
        #expect(deliver(changed) == ["shop": "off"], "the page kept the unsubscribe")
        let mark = addresses(changed).first?["undeliverable"] as? [String: Any]
        #expect(mark?["reason"] as? String == "hard bounce", "\(changed)")
        #expect(mark?["at"] as? String == "2026-11-21T10:00:00Z")
        #expect(addresses(changed).last?["undeliverable"] is NSNull)

        // The next run goes by them: shop is off; the reminder of no category reaches only the file.
        let held = try fire([("s2", "alice", "shop"), ("n2", "alice", "")], at: 70)
        #expect(held.stdout.contains("1 turned off"), "\(held.stdout) \(held.stderr)")
        #expect(try mails(to: "alice@example.org").count == 1, "nothing more to the marked address")
        #expect(try ws.read("sent.jsonl").contains("Title n2"))
        #expect(!(try ws.read("sent.jsonl")).contains("Title s2"))

        // PUT refuses what is not a reset, changing nothing.
        for (body, at) in [(#"{"reset": ["everything"]}"#, "reset[0]"), (#"{"reset": "settings"}"#, "reset"), (#"{"undo": []}"#, "undo"),
                           ("[1]", nil), ("{", nil), (#"{"reset": [], "reset": ["preferences"]}"#, "reset"), (#"{"reset": ["settings"],}"#, nil)] {
            let refused = try Self.exchange(server.port, "PUT", "/v1/recipients/alice/settings", headers: admin, body: body)
            #expect(refused.status == 400, "\(body)")
            #expect(APITests.error(refused.body)?["code"] as? String == "bad_request")
            #expect(APITests.error(refused.body)?["at"] as? String == at, "\(body): \(refused.body)")
        }
        // Half a MiB of opening brackets: refused at the 65th (read recursively, it took
        // the server down), and the server answers on.
        let deep = try Self.exchange(server.port, "PUT", "/v1/recipients/alice/settings", headers: admin,
                                     body: String(repeating: "[", count: 500_000))
        #expect(deep.status == 400)
        #expect((APITests.error(deep.body)?["message"] as? String)?.hasPrefix("arrays and objects nested deeper than 64 levels (line 1, column 65)") == true,
                "\(deep.body.prefix(300))")
        #expect(try get("alice")["settings"] as? NSDictionary == changed["settings"] as? NSDictionary)
        #expect(try reset("alice", #"{"reset": []}"#)["settings"] as? NSDictionary == changed["settings"] as? NSDictionary, "an empty list resets nothing")

        // Part by part: preferences, then the mark; the settings stay.
        let noPreferences = try reset("alice", #"{"reset": ["preferences"]}"#)
        #expect(deliver(noPreferences).isEmpty)
        #expect(settings(noPreferences)["locale"] as? String == "fr")
        #expect(addresses(noPreferences).first?["undeliverable"] is [String: Any], "the mark stays")
        let unmarked = try reset("alice", #"{"reset": ["undeliverable"]}"#)
        #expect(addresses(unmarked).allSatisfy { $0["undeliverable"] is NSNull }, "\(unmarked)")
        #expect(try get("alice")["addresses"] as? NSArray == unmarked["addresses"] as? NSArray, "PUT answers what GET then reads")
        #expect(try ws.chime(["recipients"]).stdout.contains("undeliverable") == false, "as chime recipients sees it")
        let french = try fire([("s3", "alice", "shop")], at: 80)
        #expect(french.stdout == "fired 1, delivered 1\n", "shop fires again, to the address again: \(french.stdout) \(french.stderr)")
        let third = try #require(try mails(to: "alice@example.org").last)
        #expect(PolicyTests.text(third).contains("Préférences de notification"), "still in French: \(PolicyTests.text(third))")
        #expect(!third.contains("Title s3"), "previews still hidden")

        // An empty body resets everything: the next reminder is in English, its title shown.
        let cleared = try reset("alice", nil)
        #expect(settings(cleared).values.allSatisfy { $0 is NSNull }, "\(cleared)")
        #expect(deliver(cleared).isEmpty)
        #expect(try ws.chime(["recipients"]).status == 0)
        let english = try fire([("s4", "alice", "shop")], at: 90)
        #expect(english.stdout == "fired 1, delivered 1\n", "\(english.stdout) \(english.stderr)")
        let fourth = try #require(try mails(to: "alice@example.org").last)
        #expect(PolicyTests.text(fourth).contains("Notification preferences"), "\(PolicyTests.text(fourth))")
        #expect(PolicyTests.text(fourth).contains("Title s4"))

        // erin confirms her opt-in by the link; an optIn reset forgets it and that she was
        // asked: the old link confirms nothing, and the next run asks her again.
        // The request's reply token names nothing to unsubscribe from (ignoring it is enough).
        let leave = try Self.exchange(server.port, "POST", "/u/\(askToken)", body: "List-Unsubscribe=One-Click")
        #expect(leave.status == 404, "\(leave.status) \(leave.body)")
        #expect((try get("erin")["preferences"] as? [String: Any])?.isEmpty == true, "no chime.optIn preference stored")
        // Its confirmation page names it by its subject, as her mail shows it.
        let confirming = try Self.exchange(server.port, "POST", confirm)
        #expect(confirming.status == 200 && confirming.body.contains("<h1>Do you want reminders at this address?</h1>"), "\(confirming.body)")
        let confirmed = try get("erin")
        #expect(optIn(confirmed)["stored"] as? String == "authorized" && optIn(confirmed)["authorization"] as? String == "authorized")
        #expect(try fire([("e2", "erin", "shop")], at: 100).stdout == "fired 1, delivered 1\n")
        let forgotten = try reset("erin", #"{"reset": ["optIn"]}"#)
        #expect(optIn(forgotten)["stored"] is NSNull && optIn(forgotten)["askedAt"] is NSNull, "\(forgotten)")
        #expect(optIn(forgotten)["authorization"] as? String == "notDetermined")
        #expect(try Self.exchange(server.port, "POST", confirm).status != 200, "the old request's link is gone with it")
        let before = try mails(to: "erin@example.org").count
        let again = try fire([("e3", "erin", "shop")], at: 110)
        #expect(again.stdout == "fired 1, delivered 1, 1 awaiting opt-in, 1 asked to opt in\n", "\(again.stdout) \(again.stderr)")
        let mails = try mails(to: "erin@example.org")
        #expect(mails.count == before + 1)
        #expect(mails.last?.contains("Subject: Do you want reminders at this address?") == true)
        #expect(!(mails.last.map(PolicyTests.text) ?? "").contains("Title e3"))
        #expect(optIn(try get("erin"))["askedAt"] as? String == "2026-11-21T10:52:00Z")
        // The new request's Confirm is hers to give again (not taken for a replay of the first).
        let askedAgain = try #require(mails.last)
        let confirmAgain = String(try #require(PolicyTests.text(askedAgain).firstMatch(of: /(\/a\/[a-z2-7]+\/confirm)\n/)).output.1)
        #expect(confirmAgain != confirm, "a new request, a new link")
        #expect(try Self.exchange(server.port, "POST", confirm).status != 200, "the old request's link confirms nothing, once she is asked again too")
        #expect(optIn(try get("erin"))["stored"] is NSNull)
        let reconfirmed = try Self.exchange(server.port, "POST", confirmAgain)
        #expect(reconfirmed.status == 200 && !reconfirmed.body.contains("already"), "\(reconfirmed.body)")
        #expect(optIn(try get("erin"))["stored"] as? String == "authorized")

        server.stop()
        #expect(!(try ws.read("serve.out")).contains(keys.admin))
    }

    /// Schemathesis on these two operations with an admin key (the whole document's run
    /// in ``APITests`` has a write key, which they answer 403).
    @Test("Schemathesis against the recipients' settings operations with an admin key: no server error, every answer as the document says")
    func schemathesis() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys, smtpPort: 9)
        let server = try ServeTests.Server(ws, ["--no-scheduler"])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        try APITests.schemathesis(base, key: keys.admin, options: ["--include-path-regex", "^/v1/recipients/"], maxExamples: 100, atLeast: 100, in: ws)
        server.stop()
        #expect(!(try ws.read("serve.out")).contains(keys.admin), "the key in every request, in no log line")
    }
}
