import ChimeCore
import ChimeTestSupport
import Foundation
import Testing

/// The preferences page of `chime serve`, reached from a real email's footer link and
/// used in headless Chromium (Debian's chromium, chromedriver and python3-selenium); what
/// is clicked there is what the next `chime run` does. Its screenshots are kept in
/// `test-artifacts/preferences/`.
@Suite("the preferences page in a browser", .serialized)
struct PreferencesPageTests {
    static let configuration = """
        <chime version="1">
          <categories>
            \(PolicyTests.shop)
            <category identifier="timer" hiddenPreviewsBodyPlaceholder="Timer">
              <action identifier="restart" title="Restart"/>
            </category>
          </categories>
          <channels>
            \(PolicyTests.mail)
          </channels>
          <replies linkBase="http://127.0.0.1/chime/links"/>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris">
              <address channel="mail">alice@example.org</address>
            </recipient>
          </recipients>
        </chime>
        """

    @Test("clicking Turn off, typing quiet hours, choosing no previews and French, then Save, through a reverse proxy serving chime serve under /chime/links (the linkBase's path): the page answers in French, and the next chime run turns the category off, hides the previews, writes in French and keeps what fires in the new quiet hours for the digest; a POST without the form's cookie changes nothing")
    func clickedChangesAreHonoured() throws {
        let ws = try ReplyCorpusTests.workspace(Self.configuration)
        let sent = try ReplyCorpusTests.send(ws, ["first"], category: "shop")
        #expect(sent["first"] != nil)
        let email = PolicyTests.text(try #require(try PolicyTests.outbox(ws).values.first))
        let path = try #require(email.firstMatch(of: /Notification preferences: http:\/\/127\.0\.0\.1\/chime\/links(\/p\/[0-9a-z.]+)\n/)).output.1
        let server = try ServeTests.Server(ws)
        defer { server.stop() }
        // As an operator serves it: a proxy taking /chime/links off each path.
        let proxy = try PrefixProxy(prefix: "/chime/links", upstream: server.port)

        // Without the cookie the form sets, a POST (another site's form) changes nothing.
        let forged = try server.request("POST", "\(path)", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                        body: Array("csrf=0123&deliver.timer=off".utf8))
        #expect(forged.status == 403, "\(forged)")

        let artifacts = ChimeProcess.repositoryRoot.appendingPathComponent("test-artifacts/preferences")
        try? FileManager.default.removeItem(at: artifacts)
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        let browser = try ChimeProcess.runProgram(
            "/usr/bin/python3", [ChimeProcess.repositoryRoot.appendingPathComponent("Tests/ChimeCLITests/Fixtures/browser/preferences.py").path,
                                 "http://127.0.0.1:\(proxy.port)/chime/links\(path)", artifacts.path], timeout: 120)
        try #require(browser.status == 0, "\(browser.stderr)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(browser.stdout.utf8)) as? [String: Any])
        #expect(page["titleBefore"] as? String == "Notification preferences")
        #expect(page["lang"] as? String == "fr", "\(page)")
        #expect((page["notice"] as? String)?.hasPrefix("Enregistré") == true, "\(page)")
        #expect(page["url"] as? String == "http://127.0.0.1:\(proxy.port)/chime/links\(path)?saved=1", "back on the page after saving: \(page)")
        // Every request the browser made went through the proxy's prefix: the form's POST
        // among them, answered with the redirect back.
        let through = try proxy.requests()
        #expect(through.allSatisfy { $0["upstream"] is String || $0["path"] as? String == "/favicon.ico" }, "nothing else outside /chime/links: \(through)")
        #expect(through.contains { $0["method"] as? String == "POST" && $0["status"] as? Int == 303 }, "\(through)")
        #expect(page["checked"] as? [String] == ["deliver-shop-off", "deliver-timer-prominently"], "\(page)")
        #expect(page["quietHours"] as? String == "21:00-06:00")
        #expect(page["javascript"] as? Int == 0, "the page has no script")
        for name in ["before.png", "after.png"] {
            let png = try Data(contentsOf: artifacts.appendingPathComponent(name))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 5_000, "\(name): \(png.count) bytes")
        }

        // The next run: shop is off; the timer's email is in French with its content hidden.
        let requests = [
            #"{"identifier": "second", "recipient": "alice", "content": {"title": "Milk", "categoryIdentifier": "shop"}, "trigger": {"type": "date", "fireDate": "2026-11-24T11:01:00", "timeZone": "Europe/Paris"}}"#,
            #"{"identifier": "t1", "recipient": "alice", "content": {"title": "Tea is ready", "categoryIdentifier": "timer"}, "trigger": {"type": "date", "fireDate": "2026-11-24T11:01:00", "timeZone": "Europe/Paris"}}"#,
            #"{"identifier": "t2", "recipient": "alice", "content": {"title": "Late tea", "categoryIdentifier": "timer"}, "trigger": {"type": "date", "fireDate": "2026-11-24T21:30:00", "timeZone": "Europe/Paris"}}"#,
        ]
        try ws.write("more.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "more.json"], now: "2026-11-24T09:00:00Z").status == 0)
        let before = Set(try PolicyTests.outbox(ws).keys)
        let run = try ws.chime(["run"], now: "2026-11-24T10:01:00Z")
        #expect(run.stdout == "fired 2, 1 turned off\n", "\(run.stdout) \(run.stderr)")
        let new = try PolicyTests.outbox(ws).filter { !before.contains($0.key) }
        try #require(new.count == 1)
        let timer = new.values.first!
        let text = PolicyTests.text(timer)
        #expect(text.contains("Préférences de notification"), "\(text)")
        #expect(!timer.contains("Tea is ready") && text.contains("Timer"), "previews never: the placeholder only")
        // 21:30 in Paris is inside the quiet hours typed in the browser.
        #expect(try ws.chime(["run"], now: "2026-11-24T20:30:00Z").stdout == "fired 1, 1 kept for the digest\n")
    }

    @Test("a Brazilian reader of templates without Portuguese, with quiet hours from chime.xml: the page is marked English and has English chosen, and saving it with the quiet hours emptied (every field sent, as a browser sends them) turns them off and keeps the language; the next night's reminder is fired, not kept for the digest")
    func emptiedFieldsAndUntranslatedLanguages() throws {
        let configuration = Self.configuration.replacingOccurrences(
            of: #"<recipient id="alice" locale="en" timeZone="Europe/Paris">"#,
            with: #"<recipient id="alice" locale="pt-BR" timeZone="Europe/Paris" quietHours="23:00-06:00" quietHoursMode="digest" digestAt="07:00">"#)
        let ws = try ReplyCorpusTests.workspace(configuration)
        _ = try ReplyCorpusTests.send(ws, ["first"], category: "shop")
        let email = PolicyTests.text(try #require(try PolicyTests.outbox(ws).values.first))
        let path = String(try #require(email.firstMatch(of: /Notification preferences: http:\/\/127\.0\.0\.1\/chime\/links(\/p\/[0-9a-z.]+)\n/)).output.1)
        let server = try ServeTests.Server(ws)
        defer { server.stop() }
        let page = try ServeLinksTests.fetch(server, "GET", path)
        #expect(page.body.contains(#"<html lang="en" dir="ltr">"#), "\(page.body)")
        #expect(page.body.contains(#"<option value="en" selected>"#) && page.body.components(separatedBy: " selected>").count == 3,
                "English chosen, and one previews option: \(page.body)")
        #expect(!page.body.contains(#"value="Base""#))
        #expect(page.body.contains(#"name="quietHours" id="quietHours" value="23:00-06:00""#))
        let cookie = try #require(page.headers["set-cookie"]?.components(separatedBy: ";").first, "\(page.headers)")
        let csrf = try #require(page.body.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)).output.1
        let saved = try ServeLinksTests.fetch(server, "POST", path, headers: ServeLinksTests.form.merging(["Cookie": cookie]) { $1 },
                                              body: "csrf=\(csrf)&deliver.shop=prominently&deliver.timer=prominently&quietHours=&showPreviews=always&locale=en")
        #expect(saved.status == 303, "\(saved)")
        // A body over the bound (2 MiB) is answered with a page saying so, not an empty 413.
        let huge = try ServeLinksTests.fetch(server, "POST", path, headers: ServeLinksTests.form.merging(["Cookie": cookie]) { $1 },
                                             body: "csrf=\(csrf)&quietHours=" + String(repeating: "x", count: 2 << 20))
        #expect(huge.status == 413 && huge.body.contains("This form is too large to save"), "\(huge.status) \(huge.body.prefix(300))")
        let after = try ServeLinksTests.fetch(server, "GET", path)
        #expect(after.body.contains(#"name="quietHours" id="quietHours" value="""#), "\(after.body)")
        #expect(after.body.contains(#"<html lang="en" dir="ltr">"#) && after.body.contains(#"<option value="en" selected>"#))
        // 23:30 in Paris, inside the quiet hours chime.xml gave.
        try ws.write("night.json", #"[{"identifier": "night", "recipient": "alice", "content": {"title": "Late", "categoryIdentifier": "shop"}, "trigger": {"type": "date", "fireDate": "2026-11-21T23:30:00", "timeZone": "Europe/Paris"}}]"#)
        #expect(try ws.chime(["schedule", "--json", "night.json"], now: "2026-11-21T10:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-21T22:31:00Z")
        #expect(run.stdout == "fired 1\n", "\(run.stdout) \(run.stderr)")
    }
}
