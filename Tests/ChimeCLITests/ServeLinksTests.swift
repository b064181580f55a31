import ChimeTestSupport
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Every link a message carries, on every surface, followed against a real `chime serve`;
/// and the view page (`/v/TOKEN`) those links lead to.
@Suite("chime serve: every link a message carries", .serialized)
struct ServeLinksTests {
    /// A category whose actions are named in Japanese; alice reads Japanese, hides previews
    /// (so every message carries its view link) and is on every surface.
    static func configuration(_ ws: Workspace, hook: Int, ca: String) -> String {
        let tls = #"caFile="\#(ca)""#
        return """
            <chime version="1">
              <categories>
                <category identifier="買い物">
                  <action identifier="了解" title="了解しました"/>
                  <action identifier="削除" title="リストを削除" destructive="true"/>
                  <action identifier="編集" title="編集する" foreground="true"/>
                  <textInputAction identifier="追加" title="品物を追加" textInputButtonTitle="追加する" textInputPlaceholder="牛乳、卵…"/>
                </category>
              </categories>
              <channels>
                <channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
                <channel id="team" url="slack://127.0.0.1:\(hook)/services/T0/B0/X" \(tls) secret="file:\(ws.path("slack.key"))"/>
                <channel id="links" url="slack://127.0.0.1:\(hook)/services/T0/B0/Y" \(tls)/>
                <channel id="guild" url="discord://127.0.0.1:\(hook)/api/webhooks/1/x" \(tls)/>
                <channel id="teams" url="msteams://127.0.0.1:\(hook)/webhookb2/x" \(tls)/>
                <channel id="mm" url="mattermost://127.0.0.1:\(hook)/hooks/KEY" \(tls)/>
                <channel id="tg" url="telegram://127.0.0.1:\(hook)/botTOKEN/sendMessage?chat_id=42" \(tls) secret="file:\(ws.path("slack.key"))"/>
              </channels>
              <replies linkBase="http://127.0.0.1"/>
              <recipients>
                <recipient id="alice" locale="ja" timeZone="Asia/Tokyo" showPreviews="never">
                  <address channel="mail">alice@example.org</address>
                  <address channel="team"/>
                  <address channel="links"/>
                  <address channel="guild"/>
                  <address channel="teams"/>
                  <address channel="mm"/>
                  <address channel="tg"/>
                </recipient>
              </recipients>
            </chime>
            """
    }

    /// The reminder fired to every surface: what each surface was sent (a webhook's JSON
    /// body by its path; the email's headers and decoded parts under `mail`).
    /// - Returns: the folder of the webhook server's certificate (for the caller to
    ///   remove), the workspace, what was sent.
    static func sendEverywhere() throws -> (URL, Workspace, [String: String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-links-\(UUID().uuidString)")
        let (hook, certificate) = try WebhookServer.https(in: folder)
        let ws = try ReplyCorpusTests.workspace()
        try ws.write("slack.key", UUID().uuidString)
        try ws.write("chime.xml", Self.configuration(ws, hook: hook.port, ca: certificate.cert))
        try ws.write("list.txt", "milk\n")
        try ws.write("r.json", #"{"identifier": "list", "recipient": "alice", "content": {"title": "買い物リスト", "subtitle": "土曜日", "body": "牛乳と卵を買う\n\nパンも", "categoryIdentifier": "買い物", "attachments": [{"identifier": "a1", "path": "list.txt"}]}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let scheduled = try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z")
        try #require(scheduled.status == 0, "\(scheduled.stderr)")
        let run = try ws.chime(["run"], now: "2026-11-21T09:02:00Z")
        try #require(run.status == 0, "\(run.stdout) \(run.stderr)")
        var sent: [String: String] = [:]
        for request in try hook.requests() {
            sent[(request["path"] as? String ?? "").components(separatedBy: "?")[0]] = request["body"] as? String
        }
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: ws.path("outbox/new")).first)
        let (text, html) = try OperatorTests.parts(ws, file: "outbox/new/" + name)
        sent["mail"] = try ws.read("outbox/new/" + name).components(separatedBy: "\r\n\r\n")[0] + "\n" + text + "\n" + html
        return (folder, ws, sent)
    }

