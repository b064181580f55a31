import ChimeTestSupport
import Foundation
import Testing

/// What an operator watching `chime serve` relies on: `/health` as a container's
/// HEALTHCHECK reads it, the access log and the metrics naming each request as it was
/// asked, and logs that stay one JSON object a line with `--log-format json`.
@Suite("Operating chime serve", .serialized)
struct ServeOperationsTests {
    @Test("a store that can no longer be read: /health answers 503, an API call 500 as a JSON error, and the log says why at error; /metrics answers with chime_store_up 0 and without the store's gauges; a HEAD is logged and counted as HEAD; every metric has its HELP")
    func brokenStore() throws {
        let keys = APITests.Keys()
        let ws = try APITests.workspace(keys)
        let server = try ServeTests.Server(ws, ["--no-scheduler", "--log-level", "info"])
        defer { server.stop() }
        let read = ["Authorization": "Bearer " + keys.read]
        #expect(try server.request("GET", "/health") == (200, "ok\n"))
        #expect(try server.request("HEAD", "/health").status == 200)
        #expect(try server.request("GET", "/v1/pending", headers: read).status == 200)
        let metrics = try server.request("GET", "/metrics").body
        #expect(metrics.contains(#"chime_http_requests_total{method="HEAD",route="/health",status="200"} 1"#)
                || metrics.contains(#"chime_http_requests_total{route="/health",method="HEAD",status="200"} 1"#), "\(metrics)")
        #expect(try ws.read("serve.out").contains("http.method=HEAD"), "the access log names the method asked")
        // Every metric described, as Prometheus's and Grafana's browsers show it.
        let typed = metrics.split(separator: "\n").filter { $0.hasPrefix("# TYPE chime_") }.map { $0.split(separator: " ")[2] }
        let described = Set(metrics.split(separator: "\n").filter { $0.hasPrefix("# HELP chime_") }.map { $0.split(separator: " ")[2] })
        #expect(typed.count >= 8 && typed.allSatisfy(described.contains), "not described: \(typed.filter { !described.contains($0) })")
        #expect(metrics.contains("\nchime_store_up 1") && metrics.contains("\nchime_pending 0"), "\(metrics)")

        // The file the server has open, its log and its index overwritten in place (a
        // disk gone bad, an operator's mistake): nothing of it reads as a database.
        for name in ["chime.sqlite", "chime.sqlite-wal", "chime.sqlite-shm"] where FileManager.default.fileExists(atPath: ws.path(name)) {
            let handle = try FileHandle(forWritingTo: ws.url.appendingPathComponent(name))
            let size = max(Int(try handle.seekToEnd()), 4096)
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data((0..<size).map { _ in UInt8.random(in: 0...255) }))
            try handle.close()
        }
        #expect(try server.request("GET", "/health") == (503, "the store cannot be read\n"))
        let failed = try server.request("GET", "/v1/pending", headers: read)
        #expect(failed.status == 500)
        #expect(APITests.error(failed.body)?["code"] as? String == "internal_error", "\(failed.body)")
        let log = try ws.read("serve.out")
        #expect(log.contains("error chime.http: request failed error=") && log.contains("http.route=/v1/pending"), "\(log.suffix(2_000))")
        #expect(log.contains("health: the store cannot be read"), "\(log.suffix(2_000))")
        // A scrape still answers, saying the store is down rather than failing (which
        // reads as chime serve down), without the store's last figures, with the counters.
        let scraped = try server.request("GET", "/metrics")
        #expect(scraped.status == 200)
        #expect(scraped.body.contains("\nchime_store_up 0"), "\(scraped.body)")
        #expect(!scraped.body.contains("\nchime_pending ") && !scraped.body.contains("\nchime_outbox_queued "), "\(scraped.body)")
        #expect(scraped.body.contains(#"chime_http_requests_total{"#), "\(scraped.body)")
        #expect(try ws.read("serve.out").contains("error chime.http: metrics: the store cannot be read"))
        #expect(!log.contains(keys.read), "no key in the log")
    }

