import Foundation
import Testing

/// What an operator watches Chime by: `chime serve`'s `/metrics` (read by Python's
/// `prometheus_client` text parser, the one Prometheus' own clients share), its access
/// log, and `chime run --json` / `chime digest --json` for cron.
@Suite("metrics and logs", .serialized)
struct MetricsTests {
    /// One sample: its metric family's name and type, its labels and value.
    struct Sample: Hashable {
        var family: String
        var type: String
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// `text` parsed by `prometheus_client.parser.text_string_to_metric_families`; a text
    /// it cannot parse fails the test.
    static func parse(_ ws: Workspace, _ text: String) throws -> [Sample] {
        try ws.write("metrics.txt", text)
        try ws.write("parse.py", """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            out = []
            for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                for s in family.samples:
                    out.append({"family": family.name, "type": family.type, "name": s.name, "labels": s.labels, "value": s.value})
            print(json.dumps(out))
            """)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", ws.path("parse.py"), ws.path("metrics.txt")]
        let pipe = Pipe(), errors = Pipe()
        python.standardOutput = pipe
        python.standardError = errors
        try python.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "prometheus_client refused the text: \(problem)\n\(text)")
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "\(problem)")
        return objects.map {
            Sample(family: $0["family"] as! String, type: $0["type"] as! String, name: $0["name"] as! String,
                   labels: $0["labels"] as! [String: String], value: ($0["value"] as! NSNumber).doubleValue)
        }
    }

    /// The value of the sample named `name` whose labels include `labels`; 0 when none is.
    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value).reduce(0, +)
    }

    static func scrape(_ ws: Workspace, _ server: ServeTests.Server) throws -> [Sample] {
        let answer = try server.request("GET", "/metrics")
        #expect(answer.status == 200)
        return try parse(ws, answer.body)
    }

    @Test("GET /metrics of a real chime serve parses as Prometheus text with the contract's names: presses on links count as replies by status, HTTP requests by route template and status, notifications fired by the daemon by route with their delay, deliveries by kind and outcome, and the gauges read from the store at each scrape (pending after a chime schedule, the outbox); no label carries a token, an identifier or an address; the access log is JSON lines naming route, method, status and duration, never a token")
    func metricsAndAccessLog() throws {
        let keys = ServeTests.Keys()
        // A reminder sent by email (its chat deliveries queued: their servers are a closed port).
        let (ws, sent) = try ServeTests.workspace(keys)
        let chat = try ServeTests.chat(ws, "list")
        let start = "2026-11-21T10:05:00Z", started = Date()
        let server = try ServeTests.Server(ws, ["--now", start, "--log-format", "json"])
        defer { server.stop() }

        let first = try Self.scrape(ws, server)
        let families = Dictionary(first.map { ($0.family, $0.type) }) { a, _ in a }
        for (name, type) in [("chime_notifications_fired", "counter"), ("chime_pending", "gauge"), ("chime_outbox_queued", "gauge"),
                             ("chime_outbox_failed", "gauge"), ("chime_outbox_oldest_queued_age_seconds", "gauge"), ("chime_store_up", "gauge")] {
            #expect(families[name] == type, "\(name) as a \(type): \(families)")
        }
        #expect(Self.value(first, "chime_pending") == 0)
        #expect(Self.value(first, "chime_store_up") == 1)
        // The counters alerts watch are there from the start, at 0, so that the first
        // forged token or delivery given up is an increase.
        #expect(first.contains { $0.name == "chime_replies_total" && $0.labels == ["status": "forged-token", "via": "link"] && $0.value == 0 })
        #expect(first.contains { $0.name == "chime_replies_total" && $0.labels == ["status": "forged-sender", "via": "email"] && $0.value == 0 })
        #expect(first.contains { $0.name == "chime_deliveries_total" && $0.labels == ["kind": "slack", "outcome": "permanent"] && $0.value == 0 },
                "\(first.filter { $0.name == "chime_deliveries_total" })")
        let waiting = Self.value(first, "chime_outbox_queued") + Self.value(first, "chime_outbox_failed")
        #expect(waiting >= 1, "the chat deliveries of the reminder wait in the outbox or failed")
        if Self.value(first, "chime_outbox_queued") > 0 {
            #expect(Self.value(first, "chime_outbox_oldest_queued_age_seconds") > 60, "queued at 09:02, scraped after 10:05")
        }

        // Gauges are read from the store: another process schedules, the next scrape sees it.
        #expect(try ws.chime(["schedule", "--id", "later", "--to", "alice", "--title", "Later", "--in", "1d"], now: "2026-11-21T10:05:00Z").status == 0)
        #expect(Self.value(try Self.scrape(ws, server), "chime_pending") == 1)

        // Presses on links: responded, replayed, forged; each an HTTP request by its template.
        let link = try #require(chat.links["justInform"])
        #expect(try server.request("POST", link).status == 200)
        #expect(try server.request("POST", link).status == 200)
        var forged = Array(link)
        forged[12] = forged[12] == "a" ? "b" : "a"
        #expect(try server.request("POST", String(forged)).status == 403)
        // Tokens tried on the unsubscribe and view pages are counted too: one forged, one no token at all.
        let forgedToken = String(forged).split(separator: "/")[1]
        #expect(try server.request("GET", "/u/\(forgedToken)").status == 403)
        #expect(try server.request("GET", "/v/not-a-token").status == 403)
        #expect(try server.request("GET", "/nowhere/\(sent.token)").status == 404)

        // A reminder due two seconds on: the daemon fires it, without chime run. Scheduled
        // at the daemon's time now (its clock started at 10:05:00 and runs on), not at
        // 10:05:00: on a busy machine the scrapes and requests above take seconds, which
        // the daemon would count as the reminder's lateness.
        try ws.write("soon.json", #"{"identifier": "soon", "recipient": "alice", "content": {"title": "Soon", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 2}}"#)
        let daemonNow = try Date(start, strategy: .iso8601).addingTimeInterval(Date().timeIntervalSince(started).rounded(.down))
        #expect(try ws.chime(["schedule", "--json", "soon.json"], now: daemonNow.formatted(.iso8601)).status == 0)
        var samples = try Self.scrape(ws, server)
        let deadline = Date().addingTimeInterval(20)
        // Counted once fired; out of `pending` once its batch is settled, a moment later
        // (a scrape between the two saw both: 1 fired and 2 pending, once in CI).
        while (Self.value(samples, "chime_notifications_fired_total", ["route": "sent"]) < 1 || Self.value(samples, "chime_pending") > 1)
                && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.5)
            samples = try Self.scrape(ws, server)
        }
        #expect(Self.value(samples, "chime_notifications_fired_total", ["route": "sent"]) == 1, "fired by the daemon")
        #expect(Self.value(samples, "chime_fire_delay_seconds_count") == 1)
        #expect(Self.value(samples, "chime_fire_delay_seconds_bucket", ["le": "+Inf"]) == 1)
        // How late, to within the run: not whole seconds from the run's start.
        let late = Self.value(samples, "chime_fire_delay_seconds_sum")
        #expect(late > 0 && late < 5 && late != late.rounded(), "\(late)")
        #expect(Self.value(samples, "chime_deliveries_total", ["kind": "maildir", "outcome": "delivered"]) >= 1)
        #expect(Self.value(samples, "chime_deliveries_total", ["kind": "file", "outcome": "delivered"]) >= 1)
        #expect(Self.value(samples, "chime_pending") == 1, "the one a day away")
        // The reminder before's chat deliveries, retried by the daemon: their servers are a closed port.
        #expect(Self.value(samples, "chime_deliveries_total", ["outcome": "temporary"]) >= 1)

        #expect(Self.value(samples, "chime_replies_total", ["status": "responded", "via": "link"]) == 1)
        #expect(Self.value(samples, "chime_replies_total", ["status": "replayed", "via": "link"]) == 1)
        #expect(Self.value(samples, "chime_replies_total", ["status": "forged-token", "via": "link"])
                + Self.value(samples, "chime_replies_total", ["status": "no-token", "via": "link"]) == 3)
        #expect(Self.value(samples, "chime_http_requests_total", ["route": "/a/:token/:action", "method": "POST", "status": "200"]) == 2)
        #expect(Self.value(samples, "chime_http_requests_total", ["route": "/a/:token/:action", "method": "POST", "status": "403"]) == 1)
        #expect(Self.value(samples, "chime_http_requests_total", ["route": "unmatched", "status": "404"]) == 1)
        #expect(Self.value(samples, "chime_http_requests_total", ["route": "/metrics", "status": "200"]) >= 2)
        #expect(samples.contains { $0.family == "chime_http_requests" && $0.type == "counter" })
        #expect(samples.contains { $0.family == "chime_fire_delay_seconds" && $0.type == "histogram" })

        // No label names a person, a request, a delivery or a token.
        let forbidden = [sent.token, sent.deliveryID, "alice", "list", "soon", "later", "U123", "example.org", "@", keys.slack]
        for sample in samples {
            for (name, value) in sample.labels {
                #expect(!forbidden.contains { value.contains($0) }, "\(sample.name){\(name)=\(value)}")
                #expect(value.wholeMatch(of: /[A-Za-z0-9_.:\/+-]*/) != nil, "\(sample.name){\(name)=\(value)}")
            }
        }
        #expect(Set(samples.filter { $0.name == "chime_notifications_fired_total" }.compactMap { $0.labels["route"] })
                == ["sent", "digest", "grouped", "suppressed", "held"])

        // The access log: JSON lines on standard error, one per request, by route template.
        server.stop()
        let log = try ws.read("serve.out").split(separator: "\n").filter { !$0.hasPrefix("listening on ") }
        let records = try log.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String], "not JSON: \($0)") }
        let requests = records.filter { $0["logger"] == "chime.http" }
        #expect(requests.allSatisfy { $0["level"] == "info" && $0["message"] == "request" && $0["http.method"] != nil
                && $0["http.status"].flatMap(Int.init) != nil && $0["duration.ms"].flatMap(Double.init) != nil }, "\(requests)")
        #expect(requests.filter { $0["http.route"] == "/a/:token/:action" }.map { $0["http.status"] } == ["200", "200", "403"])
        #expect(requests.contains { $0["http.route"] == "unmatched" && $0["http.status"] == "404" })
        #expect(records.contains { $0["logger"] == "chime.scheduler" && $0["notification.id"] == "soon" && $0["recipient.id"] == "alice" })
        // The stop said as it began.
        #expect(records.contains { $0["logger"] == "chime.serve" && $0["level"] == "notice" && $0["message"]?.hasPrefix("stopping: ") == true }, "\(records.suffix(3))")
        // One line per delivery the courier tried, named by ids, never by address.
        #expect(records.contains { $0["logger"] == "chime.courier" && $0["level"] == "info" && $0["message"] == "delivery to retry"
                && $0["notification.id"] == "list" && $0["recipient.id"] == "alice" && $0["channel.id"] != nil && $0["delivery.id"] == sent.deliveryID
                && $0["outcome"] == "temporary" }, "\(records)")
        for line in log {
            #expect(!line.contains(sent.token) && !line.contains(link) && !line.contains(keys.slack) && !line.contains("alice@example.org"),
                    "a token, a secret or an address in the log: \(line)")
        }
    }

    static let configuration = OperatorTests.configuration.replacingOccurrences(of: "</channels>", with: """
        <channel id="relay" url="smtp://127.0.0.1:9" from="bot@example.org"/></channels>
        """).replacingOccurrences(of: "</recipients>", with: """
        <recipient id="bob" timeZone="UTC" authorization="denied"><address channel="mail">bob@example.org</address></recipient>
        <recipient id="carol" timeZone="UTC"><address channel="relay">carol@example.org</address></recipient></recipients>
        """)

    @Test("chime run --json prints one JSON object (fired, delivered, routes, held, retrying, failed, deferred…) with the exit code cron reads: 0 when all went, 75 when a server could not be reached; chime digest --json likewise")
    func runJSON() throws {
        let ws = try Workspace(configuration: Self.configuration)
        try ws.write("r.json", """
            [{"identifier": "a1", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "date", "fireDate": "2026-11-21T10:01:00", "timeZone": "Europe/Paris"}},
             {"identifier": "b1", "recipient": "bob", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}},
             {"identifier": "c1", "recipient": "carol", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 120}}]
            """)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let dry = try ws.chime(["run", "--dry-run", "--json"], now: "2026-11-21T09:01:30Z")
        let due = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any], "\(dry.stdout)")
        #expect((due["due"] as? [[String: Any]])?.compactMap { $0["identifier"] as? String } == ["a1", "b1"], "\(due)")
        // Each instant in its trigger's own offset, as chime pending --json writes it.
        let pending = try #require(try JSONSerialization.jsonObject(with: Data(ws.chime(["pending", "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect((due["due"] as? [[String: Any]])?.first?["nextTriggerDate"] as? String == pending.first { $0["identifier"] as? String == "a1" }?["nextTriggerDate"] as? String)
        #expect((due["due"] as? [[String: Any]])?.first?["nextTriggerDate"] as? String == "2026-11-21T10:01:00+01:00", "\(due)")

        let run = try ws.chime(["run", "--json"], now: "2026-11-21T09:01:30Z")
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        #expect(summary["fired"] as? Int == 2 && summary["delivered"] as? Int == 0, "\(summary)")
        #expect(summary["routes"] as? [String: Int] == ["sent": 1, "digest": 0, "grouped": 0, "suppressed": 1, "held": 0], "\(summary)")
        #expect(summary["held"] as? [String] == [] && summary["failed"] as? [String] == [] && summary["deferred"] as? Int == 0)

        // carol's SMTP server is a closed port: fired, not delivered, to be tried again (75).
        let later = try ws.chime(["run", "--json"], now: "2026-11-21T09:03:00Z")
        #expect(later.status == 75, "\(later.stdout) \(later.stderr)")
        let retry = try #require(try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any], "\(later.stdout)")
        #expect(retry["fired"] as? Int == 1 && retry["delivered"] as? Int == 0)
        #expect((retry["retrying"] as? [String])?.count == 1 && (retry["retrying"] as? [String])?.first?.contains("c1") == true, "\(retry)")

        let digest = try ws.chime(["digest", "--json"], now: "2026-11-21T09:03:00Z")
        #expect(digest.status == 0, "\(digest.stderr)")
        let digests = try #require(try JSONSerialization.jsonObject(with: Data(digest.stdout.utf8)) as? [String: Any], "\(digest.stdout)")
        #expect(digests["digests"] as? [Any] != nil && digests["held"] as? [String] == [] && digests["recovered"] as? Int == 0, "\(digests)")
    }
}