    /// The paths of the `http://127.0.0.1` links in a text, as far as URL characters go
    /// (a character a link should have escaped ends it there, and the path fails).
    static func paths(_ text: String) -> [String] {
        let unescaped = text.replacingOccurrences(of: "\\/", with: "/").replacingOccurrences(of: "&amp;", with: "&")
        // With a query: an unsubscribe link names its category (`/u/TOKEN?c=shop`).
        return unescaped.matches(of: /http:\/\/127\.0\.0\.1(\/[A-Za-z0-9\-._~%\/]*(?:\?[A-Za-z0-9\-._~%=,]*)?)/).map { String($0.output.1) }
    }

    /// Mattermost's buttons: where each posts its press (`integration.url`), and its context.
    static func integrations(_ json: Any) -> [(url: String, context: [String: Any])] {
        if let object = json as? [String: Any] {
            if let integration = object["integration"] as? [String: Any], let url = integration["url"] as? String {
                return [(url, integration["context"] as? [String: Any] ?? [:])]
            }
            return object.values.flatMap(integrations)
        }
        return (json as? [Any])?.flatMap(integrations) ?? []
    }

    /// A request to the server, with the response's headers.
    static func fetch(_ server: ServeTests.Server, _ method: String, _ path: String, headers: [String: String] = [:],
                      body: String = "") throws -> (status: Int, headers: [String: String], body: String) {
        let answer = ServeTests.Server.exchange(port: server.port, method, path, headers: headers, body: method == "POST" ? Array(body.utf8) : [])
        return (answer.status, answer.headers, answer.body)
    }

    static let form = ["Content-Type": "application/x-www-form-urlencoded"]

