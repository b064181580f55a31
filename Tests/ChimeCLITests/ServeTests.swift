import ChimeTestSupport
import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `chime serve` over real HTTP on 127.0.0.1: signed action links, and each chat
/// platform's callback with good and bad signatures, stale timestamps and replays.
@Suite("chime serve", .serialized)
struct ServeTests {
    /// Secrets made for this run, kept in files the configuration points at.
    struct Keys {
        var slack = UUID().uuidString
        var telegram = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        var discord = Curve25519.Signing.PrivateKey()
        /// Mattermost's outgoing webhook token, and the bot's API token.
        var mattermost = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var mattermostAPI = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// - Parameter mattermost: the attributes of the Mattermost channel (a closed port by
    ///   default).
    static func configuration(_ ws: Workspace, mattermost: String = #"url="mattermost://127.0.0.1:9/hooks/KEY""#) -> String {
        """
        <chime version="1">
          <categories>
            <category identifier="shop">
              <action identifier="justInform" title="OK, got it"/>
              <action identifier="trashAction" title="Delete list" destructive="true">
                <hook command="echo ran >> hook-ran.txt"/>
              </action>
              <textInputAction identifier="addItem" title="Add item" textInputButtonTitle="Add" textInputPlaceholder="Milk, eggs…"/>
            </category>
            <category identifier="loud">
              <action identifier="approve" title="Approve every uploaded document and forward it to accounts payable now"/>
            </category>
          </categories>
          <channels>
            <channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>
            <channel id="team" \(slackChannel) secret="file:\(ws.path("slack.key"))"/>
            <channel id="guild" url="discord://127.0.0.1:9/api/webhooks/1/x" secret="file:\(ws.path("discord.key"))"/>
            <channel id="tg" url="telegram://127.0.0.1:9/botTOKEN/sendMessage?chat_id=42" secret="file:\(ws.path("telegram.key"))"/>
            <channel id="mm" \(mattermost)/>
            <channel id="log" url="file:./sent.jsonl"/>
          </channels>
          <replies linkBase="http://127.0.0.1"/>
          <recipients>
            <recipient id="alice" locale="en" timeZone="Europe/Paris">
              <address channel="mail">alice@example.org</address>
              <address channel="team">U123</address>
              <address channel="guild"></address>
              <address channel="tg">42</address>
              <address channel="mm">u1</address>
              <address channel="log"/>
            </recipient>
          </recipients>
        </chime>
        """
    }

    /// A workspace with one reminder sent by email (whose token the links and buttons use).
    static func workspace(_ keys: Keys, mattermost: ((Workspace) -> String)? = nil) throws -> (Workspace, ReplyCorpusTests.Sent) {
        let ws = try ReplyCorpusTests.workspace()
        try ws.write("slack.key", keys.slack)
        try ws.write("telegram.key", keys.telegram)
        try ws.write("discord.key", keys.discord.publicKey.rawRepresentation.map { String(format: "%02x", $0) }.joined())
        try ws.write("mattermost.key", keys.mattermost)
        try ws.write("mattermost-api.key", keys.mattermostAPI)
        try ws.write("chime.xml", mattermost.map { configuration(ws, mattermost: $0(ws)) } ?? configuration(ws))
        // Only the email matters here: the chat channels point at a closed port (their
        // deliveries wait for a retry), but the buttons carry the same signed token.
        let sent = try ReplyCorpusTests.send(ws, ["list"], category: "shop", runMustSucceed: false)
        return (ws, sent["list"]!)
    }

    /// What a reminder's chat buttons and links carry, read from the JSON its `file:`
    /// channel wrote (the same as every chat platform's buttons).
    struct Chat {
        /// Action identifier → the button's value, `TOKEN.NUMBER`.
        var buttons: [String: String]
        /// Action identifier → its `/a/TOKEN/ACTION` link, from the path on.
        var links: [String: String]

        /// The button of the action numbered `number` in the menu.
        func button(_ number: Int) -> String {
            buttons.values.first { $0.hasSuffix(".\(number)") } ?? "none.\(number)"
        }
    }