    @Test("chime serve with its standard output and error closed (or their reader gone) goes on serving: a log line it cannot write is lost, not the daemon (it died at the next one, exit 132); SIGTERM still ends it with 0")
    func closedStreams() throws {
        let ws = try Workspace()
        let port = LocalPort.free()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" serve --no-scheduler --log-level info --port \(port) >&- 2>&-", ChimeProcess.executable.path]
        process.currentDirectoryURL = ws.url
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        #expect(LocalPort.listening(port))
        for _ in 0..<5 {
            #expect(try ServeTests.Server.request(port: port, "GET", "/health").status == 200, "each request an access-log line")
        }
        #expect(process.isRunning)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus)")
    }

    @Test("chime serve at --log-level warning still says a notification held (its channel's folder is a file) and a delivery given up (a webhook answering 400): a warning and an error, where chime run prints them and logs them at info")
    func problemsAboveInfo() throws {
        // A webhook that refuses for good (400).
        let hook = try WebhookServer()
        let ws = try Workspace(configuration: Workspace.defaultConfiguration
            .replacingOccurrences(of: "</channels>", with: #"<channel id="hook" url="json://127.0.0.1:\#(hook.port)/status/400"/></channels>"#)
            .replacingOccurrences(of: "</recipients>", with: #"<recipient id="dora" timeZone="UTC"><address channel="hook"/></recipient></recipients>"#))
        try ws.write("outbox", "a file where the Maildir should be\n")
        try ws.write("one.json", #"""
            [{"identifier":"c1","recipient":"carol","content":{"title":"Tea"},"trigger":{"type":"timeInterval","seconds":1,"repeats":false}},
             {"identifier":"d1","recipient":"dora","content":{"title":"Tea"},"trigger":{"type":"timeInterval","seconds":1,"repeats":false}}]
            """#)
        #expect(try ws.chime(["schedule", "--json", "one.json"]).status == 0)
        let server = try ServeTests.Server(ws, ["--log-level", "warning"])
        defer { server.stop() }
        var log = ""
        let deadline = Date().addingTimeInterval(20)
        while !(log.contains("held:") && log.contains("gave up")) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.3)
            log = try ws.read("serve.out")
        }
        #expect(log.contains("warning chime.scheduler: held: ") && log.contains("notification.id=c1"), "\(log)")
        #expect(log.contains("error chime.courier: delivery failed, gave up") && log.contains("notification.id=d1"), "\(log)")
        let run = try ws.chime(["run"], now: "2030-01-01T00:00:00Z")
        #expect(!run.stderr.contains("warning chime.scheduler"), "chime run prints it, once: \(run.stderr)")
    }

    @Test("with --log-format json, a configuration refused on SIGHUP is one JSON record giving the reason (path:line:col), and every line of the log is JSON, for a broken templates file and a key too short too")
    func jsonReload() throws {
        let ws = try Workspace(configuration: OperatorTests.configuration)
        try ws.write("secrets.env", "# nothing yet\n")
        let server = try ServeTests.Server(ws, ["--log-format", "json", "--env-file", ws.path("secrets.env")])
        defer { server.stop() }
        func records(after refusals: Int) throws -> [[String: Any]] {
            kill(server.process.processIdentifier, SIGHUP)
            var said = ""
            for _ in 0..<200 where said.components(separatedBy: "not reloaded").count - 1 <= refusals {
                Thread.sleep(forTimeInterval: 0.05)
                said = try ws.read("serve.out")
            }
            #expect(server.process.isRunning)
            // The one line printed on standard output, to be read by whoever started it.
            let lines = said.split(separator: "\n").filter { !$0.hasPrefix("listening on ") }
            let records = lines.map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(records.allSatisfy { $0 != nil }, "\(lines.filter { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) == nil })")
            return records.compactMap { $0 }
        }
        func refusals(_ records: [[String: Any]]) -> [[String: Any]] {
            records.filter { ($0["message"] as? String)?.contains("not reloaded") ?? false }
        }

        try ws.write("chime.xml", "<chime version=\"1\"><categories>")
        let refused = try refusals(records(after: 0)).last
        #expect((refused?["reason"] as? String)?.contains("chime.xml:1:") ?? false, "\(String(describing: refused))")
        #expect(refused?["level"] as? String == "error")

        // A templates file that cannot be read: its line and column in a record of its own.
        try ws.write("chime.xml", OperatorTests.configuration)
        try FileManager.default.createDirectory(atPath: ws.path("templates/fr"), withIntermediateDirectories: true)
        try ws.write("templates/fr/Localizable.strings", "\"OK\" = \"D'accord\"\n")
        let strings = try records(after: 1)
        #expect(refusals(strings).count == 2)
        #expect(strings.contains { $0["level"] as? String == "error" && ($0["message"] as? String)?.hasPrefix("templates/fr/Localizable.strings:1:18: error: expected \";\"") ?? false },
                "\(strings)")

        // A secret key too short, read from the environment file: said in a record, not shown.
        try FileManager.default.removeItem(atPath: ws.path("templates/fr/Localizable.strings"))
        try ws.write("secrets.env", "CHIME_SECRET_KEY=short-key-5678\n")
        let key = try records(after: 2)
        #expect(refusals(key).count == 3)
        #expect(key.contains { ($0["message"] as? String)?.contains("CHIME_SECRET_KEY") ?? false }, "\(key)")
        #expect(!(try ws.read("serve.out")).contains("short-key-5678"))
    }
}
