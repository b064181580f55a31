import ChimeTestSupport
import Crypto
import Foundation
import Testing

/// `chime serve`'s chat callbacks against what no platform sends but anyone may: numbers
/// past `Int64`'s range, presses on a reminder since removed or already answered, empty
/// text, and hooks that take their whole timeout while others press.
@Suite("chime serve: chat callbacks abused", .serialized)
struct ServeChatAbuseTests {
    typealias Server = ServeTests.Server

    /// A workspace with one reminder ("list") sent, its chat buttons, and `chime serve`
    /// over it, which the caller stops.
    static func served() throws -> (keys: ServeTests.Keys, ws: Workspace, chat: ServeTests.Chat, server: Server) {
        let keys = ServeTests.Keys()
        let (ws, _) = try ServeTests.workspace(keys)
        return (keys, ws, try ServeTests.chat(ws, "list"), try Server(ws))
    }

    @Test("a timestamp or a button number at Int64's very end is refused (401, 'not valid', 403), and the server goes on answering")
    func extremeNumbers() throws {
        let (_, ws, chat, server) = try Self.served()
        defer { server.stop() }
        let slack = try server.request("POST", "/slack/team", headers: [
            "X-Slack-Request-Timestamp": "-9223372036854775808", "X-Slack-Signature": "v0=00",
            "Content-Type": "application/x-www-form-urlencoded",
        ], body: Array("x".utf8))
        #expect(slack.status == 401, "\(slack)")
        let discord = try server.request("POST", "/discord/guild", headers: [
            "X-Signature-Timestamp": "-9223372036854775000", "X-Signature-Ed25519": "00",
        ], body: Array("{}".utf8))
        #expect(discord.status == 401, "\(discord)")
        // A genuine delivery id with a signature spoiled: the number is read before the
        // signature is checked, so it must not trap either.
        let token = String(chat.button(1).split(separator: ".")[0])
        let spoiled = String(token.dropLast(12)) + String(repeating: "a", count: 12)
        for value in ["\(spoiled).-9223372036854775808", "\(token).-9223372036854775808", "\(token).99999999999999999999", "\(token).+1"] {
            let press = try server.request("POST", "/mattermost/mm", body: Array(#"{"user_id":"u1","context":{"token":"\#(value)"}}"#.utf8))
            #expect(press.status == 200 && press.body.contains("not valid"), "\(value): \(press)")
        }
        #expect(try server.request("GET", "/a/\(spoiled)/-9223372036854775808").status == 403)
        #expect(try server.request("GET", "/health").status == 200, "the server is still up")
        #expect(try ServeTests.responses(ws).isEmpty)
    }

    @Test("a genuine button pressed on a reminder since removed is told it is gone, recorded as unknown-notification, not as a forgery")
    func removedReminder() throws {
        let keys = ServeTests.Keys()
        let (ws, _) = try ServeTests.workspace(keys)
        let chat = try ServeTests.chat(ws, "list")
        #expect(try ws.chime(["remove-delivered", "list"]).status == 0)
        let server = try Server(ws)
        defer { server.stop() }
        let payload = #"{"type":"block_actions","user":{"id":"U123"},"actions":[{"action_id":"a","value":"\#(chat.button(1))"}]}"#
        let answer = try ServeTests.slack(server, form: payload, secret: keys.slack)
        #expect(answer.status == 200 && answer.body.contains("no longer open to answers"), "\(answer)")
        let outcomes = try ReplyCorpusTests.json(ws, "replies").map { $0["outcome"] as? String }
        #expect(outcomes == ["unknown-notification"], "\(outcomes)")
        // Someone else's number on the same token is still a forgery.
        let forged = #"{"type":"block_actions","user":{"id":"U123"},"actions":[{"action_id":"a","value":"\#(chat.button(1).dropLast()).7"}]}"#
        #expect(try ServeTests.slack(server, form: forged, secret: keys.slack).body.contains("This link is not valid."))
    }

    @Test("a text-input button: empty text is refused and asked for again, nothing recorded; once answered, pressing it again is 'already done', not a new prompt")
    func textInputAgain() throws {
        let (keys, ws, chat, server) = try Self.served()
        defer { server.stop() }
        let secret = ["X-Telegram-Bot-Api-Secret-Token": keys.telegram]
        let query = #"{"update_id":2,"callback_query":{"id":"q2","from":{"id":42},"data":"\#(chat.button(3))","message":{"message_id":7,"chat":{"id":42}}}}"#
        let prompt = try server.request("POST", "/telegram/tg", headers: secret, body: Array(query.utf8))
        #expect(prompt.body.contains(#""force_reply":true"#), "\(prompt)")
        let token = chat.button(3).split(separator: ".")[0]
        func reply(_ text: String, update: Int) throws -> String {
            let json = #"{"update_id":\#(update),"message":{"message_id":\#(update + 10),"from":{"id":42},"chat":{"id":42},"text":"\#(text)","reply_to_message":{"from":{"id":7,"is_bot":true},"message_id":8,"text":"Add item: reply to this message with your text.","entities":[{"type":"text_link","offset":0,"length":8,"url":"http://127.0.0.1/a/\#(token)/3"}]}}}"#
            return try server.request("POST", "/telegram/tg", headers: secret, body: Array(json.utf8)).body
        }
        let empty = try reply(" \\n\\t ", update: 3)
        #expect(empty.contains("type your text for “Add item” first"), "\(empty)")
        #expect(try ServeTests.responses(ws).isEmpty, "nothing recorded for empty text")
        // The text is echoed as a page shows it: one line of 60 characters at most (its
        // line break a space, not "\u{a}"), a bidirectional override escaped rather than
        // reordering the answer.
        let typed = "Milk\\n\u{202E}gnp.exe " + String(repeating: "a", count: 70)
        let received = try reply(typed, update: 4)
        #expect(received.contains("“Add item” received. (Milk \\\\u{202e}gnp.exe aaa") && received.contains("a…)")
                && !received.contains("\u{202E}") && !received.lowercased().contains("\\u202e"), "\(received)")
        // Carried out after the answer, on a thread of its own.
        try ServeTests.settled(ws)
        let again = try server.request("POST", "/telegram/tg", headers: secret, body: Array(query.utf8))
        #expect(again.body.contains(#""method":"answerCallbackQuery""#) && again.body.contains("already done"), "\(again)")
        #expect(!again.body.contains("force_reply"))
        let responses = try ServeTests.responses(ws)
        // Stored as typed: the line break JSON's "\n" stands for.
        #expect(responses.count == 1 && responses.first?["userText"] as? String == typed.replacingOccurrences(of: "\\n", with: "\n"), "\(responses)")
    }

    @Test("hooks taking their time do not hold other presses or /health: each is answered within 3 s (a busy machine's moment) while eight hooks sleep for 10 s")
    func slowHooksHoldNothing() throws {
        let keys = ServeTests.Keys()
        let (ws, _) = try ServeTests.workspace(keys)
        let slow = try ws.read("chime.xml").replacingOccurrences(of: #"<hook command="echo ran >> hook-ran.txt"/>"#,
                                                                  with: #"<hook command="sleep 10; echo ran >> hook-ran.txt" timeout="20s"/>"#)
        try ws.write("chime.xml", slow)
        let names = (1...8).map { "slow\($0)" }
        _ = try ReplyCorpusTests.send(ws, names + ["quick"], category: "shop", runMustSucceed: false)
        let server = try Server(ws)
        defer { server.stop() }
        func press(_ value: String) throws -> (status: Int, body: String) {
            try server.request("POST", "/mattermost/mm", body: Array(#"{"user_id":"u1","context":{"token":"\#(value)"}}"#.utf8))
        }
        for name in names {
            let button = try ServeTests.chat(ws, name).button(2), pressed = Date()
            let answer = try press(button)
            #expect(answer.body.contains("“Delete list” received."), "\(answer)")
            #expect(Date().timeIntervalSince(pressed) < 3.0, "\(name) answered after \(Date().timeIntervalSince(pressed)) s")
        }
        let started = Date()
        #expect(try server.request("GET", "/health").status == 200)
        let quick = try press(try ServeTests.chat(ws, "quick").button(1))
        let took = Date().timeIntervalSince(started)
        #expect(quick.body.contains("“OK, got it” received."), "\(quick)")
        #expect(took < 3.0, "answered in \(took) s while the hooks slept")
        #expect(!FileManager.default.fileExists(atPath: ws.path("hook-ran.txt")), "the hooks were still sleeping")
    }
}

extension ServeChatAbuseTests {
    @Test("a chat channel whose id is not ASCII takes its callbacks at the percent-encoded path Chime gives the platform")
    func channelIdsInAnyScript() throws {
        let keys = ServeTests.Keys()
        let (ws, _) = try ServeTests.workspace(keys)
        let renamed = try ws.read("chime.xml").replacingOccurrences(of: #"id="mm""#, with: #"id="équipe""#)
            .replacingOccurrences(of: #"channel="mm""#, with: #"channel="équipe""#)
        try ws.write("chime.xml", renamed)
        let server = try Server(ws)
        defer { server.stop() }
        let button = try ServeTests.chat(ws, "list").button(1)
        let answer = try server.request("POST", "/mattermost/%C3%A9quipe", body: Array(#"{"user_id":"u1","context":{"token":"\#(button)"}}"#.utf8))
        #expect(answer.status == 200 && answer.body.contains("“OK, got it” received."), "\(answer)")
        #expect(try ServeTests.responses(ws).map { $0["channel"] as? String } == ["équipe"])
    }

    @Test("a hook run by chime serve holds only its standard input, output and error: not the server's listening socket nor the connection of the press, which kept the port bound after Chime ended")
    func hooksHoldNoSockets() throws {
        let keys = ServeTests.Keys()
        let (ws, _) = try ServeTests.workspace(keys)
        let listing = try ws.read("chime.xml").replacingOccurrences(of: #"<hook command="echo ran >> hook-ran.txt"/>"#,
                                                                     with: #"<hook command="ls -l /proc/$$/fd > hook-fds.tmp; mv hook-fds.tmp hook-fds.txt"/>"#)
        try ws.write("chime.xml", listing)
        _ = try ReplyCorpusTests.send(ws, ["fds"], category: "shop", runMustSucceed: false)
        let server = try Server(ws)
        defer { server.stop() }
        let button = try ServeTests.chat(ws, "fds").button(2)
        let answer = try server.request("POST", "/mattermost/mm", body: Array(#"{"user_id":"u1","context":{"token":"\#(button)"}}"#.utf8))
        #expect(answer.body.contains("“Delete list” received."), "\(answer)")
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: ws.path("hook-fds.txt")) { Thread.sleep(forTimeInterval: 0.05) }
        // The shell's own (dash keeps a copy of one at 10) and the standard three: no
        // socket, no epoll or eventfd of the server's, no file of the store.
        let descriptors = try ws.read("hook-fds.txt").split(separator: "\n").filter { $0.contains(" -> ") }.map(String.init)
        #expect(descriptors.count >= 3 && descriptors.allSatisfy { !$0.contains("socket:") && !$0.contains("anon_inode") && !$0.contains("chime.") },
                "the hook's open descriptors: \(descriptors)")
    }
}

extension ServeChatAbuseTests {
    @Test("Telegram: a text-input button's press is answered with its ForceReply prompt, and its callback query answered through the Bot API beside it (so the button stops showing its progress), the channel's URL ending in a slash or not",
          arguments: ["sendMessage", "sendMessage/"])
    func telegramQueryAnswered(method: String) throws {
        let keys = ServeTests.Keys()
        let (ws, _) = try ServeTests.workspace(keys)
        let chat = try ServeTests.chat(ws, "list")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-tg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (api, certificate) = try WebhookServer.https(in: folder)
        let xml = try ws.read("chime.xml").replacingOccurrences(
            of: #"url="telegram://127.0.0.1:9/botTOKEN/sendMessage?chat_id=42""#,
            with: #"url="telegram://127.0.0.1:\#(api.port)/ok/bot123:TOKEN/\#(method)?chat_id=42" caFile="\#(certificate.cert)""#)
        try ws.write("chime.xml", xml)
        let server = try Server(ws)
        defer { server.stop() }
        let query = #"{"update_id":2,"callback_query":{"id":"q9","from":{"id":42},"data":"\#(chat.button(3))","message":{"message_id":7,"chat":{"id":42}}}}"#
        let prompt = try server.request("POST", "/telegram/tg", headers: ["X-Telegram-Bot-Api-Secret-Token": keys.telegram], body: Array(query.utf8))
        #expect(prompt.body.contains(#""method":"sendMessage""#) && prompt.body.contains(#""force_reply":true"#), "\(prompt)")
        var answered: [[String: Any]] = []
        for _ in 0..<100 where answered.isEmpty {
            answered = try api.requests().filter { ($0["path"] as? String)?.hasSuffix("/answerCallbackQuery") == true }
            if answered.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        }
        let all = try api.requests().compactMap { $0["path"] as? String }
        #expect(answered.count == 1, "\(all)")
        #expect(answered.first?["path"] as? String == "/ok/bot123:TOKEN/answerCallbackQuery")
        #expect((answered.first?["body"] as? String)?.contains(#""callback_query_id":"q9""#) == true, "\(answered)")
    }
}

extension ServeChatAbuseTests {
    @Test("a link POST with a forged token, a preferences form without its cookie or with a forged token, and chat callbacks to no channel, with a stale or missing timestamp or a wrong secret are refused before their body is read: a body promised and never sent holds nothing")
    func refusedBeforeTheBody() throws {
        let (_, ws, chat, server) = try Self.served()
        defer { server.stop() }
        let token = String(chat.button(1).split(separator: ".")[0])
        let forged = String(token.dropLast(12)) + String(repeating: "a", count: 12)
        // Headers promising 100,000 bytes, and then a few: the answer must come without
        // the rest (the client waits 5 s, far less than the 30 s idle timeout).
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            s.sendall(("POST " + sys.argv[2] + " HTTP/1.1\\r\\nHost: x\\r\\n" + sys.argv[3]
                       + "Content-Type: application/x-www-form-urlencoded\\r\\nContent-Length: 100000\\r\\n\\r\\ntext=").encode())
            s.settimeout(5)
            try:
                print(s.recv(200).decode("latin-1").split("\\r\\n")[0])
            except socket.timeout:
                print("no answer")
            """
        try ws.write("post.py", script)
        let fresh = "\(Int(Date().timeIntervalSince1970))"
        let cases: [(path: String, headers: String, status: Int)] = [
            ("/a/\(forged)/1", "", 403),
            ("/p/\(forged)", "Cookie: chime_csrf=0123\r\n", 403),
            ("/p/\(token)", "", 403),
            ("/slack/nowhere", "X-Slack-Request-Timestamp: \(fresh)\r\n", 404),
            ("/slack/team", "X-Slack-Request-Timestamp: 1\r\nX-Slack-Signature: v0=00\r\n", 401),
            ("/discord/guild", "X-Signature-Ed25519: 00\r\n", 401),
            ("/telegram/tg", "X-Telegram-Bot-Api-Secret-Token: wrong\r\n", 401),
            ("/mattermost/nowhere", "", 404),
        ]
        for (path, headers, status) in cases {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [ws.path("post.py"), "\(server.port)", path, headers]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            let line = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(line.hasPrefix("HTTP/1.1 \(status)"), "\(path): \(line)")
        }
        #expect(try ReplyCorpusTests.json(ws, "replies").isEmpty, "a forged link is counted, not stored: anyone can send them, a write each")
    }
}

extension ServeChatAbuseTests {
    @Test("a body sent a byte every 2 s to a chat callback (Mattermost's, read with no header; Slack's, with a fresh timestamp) or the API is cut off 30 s after its headers, though the connection is never idle; the server answers others meanwhile")
    func tricklingBody() async throws {
        let (_, _, _, server) = try Self.served()
        defer { server.stop() }
        // Each connection promises 1,000 bytes and sends one every 2 s: each a part of the
        // request, which Hummingbird's idle timeout counts as activity. Printed for each:
        // the seconds after which the server closed it, or "open" after 45 s.
        let script = """
            import select, socket, sys, time
            port, fresh = int(sys.argv[1]), sys.argv[2]
            heads = [("/mattermost/mm", ""), ("/slack/team", "X-Slack-Request-Timestamp: " + fresh + "\\r\\n"),
                     ("/v1/requests", "Authorization: Bearer nothing-at-all\\r\\n")]
            start, open_, closed = time.monotonic(), {}, {}
            for path, extra in heads:
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(("POST " + path + " HTTP/1.1\\r\\nHost: x\\r\\n" + extra
                           + "Content-Type: application/json\\r\\nContent-Length: 1000\\r\\n\\r\\n{").encode())
                open_[s] = path
            while open_ and time.monotonic() - start < 45:
                for s in list(open_):
                    try:
                        s.sendall(b" ")
                        while select.select([s], [], [], 0)[0]:
                            if not s.recv(4096):
                                raise ConnectionResetError
                    except OSError:
                        closed[open_.pop(s)] = round(time.monotonic() - start)
                time.sleep(2)
            for path, _ in heads:
                print(path, closed.get(path, "open"))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, "\(server.port)", "\(Int(Date().timeIntervalSince1970))"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        // Waited for without holding one of the test run's few threads.
        try await Task.sleep(for: .seconds(5))
        #expect(try server.request("GET", "/health").status == 200, "answers others meanwhile")
        while process.isRunning { try await Task.sleep(for: .milliseconds(250)) }
        let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3, "\(lines)")
        for line in lines {
            let seconds = line.split(separator: " ").last.flatMap { Int($0) }
            #expect(seconds.map { (28...40).contains($0) } == true, "closed after 30 s: \(line)")
        }
    }

    @Test("a client sending pipelined requests and never reading the answers is cut off 30 s after its connection stops taking them: a SIGTERM meanwhile ends chime serve then, exit 0, not when systemd kills it; others are answered meanwhile")
    func clientNotReading() async throws {
        let (_, ws, _, server) = try Self.served()
        defer { if server.process.isRunning { server.stop() } }
        // Requests for /health as fast as the connection takes them, with a small receive
        // buffer and nothing read, for 90 s at most.
        let script = """
            import socket, sys, time
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", int(sys.argv[1])))
            s.setblocking(False)
            requests, start = b"GET /health HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" * 1000, time.monotonic()
            while time.monotonic() - start < 90:
                try:
                    s.send(requests)
                except BlockingIOError:
                    time.sleep(0.05)
                except OSError:
                    time.sleep(90)
            """
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        client.arguments = ["-c", script, "\(server.port)"]
        try client.run()
        defer { client.terminate() }
        // Stalled once the server's log of requests answered stops growing: its answers
        // fill the connection, and it reads no more requests.
        let log = ws.path("serve.out")
        func logged() -> Int { ((try? FileManager.default.attributesOfItem(atPath: log))?[.size] as? Int) ?? 0 }
        var (size, unchanged) = (logged(), 0)
        for _ in 0..<240 where unchanged < 6 {
            try await Task.sleep(for: .milliseconds(500))
            let now = logged()
            (size, unchanged) = (now, now == size ? unchanged + 1 : 0)
        }
        #expect(unchanged >= 6 && size > 100_000, "the connection stalled with answers waiting: \(size) bytes of log")
        #expect(try server.request("GET", "/health").status == 200, "answers others meanwhile")
        let stopped = Date()
        kill(server.process.processIdentifier, SIGTERM)
        while server.process.isRunning, Date().timeIntervalSince(stopped) < 60 { try await Task.sleep(for: .milliseconds(250)) }
        let seconds = Date().timeIntervalSince(stopped)
        #expect(!server.process.isRunning && seconds < 35, "still running \(Int(seconds)) s after SIGTERM")
        if !server.process.isRunning { #expect(server.process.terminationStatus == 0) }
    }
}

extension ServeChatAbuseTests {
    /// `chime serve --port 0` (and `arguments`) started by `sh` after `ulimit`, its
    /// standard output and error in `serve.out`, once it says it listens; the caller stops it.
    static func serve(_ ws: Workspace, ulimit: String, _ arguments: String = "") throws -> (process: Process, log: () -> String) {
        let output = ws.url.appendingPathComponent("serve.out")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit \#(ulimit) && exec "$0" serve --port 0 \#(arguments)"#, ChimeProcess.executable.path]
        process.currentDirectoryURL = ws.url
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "CHIME_CONFIG")
        process.environment = environment
        process.standardOutput = try FileHandle.creatingEmpty(at: output)
        process.standardError = process.standardOutput
        try process.run()
        let log = { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        for _ in 0..<400 where !log().contains("listening on") { Thread.sleep(forTimeInterval: 0.05) }
        return (process, log)
    }

    @Test("chime serve started with a soft limit of 256 open files raises it to the hard limit: a few hundred slow clients no longer use up its descriptors")
    func openFileLimitRaised() throws {
        let (ws, _) = try ServeTests.workspace(ServeTests.Keys())
        let (process, _) = try Self.serve(ws, ulimit: "-S -n 256", "--no-scheduler")
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let limits = try String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 256, "\(line)")
    }

    @Test("600 silent connections to a chime serve allowed 400 open files do not end it or stop its scheduler: a reminder due meanwhile arrives, and once they close /health answers")
    func connectionFlood() throws {
        let ws = try Workspace()
        // The hard limit too: chime serve raises its soft limit to the hard one.
        let (serve, log) = try Self.serve(ws, ulimit: "-n 400")
        defer {
            serve.terminate()
            serve.waitUntilExit()
        }
        let port = try #require(log().split(separator: "\n").first { $0.hasPrefix("listening on") }?.split(separator: ":").last.flatMap { Int($0) })
        // A client opening 600 connections and saying nothing until told to go: Python's
        // sockets, connecting without waiting (those past the listen queue stay connecting).
        let flood = Process()
        flood.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        flood.arguments = ["python3", "-c", """
            import resource, socket, sys
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if 0 < hard < 2048 else 2048, hard))
            held = []
            for _ in range(600):
                s = socket.socket(); s.setblocking(False); s.connect_ex(("127.0.0.1", \(port))); held.append(s)
            print("open", flush=True)
            sys.stdin.read()
            """]
        let (toFlood, fromFlood) = (Pipe(), Pipe())
        flood.standardInput = toFlood
        flood.standardOutput = fromFlood
        try flood.run()
        #expect(String(decoding: fromFlood.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("open"))
        Thread.sleep(forTimeInterval: 1)
        let printed = try DaemonTests.schedule(ws, 1...1) { _ in 2 }
        let due = try DaemonTests.instant(of: "r1", in: printed)
        let arrived = try DaemonTests.wait(for: 1, in: ws, timeout: 15)
        #expect(serve.isRunning, "chime serve ended under the flood: \(log().suffix(2000))")
        let at = try #require(arrived, "not delivered during the flood: \(log().suffix(2000))")
        #expect(at.timeIntervalSince(due) < 5, "arrived \(at.timeIntervalSince(due)) s after its instant")
        try toFlood.fileHandleForWriting.close()
        flood.waitUntilExit()
        var health = (0, "")
        for _ in 0..<50 {
            health = try ServeTests.Server.request(port: port, "GET", "/health", timeout: 5)
            if health.0 == 200 { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(health.0 == 200 && health.1 == "ok\n", "\(health)")
    }
}