    @Test("every http link of the email and of each chat platform's message, for actions named in Japanese, answers a GET with its page (the action's, the view, preferences, unsubscribe); Mattermost's buttons post to their callback, which takes the press")
    func everyLinkResolves() throws {
        let (folder, ws, sent) = try Self.sendEverywhere()
        defer { try? FileManager.default.removeItem(at: folder) }
        let surfaces = ["mail", "/services/T0/B0/X", "/services/T0/B0/Y", "/api/webhooks/1/x", "/webhookb2/x", "/hooks/KEY", "/botTOKEN/sendMessage"]
        #expect(Set(sent.keys) == Set(surfaces), "\(sent.keys)")
        let server = try ServeTests.Server(ws)
        defer { server.stop() }

        var followed = 0
        var actionLinks: Set<String> = []
        for surface in surfaces {
            let text = try #require(sent[surface])
            let paths = Self.paths(text).filter { !$0.hasPrefix("/mattermost/") }
            #expect(paths.contains { $0.hasPrefix("/v/") }, "\(surface) carries the view link: \(text)")
            for path in Set(paths) {
                let page = try Self.fetch(server, "GET", path)
                #expect(page.status == 200, "\(surface): GET \(path): \(page.status) \(page.body)")
                followed += 1
                if path.hasPrefix("/a/") { actionLinks.insert(String(path.split(separator: "/").last ?? "")) }
            }
        }
        // The action links name their actions in Japanese, percent-encoded.
        for identifier in ["了解", "削除", "編集", "追加"] {
            #expect(actionLinks.contains(identifier.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!), "\(identifier): \(actionLinks)")
        }
        #expect(followed >= 20, "\(followed)")
        #expect(try ServeTests.responses(ws).isEmpty, "a GET never acts")

        // Mattermost's buttons post to chime serve's callback, as Mattermost does.
        let mattermost = try JSONSerialization.jsonObject(with: Data(try #require(sent["/hooks/KEY"]).utf8))
        let presses = Self.integrations(mattermost)
        #expect(presses.count == 4, "\(presses)")
        for press in presses.prefix(1) {
            let path = try #require(Self.paths(press.url).first)
            let body = try JSONSerialization.data(withJSONObject: ["user_id": "u1", "context": press.context])
            let answer = try Self.fetch(server, "POST", path, headers: ["Content-Type": "application/json"], body: String(decoding: body, as: UTF8.self))
            #expect(answer.status == 200 && answer.body.contains("了解しました"), "\(path): \(answer)")
        }
        #expect(try ServeTests.responses(ws).map { $0["actionIdentifier"] as? String } == ["了解"])
    }

    @Test("the view page shows the reminder whole in the recipient's language (the one chosen on the preferences page), its attachments' names and its actions as forms posting to their links, which act; never indexed nor cached; a forged or expired view link is refused")
    func viewPage() throws {
        let (folder, ws, sent) = try Self.sendEverywhere()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mail = try #require(sent["mail"])
        let view = try #require(Self.paths(mail).first { $0.hasPrefix("/v/") })
        #expect(!mail.contains("牛乳と卵を買う"), "previews never: the email hides the body")
        let server = try ServeTests.Server(ws)
        defer { server.stop() }

        let page = try Self.fetch(server, "GET", view)
        #expect(page.status == 200, "\(page)")
        #expect(page.headers["x-robots-tag"] == "noindex" && page.headers["cache-control"] == "no-store", "\(page.headers)")
        #expect(page.body.contains(#"<meta name="robots" content="noindex">"#) && page.body.contains(#"<html lang="ja""#))
        for shown in ["<h1>買い物リスト</h1>", "<h2>土曜日</h2>", "<p>牛乳と卵を買う</p>", "<p>パンも</p>", "添付ファイル", "<li>list.txt</li>",
                      ">了解しました</button>", ">リストを削除</button>", ">編集する</button>", "<p>品物を追加</p>", ">追加する</button>", #"placeholder="牛乳、卵…""#] {
            #expect(page.body.contains(shown), "\(shown)\n\(page.body)")
        }
        // Each action a form posting to its link, the same as the messages carry.
        let forms = page.body.matches(of: /<form method="post" action="http:\/\/127\.0\.0\.1([^"]+)">/).map { String($0.output.1) }
        #expect(forms.count == 4, "\(page.body)")
        #expect(Set(forms).isSubset(of: Set(sent.values.flatMap(Self.paths))), "\(forms)")
        let add = try #require(forms.first { $0.hasSuffix("/" + "追加".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!) })
        let asked = try Self.fetch(server, "GET", add)
        #expect(asked.status == 200 && asked.headers["cache-control"] == "no-store", "an action's page carries its token: \(asked.headers)")
        let added = try Self.fetch(server, "POST", add, headers: Self.form, body: "text=%E7%89%9B%E4%B9%B3")
        #expect(added.status == 200 && added.body.contains("品物を追加") && added.headers["cache-control"] == "no-store", "\(added)")
        let unsubscribe = try #require(Self.paths(mail).first { $0.hasPrefix("/u/") })
        #expect(try Self.fetch(server, "GET", unsubscribe).headers["cache-control"] == "no-store")
        let responses = try ServeTests.responses(ws)
        #expect(responses.map { $0["actionIdentifier"] as? String } == ["追加"] && responses.first?["userText"] as? String == "牛乳", "\(responses)")

        // In the language chosen on the preferences page.
        let preferences = try #require(Self.paths(mail).first { $0.hasPrefix("/p/") })
        let form = try Self.fetch(server, "GET", preferences)
        let cookie = try #require(form.headers["set-cookie"]?.components(separatedBy: ";").first, "\(form.headers)")
        let csrf = try #require(form.body.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)).output.1
        let saved = try Self.fetch(server, "POST", preferences, headers: Self.form.merging(["Cookie": cookie]) { $1 },
                                   body: "csrf=\(csrf)&locale=fr&showPreviews=never&quietHours=")
        #expect(saved.status == 303, "\(saved)")
        let french = try Self.fetch(server, "GET", view)
        #expect(french.body.contains(#"<html lang="fr""#) && french.body.contains("Fichiers joints") && french.body.contains("irréversible"),
                "\(french.body)")

        // A forged view link, and one past its expiry.
        var forged = Array(view)
        forged[12] = forged[12] == "a" ? "b" : "a"
        let refused = try Self.fetch(server, "GET", String(forged))
        #expect(refused.status == 403 && !refused.body.contains("牛乳") && refused.headers["cache-control"] == "no-store", "\(refused)")
        let later = try ServeTests.Server(ws, ["--now", "2027-01-10T00:00:00Z"])
        defer { later.stop() }
        let expired = try Self.fetch(later, "GET", view)
        #expect(expired.status == 410 && !expired.body.contains("牛乳と卵"), "\(expired)")
        #expect(try Self.fetch(server, "GET", "/v/").status == 404)
    }