    @Test("a second email reply to an action waiting for its confirmation (a first one forged, the link expired) waits in its place with a link of its own, never \"already done\"; a text over 4 KB by email is too large and acts on nothing; a repeating reminder removed from the delivered list, and any reminder of a recipient taken out of chime.xml, are no longer open to answers")
    func waitingAndClosed() throws {
        let (ws, sent) = try Self.workspace(Keys())
        let chat = try Self.chat(ws, "list")
        // Someone else with the reply token writes first, as alice; alice two hours on.
        let first = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: "2"))
        #expect(first.stdout.contains("responded: trashAction (awaiting confirmation)"), "\(first)")
        // A new link for what waits, not "already done"; the waiting text stands; at most once an hour.
        let second = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: "2"), now: "2026-11-21T12:00:00Z")
        #expect(second.stdout.contains("replayed: trashAction") && second.stdout.contains("Please confirm “Delete list” here: http://127.0.0.1/a/")
                && !second.stdout.contains("already done"), "\(second)")
        let third = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: "2"), now: "2026-11-21T12:01:00Z")
        #expect(third.stdout.contains("replayed: trashAction") && !third.stdout.contains("answered"), "no mail for every forged reply: \(third)")
        #expect(try ReplyCorpusTests.json(ws, "responses").filter { $0["identifier"] as? String == "list" }.count == 1)
        // 5,000 bytes of text by email, where a page or a chat thread takes at most 4 KB: told.
        let long = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: "3 " + String(repeating: "x", count: 5_000)), now: "2026-11-21T13:00:00Z")
        #expect(long.status == 0 && long.stdout.hasPrefix("stdin: too-large") && long.stdout.contains("your text for “Add item” is too long"), "\(long)")

        // A repeating one, removed from the delivered list: none of its occurrences answers.
        let repeating = try ReplyCorpusTests.send(ws, ["rep"], category: "shop", repeats: true, runMustSucceed: false)["rep"]!
        #expect(try ws.chime(["remove-delivered", "rep"]).stdout.contains("removed 1"))
        let late = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(repeating, body: "1"))
        #expect(late.stdout.contains("unknown-notification"), "\(late)")

        // Alice taken out of chime.xml: her links do nothing more.
        try ws.write("chime.xml", try ws.read("chime.xml").replacingOccurrences(of: #"<recipient id="alice""#, with: #"<recipient id="alicia""#))
        let server = try Server(ws)
        defer { server.stop() }
        let press = try server.request("POST", try #require(chat.links["justInform"]))
        #expect(press.status == 410, "\(press)")
        #expect(try server.request("GET", try #require(chat.links["justInform"])).status == 410)
        #expect(!(try ws.chime(["responses"]).stdout.contains("justInform")))
    }

    static func chat(_ ws: Workspace, _ identifier: String) throws -> Chat {
        let line = try #require(try ws.lines().last { $0["identifier"] as? String == identifier })
        let actions = (line["payload"] as? [String: Any])?["actions"] as? [[String: Any]] ?? []
        var chat = Chat(buttons: [:], links: [:])
        for action in actions {
            let id = action["identifier"] as? String ?? ""
            chat.buttons[id] = action["token"] as? String
            chat.links[id] = (action["url"] as? String)?.replacingOccurrences(of: "http://127.0.0.1", with: "")
        }
        return chat
    }

    /// `chime serve --port 0`, its port read from the line it prints once bound.
    final class Server {
        let process: Process
        let port: Int

        /// - Parameter arguments: more for `chime serve`; by default `--now` just after the
        ///   workspaces' reminders fired, so their tokens are as fresh as the tests expect,
        ///   and no scheduler: the tests fire with `chime run` at instants of their own,
        ///   which a daemon running from `--now` would find already due and fire first.
        init(_ ws: Workspace, _ arguments: [String] = ["--no-scheduler", "--now", "2026-11-21T10:05:00Z"]) throws {
            let output = ws.url.appendingPathComponent("serve.out")
            process = try ChimeProcess.start(["serve", "--port", "0"] + arguments, in: ws.url, output: output, withErrors: true)
            var found: Int?
            for _ in 0..<200 where found == nil {
                let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                found = text.firstMatch(of: /listening on http:\/\/(?:127\.0\.0\.1|\[::1\]):(\d+)/).flatMap { Int($0.output.1) }
                if found == nil { Thread.sleep(forTimeInterval: 0.05) }
            }
            guard let found else {
                process.terminate()
                throw CocoaError(.fileReadUnknown)
            }
            port = found
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }

        /// Sends SIGHUP (`systemctl reload`) and returns what the server printed once it says
        /// `text` (5 s at most).
        func reload(_ ws: Workspace, until text: String) throws -> String {
            kill(process.processIdentifier, SIGHUP)
            var said = ""
            for _ in 0..<100 where !said.contains(text) {
                Thread.sleep(forTimeInterval: 0.05)
                said = try ws.read("serve.out")
            }
            return said
        }

        func request(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> (status: Int, body: String) {
            try Self.request(port: port, method, path, headers: headers, body: body)
        }

        /// An HTTP request to the server on `port`, given up after `timeout` seconds (status 0).
        static func request(port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = [],
                            timeout: TimeInterval = 60) throws -> (status: Int, body: String) {
            let answer = exchange(port: port, method, path, headers: headers, body: body, timeout: timeout)
            return (answer.status, answer.body)
        }

        /// One HTTP exchange with the server on `port` as a client without a cookie jar
        /// sees it: any method, the body sent as given, the answer as it comes (a redirect,
        /// the preferences page's 303, not followed), the headers' names in lower case;
        /// status 0 once `timeout` seconds have passed. (FoundationNetworking resolves a
        /// relative Location from the server's root, where browsers resolve it as RFC 3986
        /// says; PreferencesPageTests follows it in Chromium.)
        static func exchange(port: Int, _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = [],
                             timeout: TimeInterval = 60) -> (status: Int, body: String, headers: [String: String]) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: timeout)
            request.httpMethod = method
            request.httpShouldHandleCookies = false
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if !body.isEmpty { request.httpBody = Data(body) }
            let done = DispatchSemaphore(value: 0)
            let result = Box()
            session.dataTask(with: request) { data, response, _ in
                let http = response as? HTTPURLResponse
                var fields: [String: String] = [:]
                for (name, value) in http?.allHeaderFields ?? [:] { fields[String(describing: name).lowercased()] = String(describing: value) }
                result.value = (http?.statusCode ?? 0, String(decoding: data ?? Data(), as: UTF8.self), fields)
                done.signal()
            }.resume()
            done.wait()
            return result.value
        }

        final class Box: @unchecked Sendable { var value = (status: 0, body: "", headers: [String: String]()) }

        static let session: URLSession = {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
        }()

        final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
            func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
                completionHandler(nil)
            }
        }
    }

    /// Slack's side, on 127.0.0.1 over HTTPS: the host of the tests' Slack channels
    /// (`slackChannel`), where their messages go and where each press's `response_url`
    /// points, as both are on hooks.slack.com. One for the whole run; it stops with it.
    static let slackHook: (server: WebhookServer, certificate: ScriptServer.Certificate) = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-slack-hook-\(UUID().uuidString.prefix(8))")
        do { return try WebhookServer.https(in: folder) } catch { fatalError("the Slack stand-in did not start: \(error)") }
    }()

    /// The `url` and `caFile` attributes of a Slack channel posting to ``slackHook``.
    static var slackChannel: String {
        #"url="slack://127.0.0.1:\#(slackHook.server.port)/services/T0/B0/X" caFile="\#(slackHook.certificate.cert)""#
    }

    /// A POST to `/slack/team` signed as Slack signs: a block_actions `payload` form, or
    /// an Events API JSON body. A press's answer is what the person sees: Slack shows
    /// nothing of the acknowledgement's body, so a block_actions payload is sent with a
    /// `response_url` of its own on ``slackHook`` (unless it has one), and what Chime posts
    /// there is the `body` returned, once the acknowledgement was an empty 200.
    static func slack(_ server: Server, form payload: String? = nil, json: String? = nil, secret: String, age: Int = 0,
                      headers extra: [String: String] = [:]) throws -> (status: Int, body: String) {
        let answerPath = "/actions/T0/\(UUID().uuidString)"
        var payload = payload
        let answered = payload.map { $0.hasPrefix(#"{"type":"block_actions","#) && !$0.contains("response_url") } ?? false
        if answered, let press = payload {
            payload = #"{"response_url":"https://127.0.0.1:\#(slackHook.server.port)\#(answerPath)","# + press.dropFirst()
        }
        let body = Array((json ?? ("payload=" + (payload?.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))).utf8)
        let timestamp = String(Int(Date().timeIntervalSince1970) - age)
        let mac = HMAC<SHA256>.authenticationCode(for: Array("v0:\(timestamp):".utf8) + body, using: SymmetricKey(data: Array(secret.utf8)))
        let acknowledged = try server.request("POST", "/slack/team", headers: [
            "X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": "v0=" + mac.map { String(format: "%02x", $0) }.joined(),
            "Content-Type": json == nil ? "application/x-www-form-urlencoded" : "application/json",
        ].merging(extra) { $1 }, body: body)
        guard answered, acknowledged.status == 200, acknowledged.body.isEmpty else { return acknowledged }
        return (200, try slackAnswer(at: answerPath) ?? "")
    }

    /// What Chime posted to ``slackHook`` at `path` (a press's `response_url`), waited for
    /// up to 5 s: it posts after acknowledging.
    static func slackAnswer(at path: String) throws -> String? {
        try slackPosts(waitingFor: 1) { $0["path"] as? String == path }.first?["body"] as? String
    }

    /// The JSON bodies Chime posted to ``slackHook`` at the test channel's webhook into the
    /// thread `thread` (its answers there), once there are `count` (waited for up to 5 s;
    /// with 0, 1 s, to see that none comes).
    static func slackThreadAnswers(_ thread: String, count: Int) throws -> [[String: Any]] {
        try slackPosts(waitingFor: count) { $0["path"] as? String == "/services/T0/B0/X" && ($0["body"] as? String)?.contains(thread) == true }
            .compactMap { ($0["body"] as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } }
            .filter { $0["thread_ts"] as? String == thread }
    }

    private static func slackPosts(waitingFor count: Int, _ matching: ([String: Any]) -> Bool) throws -> [[String: Any]] {
        var found: [[String: Any]] = []
        for _ in 0..<(count == 0 ? 20 : 100) {
            found = try slackHook.server.requests().filter(matching)
            if count > 0, found.count >= count { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return found
    }

    static func responses(_ ws: Workspace) throws -> [[String: Any]] { try ReplyCorpusTests.json(ws, "responses") }

    /// Waits (10 s at most) until no response is still being carried out: a press or a
    /// typed answer is answered first and carried out after it, on a thread of its own, and
    /// what the test does next (fire, press again) must find it done, however busy the
    /// machine. Returns the responses as they are then.
    @discardableResult
    static func settled(_ ws: Workspace) throws -> [[String: Any]] {
        var recorded = try responses(ws)
        let deadline = Date().addingTimeInterval(10)
        while recorded.contains(where: { $0["status"] as? String == "carrying out" }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            recorded = try responses(ws)
        }
        return recorded
    }

    @Test("an action link: GET shows a page and never acts; POST acts once, for its own action only; a confirmation link carries out what waited, once; the reply token every header carries, forged and unknown tokens are refused")
    func actionLinks() throws {
        let keys = Keys()
        let (ws, sent) = try Self.workspace(keys)
        let chat = try Self.chat(ws, "list")
        // The reply asks for a destructive action: it waits, and the answer holds a
        // confirmation link of its own (not the reply token, nor the action's link).
        let ingest = try ReplyCorpusTests.ingest(ws, ReplyCorpusTests.reply(sent, body: "Delete list"))
        #expect(ingest.stdout.contains("(awaiting confirmation)"))
        let link = try #require(ingest.stdout.firstMatch(of: /http:\/\/127\.0\.0\.1(\/a\/([a-z2-7]+)\/trashAction)/)).output
        #expect(String(link.2) != sent.token && "/a/\(link.2)/trashAction" != chat.links["trashAction"], "a token of its own")
        let server = try Server(ws)
        defer { server.stop() }

        let page = try server.request("GET", String(link.1))
        #expect(page.status == 200)
        #expect(page.body.contains("<form method=\"post\">") && page.body.contains("Delete list"))
        #expect(page.body.contains("(cannot be undone)"), "a destructive action's page says so, as its email does: \(page.body)")
        #expect(try server.request("GET", String(link.1)).status == 200, "a scanner fetching it twice")
        #expect(try Self.responses(ws).first?["status"] as? String == "awaiting confirmation", "GET never acts")
        #expect(!FileManager.default.fileExists(atPath: ws.path("hook-ran.txt")))
        // The confirmation link names its action: it cannot be turned into another.
        #expect(try server.request("POST", "/a/\(link.2)/1").status == 403)

        // An hour on, the confirmation link has expired.
        let later = try Server(ws, ["--now", "2026-11-21T11:01:00Z"])
        #expect(try later.request("POST", String(link.1)).status == 410, "it works for an hour")
        later.stop()
        #expect(try Self.responses(ws).first?["status"] as? String == "awaiting confirmation")

        let confirmed = try server.request("POST", String(link.1))
        #expect(confirmed.status == 200 && confirmed.body.contains("“Delete list” confirmed."), "\(confirmed)")
        let again = try server.request("POST", String(link.1))
        #expect(again.status == 410 && again.body.contains("used already"), "a confirmation link works once: \(again)")
        let shownAgain = try server.request("GET", String(link.1))
        #expect(shownAgain.status == 410 && shownAgain.body.contains("used already") && !shownAgain.body.contains("<form"),
                "once used, its page says so and offers no button: \(shownAgain)")
        #expect(try Self.responses(ws).map { $0["status"] as! String } == ["carried out"])
        #expect(try String(contentsOf: ws.url.appendingPathComponent("hook-ran.txt"), encoding: .utf8) == "ran\n", "carried out once")

        // The token of the Message-ID, References and List-Unsubscribe identifies; it acts on nothing.
        #expect(try server.request("POST", "/a/\(sent.token)/1").status == 403, "the reply token is no link")
        #expect(try server.request("POST", "/a/\(sent.token)/trashAction").status == 403)
        #expect(try server.request("GET", "/p/\(sent.token)").status == 403, "nor a preferences page")
        // An action's own link acts, once; with another action's name it is refused.
        let okLink = try #require(chat.links["justInform"])
        let ok = try server.request("POST", okLink)
        #expect(ok.body.contains("“OK, got it” received."), "\(ok)")
        #expect(try server.request("POST", okLink.replacingOccurrences(of: "/justInform", with: "/addItem")).status == 403,
                "a link's action segment changed to another action")
        var forged = Array(okLink)
        forged[12] = forged[12] == "a" ? "b" : "a"
        #expect(try server.request("POST", String(forged)).status == 403)
        #expect(try server.request("GET", String(forged)).status == 403)
        #expect(try server.request("POST", okLink.replacingOccurrences(of: "/justInform", with: "/nope")).status == 403)
        #expect(try server.request("GET", "/health").body == "ok\n")
        #expect(try Self.responses(ws).count == 2)
    }

    @Test("--host ::1: the line printed once bound is a URL, the address in brackets (http://[::1]:PORT), and that URL answers")
    func ipv6Listening() throws {
        let ws = try ReplyCorpusTests.workspace()
        let server = try Server(ws, ["--no-scheduler", "--host", "::1"])
        defer { server.stop() }
        #expect(try ws.read("serve.out").contains("listening on http://[::1]:\(server.port)\n"))
        // Python's client, as a script would take the URL (FoundationNetworking's takes no
        // bracketed address).
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]).read().decode())",
                            "http://[::1]:\(server.port)/health"]
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(answer == "ok\n")
    }

    @Test("Slack: a signed block_actions payload acts once; a bad signature, a stale timestamp and someone else's click do not")
    func slack() throws {
        let keys = Keys()
        let (ws, sent) = try Self.workspace(keys)
        let chat = try Self.chat(ws, "list")
        let server = try Server(ws)
        defer { server.stop() }
        func post(value: String, user: String = "U123", age: Int = 0, secret: String? = nil) throws -> (status: Int, body: String) {
            let payload = #"{"type":"block_actions","user":{"id":"\#(user)"},"actions":[{"action_id":"a","value":"\#(value)"}]}"#
            return try Self.slack(server, form: payload, secret: secret ?? keys.slack, age: age)
        }
        #expect(try post(value: "\(sent.token).1").body.contains("This link is not valid."), "the reply token is no button")
        #expect(try post(value: chat.button(1).replacingOccurrences(of: ".1", with: ".2")).body.contains("This link is not valid."),
                "a button's number changed to another action")
        #expect(try Self.responses(ws).isEmpty)
        #expect(try post(value: chat.button(1), secret: "wrong").status == 401)
        #expect(try post(value: chat.button(1), age: 600).status == 401, "older than five minutes")
        // Slack shows the answer to whoever clicked: a 200 with why nothing happened.
        #expect(try post(value: chat.button(1), user: "U999").body.contains("This reminder is someone else's."), "the reminder is U123's")
        #expect(try Self.responses(ws).isEmpty)
        // Slack shows nothing of the body acknowledging a press: it is empty, and the answer
        // goes to the press's response_url, an ephemeral message.
        let answerPath = "/actions/T0/\(UUID().uuidString)"
        let pressed = try Self.slack(server, form: #"{"response_url":"https://127.0.0.1:\#(Self.slackHook.server.port)\#(answerPath)","type":"block_actions","user":{"id":"U999"},"actions":[{"action_id":"chime.action.1","value":"\#(chat.button(1))"}]}"#,
                                     secret: keys.slack)
        #expect(pressed.status == 200 && pressed.body.isEmpty, "\(pressed)")
        let posted = try #require(try Self.slackAnswer(at: answerPath), "nothing posted to the response_url")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(posted.utf8)) as? [String: Any], "\(posted)")
        #expect(answer["response_type"] as? String == "ephemeral" && answer["replace_original"] as? Bool == false, "\(answer)")
        #expect((answer["text"] as? String)?.contains("This reminder is someone else's.") == true, "\(answer)")
        // A response_url on another host than the channel's is never posted to (a leaked
        // signing secret must not aim Chime inside its network): the answer stays in the
        // acknowledgement, and the log says so.
        let elsewhere = try Self.slack(server, form: #"{"response_url":"https://169.254.169.254/latest/meta-data","type":"block_actions","user":{"id":"U999"},"actions":[{"action_id":"chime.action.1","value":"\#(chat.button(1))"}]}"#,
                                       secret: keys.slack)
        #expect(elsewhere.status == 200 && elsewhere.body.contains("someone else's"), "\(elsewhere)")
        #expect(try String(contentsOf: ws.url.appendingPathComponent("serve.out"), encoding: .utf8).contains("came without a response_url on the channel's host"))
        // The View button is a link: Slack tells of its press too, which is acknowledged
        // (else Slack shows a warning by the button) and does nothing.
        let view = try Self.slack(server, form: #"{"type":"block_actions","user":{"id":"U123"},"actions":[{"action_id":"chime.view","url":"http://127.0.0.1/v/abc"}]}"#, secret: keys.slack)
        #expect(view.status == 200 && view.body.isEmpty, "\(view)")
        #expect(try Self.responses(ws).isEmpty)
        let first = try post(value: chat.button(1))
        #expect(first.status == 200 && first.body.contains("“OK, got it” received."), "\(first)")
        #expect(try post(value: chat.button(1)).body.contains("already done"), "a replay")
        let responses = try Self.responses(ws)
        #expect(responses.count == 1)
        #expect(responses.first?["channel"] as? String == "team")
        #expect(responses.first?["responder"] as? String == "team:U123")
        #expect(responses.first?["actionIdentifier"] as? String == "justInform")
    }

    @Test("Discord: PING answered; a signed component click acts; a bad signature, or a good one ten minutes old (a replay), is refused with 401")
    func discord() throws {
        let keys = Keys()
        let (ws, _) = try Self.workspace(keys)
        let chat = try Self.chat(ws, "list")
        let server = try Server(ws)
        defer { server.stop() }
        func post(_ json: String, key: Curve25519.Signing.PrivateKey? = nil, age: Int = 0) throws -> (status: Int, body: String) {
            let timestamp = String(Int(Date().timeIntervalSince1970) - age)
            let signature = try (key ?? keys.discord).signature(for: Array(timestamp.utf8) + Array(json.utf8))
            return try server.request("POST", "/discord/guild", headers: [
                "X-Signature-Timestamp": timestamp, "X-Signature-Ed25519": signature.map { String(format: "%02x", $0) }.joined(),
                "Content-Type": "application/json",
            ], body: Array(json.utf8))
        }
        #expect(try post(#"{"type":1}"#).body == #"{"type":1}"#)
        #expect(try post(#"{"type":1}"#, key: Curve25519.Signing.PrivateKey()).status == 401)
        let click = #"{"type":3,"member":{"user":{"id":"77"}},"data":{"custom_id":"\#(chat.button(2))"}}"#
        #expect(try post(click, key: Curve25519.Signing.PrivateKey()).status == 401)
        #expect(try post(click, age: 600).status == 401)
        let answer = try post(click)
        #expect(answer.status == 200 && answer.body.contains("“Delete list” received.") && answer.body.contains(#""type":4"#), "\(answer)")
        #expect(try Self.responses(ws).first?["actionIdentifier"] as? String == "trashAction")
    }

    @Test("Telegram: the secret token header is required; a callback query is answered with answerCallbackQuery. Mattermost: the context's signed token")
    func telegramAndMattermost() throws {
        let keys = Keys()
        let (ws, _) = try Self.workspace(keys)
        let chat = try Self.chat(ws, "list")
        let server = try Server(ws)
        defer { server.stop() }
        let update = #"{"update_id":1,"callback_query":{"id":"q1","from":{"id":42},"data":"\#(chat.button(1))"}}"#
        #expect(try server.request("POST", "/telegram/tg", headers: ["X-Telegram-Bot-Api-Secret-Token": "nope"], body: Array(update.utf8)).status == 401)
        #expect(try server.request("POST", "/telegram/tg", body: Array(update.utf8)).status == 401)
        let answer = try server.request("POST", "/telegram/tg", headers: ["X-Telegram-Bot-Api-Secret-Token": keys.telegram], body: Array(update.utf8))
        #expect(answer.body.contains(#""method":"answerCallbackQuery""#) && answer.body.contains(#""callback_query_id":"q1""#), "\(answer)")

        var forged = Array(chat.button(2))
        forged[20] = forged[20] == "a" ? "b" : "a"
        let bad = try server.request("POST", "/mattermost/mm", body: Array(#"{"user_id":"u1","context":{"token":"\#(String(forged))"}}"#.utf8))
        // Refused, and said in 200: Mattermost shows another status's body to no one.
        #expect(bad.status == 200 && bad.body.contains("ephemeral_text") && bad.body.contains("not valid"), "\(bad)")
        // Where Mattermost posts a press is what the message names: chime serve's route for
        // the channel, with the button's token in the context (not the /a/ page).
        try ws.write("mm.json", #"{"identifier": "mm1", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let shown = try ws.chime(["preview", "--json", "mm.json", "--channel", "mm"])
        let integrations = shown.stdout.matches(of: /"integration":\{"context":\{"token":"[^"]+"\},"url":"([^"]+)"\}/).map { String($0.output.1) }
        #expect(!integrations.isEmpty && integrations.allSatisfy { $0.hasSuffix("/mattermost/mm") }, "\(shown.stdout) \(shown.stderr)")
        let good = try server.request("POST", "/mattermost/mm", body: Array(#"{"user_id":"u1","context":{"token":"\#(chat.button(2))"}}"#.utf8))
        #expect(good.status == 200 && good.body.contains("ephemeral_text"), "\(good)")
        #expect(Set(try Self.responses(ws).map { $0["channel"] as! String }) == ["tg", "mm"])
    }

    @Test("the answer to a press quotes the reminder's and the action's titles as typed on every platform (no link, markup or mention of theirs gets through), within the platform's limit (Telegram's notice: 200)")
    func pressAnswersInert() throws {
        let keys = Keys()
        let (ws, _) = try Self.workspace(keys)
        let title = "*URGENT* <https://evil.example|Pay invoice 42> & [details](https://evil.example) @channel: the quarterly review of every vendor contract"
        _ = try ReplyCorpusTests.send(ws, ["loud1"], category: "loud", title: title, runMustSucceed: false)
        let button = try Self.chat(ws, "loud1").button(1)
        let server = try Server(ws)
        defer { server.stop() }
        func object(_ body: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
        }

        let slack = try object(Self.slack(server, form: #"{"type":"block_actions","user":{"id":"U123"},"actions":[{"action_id":"a","value":"\#(button)"}]}"#,
                                          secret: keys.slack, age: 0).body)
        let slackText = try #require(slack["text"] as? String)
        #expect(slackText.contains("received") && slackText.contains("&lt;https://evil.example|Pay invoice 42&gt; &amp;"), "\(slackText)")
        #expect(!slackText.contains("<") && slack["mrkdwn"] as? Bool == false, "\(slack)")
        try Self.settled(ws) // pressed on Discord while Slack's press is being carried out, it would be "received" again

        let timestamp = String(Int(Date().timeIntervalSince1970))
        let click = #"{"type":3,"member":{"user":{"id":"77"}},"data":{"custom_id":"\#(button)"}}"#
        let signature = try keys.discord.signature(for: Array(timestamp.utf8) + Array(click.utf8))
        let discord = try object(server.request("POST", "/discord/guild", headers: [
            "X-Signature-Timestamp": timestamp, "X-Signature-Ed25519": signature.map { String(format: "%02x", $0) }.joined(),
            "Content-Type": "application/json"], body: Array(click.utf8)).body)
        let data = try #require(discord["data"] as? [String: Any])
        let content = try #require(data["content"] as? String)
        #expect(content.contains(#"\*URGENT\* \<https://evil.example|Pay invoice 42\> & \[details\]\("#) && content.contains("already done"), "\(content)")
        #expect((data["allowed_mentions"] as? [String: Any])?["parse"] as? [String] == [], "\(data)")

        let mattermost = try object(server.request("POST", "/mattermost/mm", body: Array(#"{"user_id":"u1","context":{"token":"\#(button)"}}"#.utf8)).body)
        let ephemeral = try #require(mattermost["ephemeral_text"] as? String)
        #expect(ephemeral.contains(#"\[details\]\("#) && ephemeral.contains("@\u{2060}channel") && !ephemeral.contains("[details](https"), "\(ephemeral)")

        let update = #"{"update_id":1,"callback_query":{"id":"q1","from":{"id":42},"data":"\#(button)"}}"#
        let telegram = try object(server.request("POST", "/telegram/tg", headers: ["X-Telegram-Bot-Api-Secret-Token": keys.telegram],
                                                 body: Array(update.utf8)).body)
        let notice = try #require(telegram["text"] as? String)
        #expect(telegram["method"] as? String == "answerCallbackQuery")
        #expect(notice.utf16.count <= 200 && notice.hasPrefix("*URGENT*") && notice.hasSuffix("…"), "\(notice.utf16.count): \(notice)")
    }

    @Test("chat text input: Slack's thread of a pressed text-input button (answered in the thread: received, or too long) and Telegram's ForceReply prompt and replies give the action its text, through the reply matcher; someone else's text and bots are ignored")
    func chatTextInput() throws {
        let keys = Keys()
        let (ws, _) = try Self.workspace(keys)
        _ = try ReplyCorpusTests.send(ws, ["list2"], category: "shop", runMustSucceed: false)["list2"]!
        let (first, second) = (try Self.chat(ws, "list"), try Self.chat(ws, "list2"))
        let server = try Server(ws)
        defer { server.stop() }
        // The reminder's message in Slack, whose thread the text comes in: its own, as the
        // stand-in for hooks.slack.com is the whole test run's.
        let thread = "1700000000.\(Int.random(in: 100_000...999_999))"
        func event(_ fields: String) -> String {
            #"{"type":"event_callback","event":{"type":"message","channel":"C1","ts":"1700000005.000200","thread_ts":"\#(thread)",\#(fields)}}"#
        }

        // Slack: the Events API's URL check, signed like everything else.
        let check = #"{"type":"url_verification","challenge":"c-123"}"#
        #expect(try Self.slack(server, json: check, secret: "wrong").status == 401)
        #expect(try Self.slack(server, json: check, secret: keys.slack).body.contains(#""challenge":"c-123""#))
        // Pressing "Add item" records nothing yet and asks for the text in the thread.
        let press = #"{"type":"block_actions","user":{"id":"U123"},"container":{"type":"message","message_ts":"\#(thread)","channel_id":"C1"},"actions":[{"action_id":"a","value":"\#(first.button(3))"}]}"#
        let asked = try Self.slack(server, form: press, secret: keys.slack)
        #expect(asked.body.contains("Reply in this message’s thread with your text for “Add item” (Milk, eggs…)"), "\(asked)")
        #expect(try Self.responses(ws).isEmpty)
        // A bot's message and someone else's text in that thread do nothing.
        #expect(try Self.slack(server, json: event(#""user":"B1","bot_id":"B1","text":"spam""#), secret: keys.slack).status == 200)
        #expect(try Self.slack(server, json: event(#""user":"U999","text":"not yours""#), secret: keys.slack).status == 200)
        #expect(try Self.responses(ws).isEmpty)
        #expect(try Self.slackThreadAnswers(thread, count: 0).isEmpty, "someone else's text is not answered before the channel")
        // A text over the 4 KB bound is refused, and said so in the thread, which asks again.
        let long = String(repeating: "oat milk ", count: 500)
        let refused = try Self.slack(server, json: event(#""user":"U123","text":"\#(long)""#), secret: keys.slack)
        #expect(refused.status == 200 && refused.body.isEmpty, "\(refused)")
        #expect(try Self.responses(ws).isEmpty)
        let tooLong = try Self.slackThreadAnswers(thread, count: 1)
        #expect(tooLong.count == 1 && (tooLong.first?["text"] as? String)?.contains("is too long") == true, "\(tooLong)")
        // The person's own text in the thread is the action's text, as they typed it (Slack
        // sends `&`, `<` and `>` as entities, a link with its label and a mention as control
        // sequences; "Also send to the channel" ticked makes it a thread_broadcast), and the
        // thread says it was received.
        let slackTyped = #""user":"U123","subtype":"thread_broadcast","text":"oat milk &amp; 2 lemons, &amp;lt;3 &lt;3 <https://shop.example/l?a=1&amp;b=2|my list> for <@U999|bob> <!here>""#
        #expect(try Self.slack(server, json: event(slackTyped), secret: keys.slack).status == 200)
        var responses = try Self.responses(ws)
        #expect(responses.count == 1)
        #expect(responses.first?["actionIdentifier"] as? String == "addItem")
        #expect(responses.first?["userText"] as? String == "oat milk & 2 lemons, &lt;3 <3 my list (https://shop.example/l?a=1&b=2) for @bob @here",
                "\(responses)")
        #expect(responses.first?["responder"] as? String == "team:U123")
        let received = try Self.slackThreadAnswers(thread, count: 2).last
        #expect((received?["text"] as? String)?.contains("“Add item” received. (oat milk &amp; 2 lemons, &amp;lt;3 &lt;3 my list") == true,
                "escaped once for Slack: \(String(describing: received))")
        // Slack's retry of that event (its 200 late) is not answered again; the person's
        // own second message is told it was done.
        #expect(try Self.slack(server, json: event(slackTyped), secret: keys.slack, headers: ["X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"]).status == 200)
        #expect(try Self.slack(server, json: event(#""user":"U123","text":"2 lemons""#), secret: keys.slack).status == 200)
        _ = try Self.slackThreadAnswers(thread, count: 3)
        Thread.sleep(forTimeInterval: 0.3)
        let afterRetry = try Self.slackThreadAnswers(thread, count: 3)
        #expect(afterRetry.count == 3 && (afterRetry.last?["text"] as? String)?.contains("already done") == true, "\(afterRetry)")

        // Telegram: pressing "Add item" answers with a ForceReply prompt whose link carries
        // the token and the action.
        let secret = ["X-Telegram-Bot-Api-Secret-Token": keys.telegram]
        let query = #"{"update_id":2,"callback_query":{"id":"q2","from":{"id":42},"data":"\#(second.button(3))","message":{"message_id":7,"chat":{"id":42}}}}"#
        let prompt = try server.request("POST", "/telegram/tg", headers: secret, body: Array(query.utf8))
        #expect(prompt.body.contains(#""method":"sendMessage""#) && prompt.body.contains(#""force_reply":true"#), "\(prompt)")
        #expect(!prompt.body.contains("selective"), "selective would open the reply field to no one in a group: \(prompt)")
        let secondToken = second.button(3).split(separator: ".")[0]
        #expect(prompt.body.contains("/a/\(secondToken)/3"), "\(prompt)")
        #expect(try Self.responses(ws).count == 1, "nothing recorded by the press")
        // The reply to the prompt is the text.
        let link = "http://127.0.0.1/a/\(secondToken)/3"
        let answer = #"{"update_id":3,"message":{"message_id":9,"from":{"id":42},"chat":{"id":42},"text":"Milk","reply_to_message":{"from":{"id":7,"is_bot":true},"message_id":8,"text":"Add item: reply to this message with your text.","entities":[{"type":"text_link","offset":0,"length":8,"url":"\#(link)"}]}}}"#
        let done = try server.request("POST", "/telegram/tg", headers: secret, body: Array(answer.utf8))
        #expect(done.body.contains(#""method":"sendMessage""#) && done.body.contains("“Add item” received. (Milk)"), "\(done)")
        // A reply to the reminder itself (its buttons carry the token) is read as an email
        // reply's first line: "OK, got it" is the first action.
        let reminder = #"{"update_id":4,"message":{"message_id":10,"from":{"id":42},"chat":{"id":42},"text":"OK, got it!","reply_to_message":{"from":{"id":7,"is_bot":true},"message_id":5,"text":"Shopping","reply_markup":{"inline_keyboard":[[{"text":"OK, got it","callback_data":"\#(second.button(1))"}]]}}}}"#
        let ok = try server.request("POST", "/telegram/tg", headers: secret, body: Array(reminder.utf8))
        #expect(ok.body.contains("“OK, got it” received."), "\(ok)")
        // Tokens are read only from a bot's message: anyone may write a message holding a
        // button's value or a link and answer it; and the reply token, which every email
        // header carries, never acts in a chat.
        // Someone else's reply to the reminder, in a group, records nothing and is not
        // answered before the whole chat.
        let someoneElse = #"{"update_id":39,"message":{"message_id":13,"from":{"id":43},"chat":{"id":-100},"text":"OK, got it","reply_to_message":{"from":{"id":7,"is_bot":true},"message_id":5,"text":"Shopping","reply_markup":{"inline_keyboard":[[{"text":"OK, got it","callback_data":"\#(second.button(1))"}]]}}}}"#
        #expect(try server.request("POST", "/telegram/tg", headers: secret, body: Array(someoneElse.utf8)).body == "{}")
        let forgedButtons = #"{"update_id":40,"message":{"message_id":11,"from":{"id":42},"chat":{"id":42},"text":"delete","reply_to_message":{"from":{"id":42,"is_bot":false},"message_id":6,"text":"x","reply_markup":{"inline_keyboard":[[{"text":"x","callback_data":"\#(second.button(1))"}]]}}}}"#
        #expect(try server.request("POST", "/telegram/tg", headers: secret, body: Array(forgedButtons.utf8)).body == "{}")
        let replyToken = try #require(try ReplyCorpusTests.send(ws, ["list3"], category: "shop", runMustSucceed: false)["list3"]).token
        let headerLink = #"{"update_id":41,"message":{"message_id":12,"from":{"id":42},"chat":{"id":42},"text":"OK, got it","reply_to_message":{"from":{"id":7,"is_bot":true},"message_id":7,"text":"x","entities":[{"type":"text_link","offset":0,"length":1,"url":"http://127.0.0.1/a/\#(replyToken)/1"}]}}}"#
        #expect(!(try server.request("POST", "/telegram/tg", headers: secret, body: Array(headerLink.utf8)).body.contains("received")))
        responses = try Self.responses(ws).filter { $0["channel"] as? String == "tg" }
        #expect(responses.map { $0["actionIdentifier"] as? String } == ["addItem", "justInform"])
        #expect(responses.first?["userText"] as? String == "Milk")

        // Deliver Quietly, then Turn Off, typed in answer to the reminder: each holds from the next fire.
        func typed(_ text: String, update: Int) throws -> String {
            let json = #"{"update_id":\#(update),"message":{"message_id":\#(update + 10),"from":{"id":42},"chat":{"id":42},"text":"\#(text)","reply_to_message":{"from":{"id":7,"is_bot":true},"message_id":5,"text":"Shopping","reply_markup":{"inline_keyboard":[[{"text":"OK, got it","callback_data":"\#(second.button(1))"}]]}}}}"#
            return try server.request("POST", "/telegram/tg", headers: secret, body: Array(json.utf8)).body
        }
        #expect(try typed("quietly", update: 5).contains("“Quietly” received."))
        try Self.settled(ws)
        #expect(try Self.fireAnother(ws, "more1").contains("1 kept for the digest"))
        #expect(try typed("Turn off", update: 6).contains("“Turn off” received."))
        try Self.settled(ws)
        #expect(try Self.fireAnother(ws, "more2").contains("1 turned off"))
        // Quietly again, once Turn Off changed what it set: set again, not "already done";
        // a third time, with nothing to change, it was.
        #expect(try typed("quietly", update: 7).contains("“Quietly” received."))
        #expect(try Self.fireAnother(ws, "more3").contains("1 kept for the digest"))
        #expect(try typed("quietly", update: 8).contains("“Quietly” was already done."))
    }

    @Test("Mattermost text input: a text-input button asks for a reply in the message's thread; the outgoing webhook's message there (its token checked, its thread read from the REST API with the bot's token, under the server's sub-path) is the action's text, answered as a comment; someone else's text, a wrong token and a failing API record nothing")
    func mattermostThread() throws {
        let keys = Keys()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-mm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = try ScriptServer.certificate(in: folder.appendingPathComponent("tls"))
        // Mattermost served under a sub-path (/chat): its REST API is there too.
        let posts = folder.appendingPathComponent("files/chat/api/v4/posts")
        try FileManager.default.createDirectory(at: posts, withIntermediateDirectories: true)
        let api = try WebhookServer(["--cert", certificate.cert, "--key", certificate.key, "--files", folder.appendingPathComponent("files").path])
        let (ws, _) = try Self.workspace(keys) { ws in
            #"url="mattermost://127.0.0.1:\#(api.port)/chat/hooks/KEY" caFile="\#(certificate.cert)" "#
                + #"secret="file:\#(ws.path("mattermost.key"))" apiToken="file:\#(ws.path("mattermost-api.key"))""#
        }
        let chat = try Self.chat(ws, "list")
        let server = try Server(ws)
        defer { server.stop() }
        // Mattermost's ids: 26 characters of [a-z0-9].
        func id(_ name: String) -> String { name + String(repeating: "0", count: 26 - name.count) }
        func post(_ name: String, root: String) throws {
            try Data(#"{"id":"\#(id(name))","root_id":"\#(root)","message":"…"}"#.utf8).write(to: posts.appendingPathComponent(id(name)))
        }
        func message(_ name: String, user: String = "u1", text: String, token: String? = nil) throws -> (status: Int, body: String) {
            let form = ["token": token ?? keys.mattermost, "team_id": "t1", "channel_id": "c1", "user_id": user,
                        "user_name": "alice", "post_id": id(name), "text": text, "trigger_word": ""]
            let body = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }.joined(separator: "&")
            return try server.request("POST", "/mattermost/mm", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(body.utf8))
        }

        // Pressing "Add item" on the reminder (post "reminder…") records nothing and asks
        // for the text in its thread.
        let press = #"{"user_id":"u1","post_id":"\#(id("reminder"))","channel_id":"c1","context":{"token":"\#(chat.button(3))"}}"#
        let asked = try server.request("POST", "/mattermost/mm", body: Array(press.utf8))
        #expect(markdownShown(asked.body.replacingOccurrences(of: #"\\"#, with: #"\"#)).contains("Reply in this message’s thread with your text for “Add item” (Milk, eggs…)"), "\(asked)")
        #expect(try Self.responses(ws).isEmpty)

        try post("reply1", root: id("reminder"))
        try post("elsewhere", root: "")
        // A wrong webhook token is refused before anything is read.
        #expect(try message("reply1", text: "oat milk", token: "wrong").status == 401)
        // Someone else's text in the thread (no public comment answers it), and the
        // person's text outside it, do nothing.
        #expect(try message("reply1", user: "u2", text: "not yours").body == "{}")
        #expect(try message("elsewhere", text: "oat milk").body == "{}")
        #expect(try Self.responses(ws).isEmpty)
        // The API failing (no such post) is answered, recorded nowhere, and logged without
        // the bot's token.
        let failed = try message("missing", text: "oat milk")
        #expect(failed.body.contains("Chime could not read which message this answers."), "\(failed)")
        // The person's text in the thread is the action's text, answered in the thread.
        let done = try message("reply1", text: "oat milk, 2 lemons")
        #expect(markdownShown(done.body.replacingOccurrences(of: #"\\"#, with: #"\"#)).contains("“Add item” received. (oat milk, 2 lemons)") && done.body.contains(#""response_type":"comment""#), "\(done)")
        let responses = try Self.responses(ws)
        #expect(responses.count == 1)
        #expect(responses.first?["actionIdentifier"] as? String == "addItem")
        #expect(responses.first?["userText"] as? String == "oat milk, 2 lemons")
        #expect(responses.first?["responder"] as? String == "mm:u1")
        // The thread was read with the bot's token, over TLS verified against the caFile.
        let reads = try api.requests().filter { ($0["path"] as? String)?.hasPrefix("/chat/api/v4/posts/") == true }
        #expect(reads.count == 4)
        #expect(reads.allSatisfy { ($0["headers"] as? [String: String])?["authorization"] == "Bearer \(keys.mattermostAPI)" })
        let log = try String(contentsOf: ws.url.appendingPathComponent("serve.out"), encoding: .utf8)
        #expect(log.contains("404") && !log.contains(keys.mattermostAPI) && !log.contains(keys.mattermost), "\(log)")
    }

    /// Schedules one more "shop" reminder for alice and fires it: what `chime run` says.
    @Test("one-click unsubscribe still works once its reminder is gone from the delivered list (chime remove-delivered, as an app clears its notifications): the link names its category and is signed for its recipient")
    func unsubscribeAfterRemoval() throws {
        let (ws, sent) = try Self.workspace(Keys())
        let server = try Server(ws)
        defer { server.stop() }
        #expect(try ws.chime(["remove-delivered", "list"]).status == 0)
        #expect(try server.request("GET", "/v/\(sent.token)").status != 200, "the reminder itself is gone")
        let page = try server.request("GET", sent.unsubscribe)
        #expect(page.status == 200 && page.body.contains("“shop”"), "\(page)")
        var forged = Array(sent.unsubscribe)
        forged[20] = forged[20] == "a" ? "b" : "a"
        #expect(try server.request("POST", String(forged), body: Array("List-Unsubscribe=One-Click".utf8)).status == 403)
        let done = try server.request("POST", sent.unsubscribe, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                      body: Array("List-Unsubscribe=One-Click".utf8))
        #expect(done.status == 200 && done.body.contains("no more “shop” reminders"), "\(done)")
        #expect(try Self.fireAnother(ws, "after").contains("1 turned off"))
    }

    @Test("one-click unsubscribe works past the 30 days the message's other links live (a monthly reminder's email, a mail client's POST a month and a half on), its reminder delivered or removed; the same message's action link has expired")
    func unsubscribeAfterExpiry() throws {
        let (ws, sent) = try Self.workspace(Keys())
        let button = try Self.chat(ws, "list").button(1)
        let later = try Server(ws, ["--no-scheduler", "--now", "2027-01-05T10:00:00Z"])
        defer { later.stop() }
        let pressed = try later.request("POST", "/mattermost/mm", body: Array(#"{"user_id":"u1","context":{"token":"\#(button)"}}"#.utf8))
        #expect(pressed.body.contains("no longer open to answers"), "an action's token still expires: \(pressed)")
        let done = try later.request("POST", sent.unsubscribe, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                     body: Array("List-Unsubscribe=One-Click".utf8))
        #expect(done.status == 200 && done.body.contains("no more “shop” reminders"), "\(done)")
        #expect(try Self.fireAnother(ws, "after").contains("1 turned off"))
        // Removed from the delivered list too: the link names its category and recipient.
        #expect(try ws.chime(["remove-delivered", "list"]).status == 0)
        let again = try later.request("GET", sent.unsubscribe)
        #expect(again.status == 200 && again.body.contains("“shop”"), "\(again)")
    }

    static func fireAnother(_ ws: Workspace, _ identifier: String) throws -> String {
        try ws.write("more.json", #"{"identifier": "\#(identifier)", "recipient": "alice", "content": {"title": "More", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "more.json"], now: "2026-11-21T10:00:00Z").status == 0)
        return try ws.chime(["run"], now: "2026-11-21T10:01:00Z").stdout
    }

    @Test("reminders without a category are turned off together: one-click unsubscribe names them as one (not by the reminder's title), and the preferences page lists them, so that it can turn them back on")
    func uncategorizedUnsubscribe() throws {
        let (ws, _) = try Self.workspace(Keys())
        let server = try Server(ws)
        defer { server.stop() }
        let sent = try #require(try ReplyCorpusTests.send(ws, ["plain"], category: "", title: "Plain one", runMustSucceed: false)["plain"])
        func fire(_ identifier: String) throws -> String {
            try ws.write("more.json", #"{"identifier": "\#(identifier)", "recipient": "alice", "content": {"title": "Other"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
            #expect(try ws.chime(["schedule", "--json", "more.json"], now: "2026-11-21T10:00:00Z").status == 0)
            return try ws.chime(["run"], now: "2026-11-21T10:01:00Z").stdout
        }
        let ask = try server.request("GET", sent.unsubscribe)
        #expect(ask.status == 200 && ask.body.contains("Stop “Uncategorized” reminders?"), "\(ask)")
        let done = try server.request("POST", sent.unsubscribe, body: Array("List-Unsubscribe=One-Click".utf8))
        #expect(done.status == 200 && done.body.contains("You will get no more “Uncategorized” reminders."), "\(done)")
        #expect(try fire("other1").contains("1 turned off"))

        let email = try #require(try PolicyTests.outbox(ws).values.first { $0.contains("Plain one") })
        let preferences = String(try #require(PolicyTests.text(email).firstMatch(of: /http:\/\/127\.0\.0\.1(\/p\/[0-9a-z.]+)/)).output.1)
        let form = try server.request("GET", preferences)
        #expect(form.body.contains("<td>Uncategorized</td>") && form.body.contains(#"name="deliver." id="deliver--off" value="off" checked"#), "\(form.body)")
        let nonce = try #require(form.body.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)).output.1
        let saved = try server.request("POST", preferences, headers: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "chime_csrf=\(nonce)"],
                                       body: Array("csrf=\(nonce)&deliver.=prominently".utf8))
        #expect(saved.status == 303 || saved.body.contains(#"id="deliver--prominently" value="prominently" checked aria-label="Uncategorized: Deliver prominently""#), "\(saved)")
        let after = try fire("other2")
        #expect(!after.contains("turned off"), "\(after)")
    }

    @Test("one-click unsubscribe (RFC 8058): GET shows a button and changes nothing; the POST turns the category off for that recipient from the next fire; a forged token is refused")
    func oneClickUnsubscribe() throws {
        let (ws, sent) = try Self.workspace(Keys())
        let server = try Server(ws)
        defer { server.stop() }
        var fired = 0
        func fireAnother() throws -> String {
            fired += 1
            return try Self.fireAnother(ws, "more\(fired)")
        }
        // The List-Unsubscribe header's link carries a token of its own, which may only unsubscribe.
        let link = sent.unsubscribe
        let token = String(link.dropFirst(3).prefix { $0 != "?" })
        #expect(link.hasPrefix("/u/") && link.hasSuffix("?c=shop") && token != sent.token, "\(link)")
        #expect(try server.request("POST", "/a/\(token)/1").status == 403, "an unsubscribe token acts on nothing else")
        #expect(try server.request("GET", "/p/\(token)").status == 403)
        let page = try server.request("GET", link)
        #expect(page.status == 200 && page.body.contains(#"<form method="post">"#) && page.body.contains("“shop”"), "\(page)")
        #expect(try server.request("GET", link).status == 200)
        #expect(!(try fireAnother()).contains("turned off"), "a GET changes nothing")

        var forged = Array(token)
        forged[20] = forged[20] == "a" ? "b" : "a"
        #expect(try server.request("POST", "/u/\(String(forged))?c=shop", body: Array("List-Unsubscribe=One-Click".utf8)).status == 403)
        // The token is signed for its category: another named in its place is refused.
        #expect(try server.request("POST", "/u/\(token)?c=other", body: Array("List-Unsubscribe=One-Click".utf8)).status == 403)
        #expect(!(try fireAnother()).contains("turned off"))

        let done = try server.request("POST", link, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                      body: Array("List-Unsubscribe=One-Click".utf8))
        #expect(done.status == 200 && done.body.contains("no more “shop” reminders"), "\(done)")
        #expect(try fireAnother().contains("1 turned off"))
    }
}