    @Test("a targetContentIdentifier that is not an absolute http(s) URL is refused by chime schedule with exit 65 naming the field, and nothing of the batch is stored; an absolute one is what a foreground action's button opens")
    func targetsAreAbsolute() throws {
        let ws = try Workspace(configuration: Workspace.defaultConfiguration.replacingOccurrences(
            of: #"<action identifier="done" title="Done"/>"#,
            with: #"<action identifier="done" title="Done"/><action identifier="open" title="Open list" foreground="true"/>"#))
        func request(_ id: String, target: String) -> String {
            #"{"identifier": "\#(id)", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "reminder", "targetContentIdentifier": "\#(target)"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        }
        for target in ["shopping-list-42", "/lists/42", "ftp://files.example.org/list", "https://", "https://app.example.org/my list"] {
            try ws.write("r.json", "[" + request("good", target: "https://app.example.org/lists/1") + "," + request("bad", target: target) + "]")
            let refused = try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z")
            #expect(refused.status == 65, "\(target): \(refused.stdout)")
            #expect(refused.stderr.contains(#"request 2 ("bad"): content.targetContentIdentifier must be an absolute http(s) URL"#)
                    && refused.stderr.contains(target), "\(refused.stderr)")
            #expect(try ws.chime(["pending"]).stdout.isEmpty, "nothing of the batch is stored")
        }
        try ws.write("r.json", request("good", target: "https://app.example.org/lists/42?tab=1"))
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:02:00Z").stdout == "fired 1\n")
        let actions = (try #require(try ws.lines().first)["payload"] as? [String: Any])?["actions"] as? [[String: Any]] ?? []
        #expect(actions.first { $0["identifier"] as? String == "open" }?["url"] as? String == "https://app.example.org/lists/42?tab=1", "\(actions)")
    }

    @Test("Discord: every webhook is posted with_components=true; an application's webhook (its public key as secret) gets interactive buttons carrying TOKEN.N, answered at /discord/CHANNEL with an ephemeral message, and a text-input action's press with a modal dialog whose submission (signed, MODAL_SUBMIT) is recorded as its text; a user-made webhook gets link buttons")
    func discordApplication() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-discord-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (hook, certificate) = try WebhookServer.https(in: folder)
        let key = Curve25519.Signing.PrivateKey()
        let ws = try ReplyCorpusTests.workspace()
        try ws.write("discord.key", key.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined())
        try ws.write("chime.xml", """
            <chime version="1">
              <categories>
                <category identifier="shop">
                  <action identifier="justInform" title="OK, got it"/>
                  <textInputAction identifier="addItem" title="Add item" textInputButtonTitle="Add" textInputPlaceholder="Milk, eggs…"/>
                </category>
              </categories>
              <channels>
                <channel id="app" url="discord://127.0.0.1:\(hook.port)/api/webhooks/1/app" caFile="\(certificate.cert)" secret="file:\(ws.path("discord.key"))"/>
                <channel id="user" url="discord://127.0.0.1:\(hook.port)/api/webhooks/2/user" caFile="\(certificate.cert)"/>
              </channels>
              <replies linkBase="http://127.0.0.1"/>
              <recipients>
                <recipient id="alice" timeZone="Europe/Paris">
                  <address channel="app">77</address>
                  <address channel="user"/>
                </recipient>
              </recipients>
            </chime>
            """)
        try ws.write("r.json", #"{"identifier": "list", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let run = try ws.chime(["run"], now: "2026-11-21T09:02:00Z")
        try #require(run.status == 0, "\(run.stderr)")
        let posts = try hook.requests()
        #expect(Set(posts.compactMap { $0["path"] as? String }) == ["/api/webhooks/1/app?with_components=true", "/api/webhooks/2/user?with_components=true"], "\(posts)")
        func buttons(_ path: String) throws -> [[String: Any]] {
            let body = try #require(posts.first { ($0["path"] as? String)?.hasPrefix(path) == true }?["body"] as? String)
            let rows = (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["components"] as? [[String: Any]] ?? []
            return rows.flatMap { $0["components"] as? [[String: Any]] ?? [] }
        }
        let user = try buttons("/api/webhooks/2/")
        #expect(user.count == 2 && user.allSatisfy { $0["style"] as? Int == 5 && ($0["url"] as? String)?.contains("/a/") == true }, "\(user)")
        let app = try buttons("/api/webhooks/1/")
        let ids = app.compactMap { $0["custom_id"] as? String }
        #expect(ids.count == 2 && ids[0].hasSuffix(".1") && ids[1].hasSuffix(".2") && app.allSatisfy { $0["url"] == nil }, "\(app)")

        let server = try ServeTests.Server(ws)
        defer { server.stop() }
        func post(_ json: String, signedWith signer: Curve25519.Signing.PrivateKey? = nil) throws -> (status: Int, body: [String: Any]) {
            let timestamp = String(Int(Date().timeIntervalSince1970))
            let signature = try (signer ?? key).signature(for: Array(timestamp.utf8) + Array(json.utf8))
            let answer = try server.request("POST", "/discord/app", headers: [
                "X-Signature-Timestamp": timestamp, "X-Signature-Ed25519": signature.map { String(format: "%02x", $0) }.joined(),
                "Content-Type": "application/json",
            ], body: Array(json.utf8))
            return (answer.status, (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]) ?? ["raw": answer.body])
        }
        // A plain button: acted on, answered with an ephemeral message.
        let ok = try post(#"{"type":3,"member":{"user":{"id":"77"}},"data":{"custom_id":"\#(ids[0])","component_type":2}}"#)
        let okData = ok.body["data"] as? [String: Any]
        #expect(ok.body["type"] as? Int == 4 && okData?["flags"] as? Int == 64 && (okData?["content"] as? String)?.contains("“OK, got it” received.") == true, "\(ok)")
        // The text-input button: a modal dialog, nothing recorded yet.
        let asked = try post(#"{"type":3,"member":{"user":{"id":"77"}},"data":{"custom_id":"\#(ids[1])","component_type":2}}"#)
        let dialog = try #require(asked.body["data"] as? [String: Any], "\(asked)")
        #expect(asked.body["type"] as? Int == 9 && dialog["custom_id"] as? String == ids[1] && dialog["title"] as? String == "Add item", "\(asked)")
        let field = ((dialog["components"] as? [[String: Any]])?.first?["components"] as? [[String: Any]])?.first
        #expect(field?["type"] as? Int == 4 && field?["custom_id"] as? String == "text" && field?["placeholder"] as? String == "Milk, eggs…", "\(dialog)")
        // As many characters as the 4,096 bytes the text may be always hold, whatever the
        // script: with Discord's own 4,000, 2,100 Cyrillic letters were refused once sent.
        #expect(field?["max_length"] as? Int == 1024, "\(dialog)")
        #expect(try ServeTests.responses(ws).map { $0["actionIdentifier"] as? String } == ["justInform"])
        // The dialog submitted: its text is the action's; signed by another key, nothing.
        let submit = #"{"type":5,"member":{"user":{"id":"77"}},"data":{"custom_id":"\#(ids[1])","components":[{"type":1,"components":[{"type":4,"custom_id":"text","value":"oat milk"}]}]}}"#
        #expect(try post(submit, signedWith: Curve25519.Signing.PrivateKey()).status == 401)
        let someoneElse = submit.replacingOccurrences(of: #""id":"77""#, with: #""id":"78""#)
        #expect(((try post(someoneElse).body["data"] as? [String: Any])?["content"] as? String)?.contains("someone else") == true)
        let done = try post(submit)
        #expect(((done.body["data"] as? [String: Any])?["content"] as? String).map(markdownShown)?.contains("“Add item” received. (oat milk)") == true, "\(done)")
        let responses = try ServeTests.responses(ws)
        #expect(responses.map { $0["actionIdentifier"] as? String } == ["justInform", "addItem"] && responses.last?["userText"] as? String == "oat milk",
                "\(responses)")
        #expect(responses.last?["responder"] as? String == "app:77")
    }
}
