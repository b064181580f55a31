import Foundation
import Testing

/// The HTTP API under `/v1` over real HTTP against `chime serve`: its keys (`<api><key>`),
/// their scopes, and the JSON errors every refusal is written as.
@Suite("HTTP API", .serialized)
struct APITests {
    /// Secrets made for this run, kept in files the configuration points at.
    struct Keys {
        var read = UUID().uuidString
        var write = UUID().uuidString
    }

    static func configuration(_ ws: Workspace, extra: String = "") -> String {
        """
        <chime version="1">
          <channels><channel id="log" url="file:./sent.jsonl"/></channels>
          <recipients><recipient id="alice" timeZone="Europe/Paris"><address channel="log"/></recipient></recipients>
          <api>
            <key id="dashboard" secret="file:\(ws.path("read.key"))" scope="read"/>
            <key id="backend" secret="file:\(ws.path("write.key"))" scope="write"/>
            \(extra)
          </api>
        </chime>
        """
    }

    static func workspace(_ keys: Keys) throws -> Workspace {
        let ws = try Workspace(configuration: "")
        try ws.write("chime.xml", configuration(ws))
        try ws.write("read.key", keys.read)
        try ws.write("write.key", keys.write)
        return ws
    }

    static func error(_ body: String) -> [String: Any]? {
        ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any])?["error"] as? [String: Any]
    }

    /// A workspace with request `a1` (alice's, an hour ahead) pending, served without
    /// the scheduler.
    static func servedWithA1() throws -> (Keys, Workspace, ServeTests.Server) {
        let keys = Keys()
        let ws = try workspace(keys)
        try ws.write("r.json", #"{"identifier": "a1", "recipient": "alice", "content": {"title": "Call the dentist"}, "trigger": {"type": "timeInterval", "seconds": 3600}}"#)
        #expect(try ws.chime(["schedule", "--json", "r.json"]).status == 0)
        return (keys, ws, try ServeTests.Server(ws, ["--no-scheduler"]))
    }

    @Test("No key or an unknown one: 401; a key too small for the route: 403; each as a JSON error, no secret logged")
    func keysAndScopes() throws {
        let (keys, ws, server) = try Self.servedWithA1()
        defer { server.stop() }

        for headers in [[:], ["Authorization": "Bearer " + UUID().uuidString], ["Authorization": "Basic " + keys.write],
                        ["Authorization": "Bearer " + keys.write.dropLast()], ["Authorization": "Bearer "]] {
            let refused = try server.request("GET", "/v1/requests/a1", headers: headers)
            #expect(refused.status == 401, "\(headers)")
            #expect(Self.error(refused.body)?["code"] as? String == "unauthorized")
            #expect(try server.request("DELETE", "/v1/requests/a1", headers: headers).status == 401)
        }

        let read = ["Authorization": "Bearer " + keys.read], write = ["Authorization": "Bearer " + keys.write]
        let shown = try server.request("GET", "/v1/requests/a1", headers: read)
        #expect(shown.status == 200)
        let request = try JSONSerialization.jsonObject(with: Data(shown.body.utf8)) as? [String: Any]
        #expect(request?["identifier"] as? String == "a1")
        #expect(request?["recipient"] as? String == "alice")
        #expect((request?["content"] as? [String: Any])?["title"] as? String == "Call the dentist")
        let listed = try JSONSerialization.jsonObject(with: Data(try ws.chime(["pending", "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(request?["nextTriggerDate"] as? String != nil)
        #expect(request?["nextTriggerDate"] as? String == listed?.first?["nextTriggerDate"] as? String, "as pending --json")
        #expect(request?["added"] as? String == listed?.first?["added"] as? String)
        #expect(request?["setAside"] as? Bool == false)
        #expect(try server.request("GET", "/v1/requests/a1", headers: write).status == 200, "write includes read")
        // HEAD as GET without the body; a path no route takes answers in the API's JSON.
        let head = try server.request("HEAD", "/v1/requests/a1", headers: read)
        #expect(head.status == 200 && head.body.isEmpty, "\(head.status) \(head.body)")
        #expect(try server.request("HEAD", "/health").status == 200)
        for path in ["/v1/requests/a1/extra", "/v1/nothing"] {
            let unknown = try server.request("GET", path, headers: read)
            #expect(unknown.status == 404, "\(path)")
            #expect(Self.error(unknown.body)?["code"] as? String == "not_found", "\(path): \(unknown.body)")
        }
        // A trailing slash is the path without it, as the router reads it: GET of
        // /v1/requests, which only POST takes.
        let slashed = try server.request("GET", "/v1/requests/", headers: read)
        #expect(slashed.status == 405 && Self.error(slashed.body)?["code"] as? String == "method_not_allowed", "\(slashed)")

        let forbidden = try server.request("DELETE", "/v1/requests/a1", headers: read)
        #expect(forbidden.status == 403)
        #expect(Self.error(forbidden.body)?["code"] as? String == "forbidden")
        #expect((Self.error(forbidden.body)?["message"] as? String)?.contains("dashboard") == true)
        #expect(try ws.chime(["pending", "--json"]).stdout.contains("a1"), "a refused DELETE cancels nothing")

        #expect(try server.request("DELETE", "/v1/requests/a1", headers: write).status == 204)
        let gone = try server.request("GET", "/v1/requests/a1", headers: read)
        #expect(gone.status == 404)
        #expect(Self.error(gone.body)?["code"] as? String == "not_found")
        #expect(try server.request("DELETE", "/v1/requests/a1", headers: write).status == 404)
        #expect(!(try ws.chime(["pending", "--json"]).stdout.contains("a1")))

        server.stop()
        let log = try ws.read("serve.out")
        #expect(!log.contains(keys.read) && !log.contains(keys.write))
    }

    @Test("A method no route of the path takes: 405 with Allow (in the API's JSON error shape under /v1/), before any key is asked for; a path no route takes is still 404")
    func methodNotAllowed() throws {
        let (keys, _, server) = try Self.servedWithA1()
        defer { server.stop() }
        let write = ["Authorization": "Bearer " + keys.write]
        for (method, path, allow) in [("PATCH", "/v1/requests", "POST"), ("PUT", "/v1/pending", "GET, HEAD"), ("POST", "/v1/requests/a1", "DELETE, GET, HEAD"),
                                      ("GET", "/v1/deliveries/7/retry", "POST"), ("DELETE", "/v1/openapi.json", "GET, HEAD")] {
            for headers in [write, [:]] {
                let answer = ServeTests.Server.exchange(port: server.port, method, path, headers: headers)
                #expect(answer.status == 405, "\(method) \(path): \(answer.status) \(answer.body)")
                #expect(answer.headers["allow"] == allow, "\(method) \(path): \(answer.headers)")
                #expect(Self.error(answer.body)?["code"] as? String == "method_not_allowed", "\(answer.body)")
            }
        }
        let health = ServeTests.Server.exchange(port: server.port, "POST", "/health")
        #expect(health.status == 405)
        #expect(health.headers["allow"] == "GET, HEAD")
        // A trailing slash or a doubled one is the router's path without it, as before;
        // a path no route takes, whatever its slashes, is 404.
        #expect(ServeTests.Server.exchange(port: server.port, "GET", "/v1/delivered/", headers: write).status == 200)
        #expect(ServeTests.Server.exchange(port: server.port, "POST", "/v1/requests/", headers: write, body: Array("{}".utf8)).status == 400)
        #expect(ServeTests.Server.exchange(port: server.port, "DELETE", "/v1/recipients//settings", headers: write).status == 404)
        // Still there and still acting with the methods routes take; unknown paths 404.
        #expect(try server.request("GET", "/v1/requests/a1", headers: write).status == 200)
        #expect(try server.request("PATCH", "/v1/nothing", headers: write).status == 404)
        #expect(try server.request("GET", "/nothing").status == 404)
        #expect(try server.request("DELETE", "/v1/requests/a1", headers: write).status == 204)
    }

    @Test("chime check refuses a key's short secret, a secret two keys share, and an unknown scope, showing no secret")
    func keyRules() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys)
        #expect(try ws.chime(["check"]).status == 0)

        try ws.write("short.key", "s3cr3t-but-sh0rt")  // 16 characters: enough
        try ws.write("shorter.key", "tooShort123")
        try ws.write("chime.xml", Self.configuration(ws, extra: """
            <key id="ok" secret="file:\(ws.path("short.key"))" scope="admin"/>
            <key id="weak" secret="file:\(ws.path("shorter.key"))" scope="read"/>
            <key id="twin" secret="file:\(ws.path("write.key"))" scope="admin"/>
            """))
        let refused = try ws.chime(["check"])
        #expect(refused.status != 0)
        let said = refused.stdout + refused.stderr
        #expect(said.contains("API key \"weak\": secret is too short (11 characters)"), "\(said)")
        #expect(said.contains("API key \"twin\": its secret is another key's"))
        #expect(!said.contains("API key \"ok\""))
        #expect(!said.contains("tooShort123") && !said.contains(keys.write))

        try ws.write("chime.xml", Self.configuration(ws, extra: #"<key id="root" secret="file:\#(ws.path("short.key"))" scope="owner"/>"#))
        let schema = try ws.chime(["check"])
        #expect(schema.status != 0)
        #expect((schema.stdout + schema.stderr).contains("scope"), "\(schema.stdout + schema.stderr)")
    }

    @Test("POST /v1/requests schedules one request or an array all or none, as chime schedule --json: 201, 400 at the field, 422 refused, 413 too large")
    func scheduling() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys)
        let server = try ServeTests.Server(ws, ["--no-scheduler"])
        defer { server.stop() }
        let read = ["Authorization": "Bearer " + keys.read], write = ["Authorization": "Bearer " + keys.write, "Content-Type": "application/json"]
        func post(_ json: String, _ headers: [String: String]) throws -> (status: Int, body: String) {
            try server.request("POST", "/v1/requests", headers: headers, body: Array(json.utf8))
        }
        func pending() throws -> [String] {
            let list = try JSONSerialization.jsonObject(with: Data(try ws.chime(["pending", "--json"]).stdout.utf8)) as? [[String: Any]]
            return (list ?? []).compactMap { $0["identifier"] as? String }.sorted()
        }
        let one = #"{"identifier": "a1", "recipient": "alice", "content": {"title": "Dentist"}, "trigger": {"type": "calendar", "dateComponents": {"year": 2031, "month": 3, "day": 4, "hour": 9, "minute": 30}, "repeats": false}}"#

        #expect(try post(one, [:]).status == 401)
        #expect(try post(one, read).status == 403)
        #expect(try pending().isEmpty)

        let created = try post(one, write)
        #expect(created.status == 201, "\(created.body)")
        let scheduled = (try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any])?["scheduled"] as? [[String: Any]]
        #expect(scheduled?.count == 1)
        #expect(scheduled?.first?["identifier"] as? String == "a1")
        #expect(scheduled?.first?["nextTriggerDate"] as? String == "2031-03-04T09:30:00+01:00", "alice's wall time in Paris")
        #expect(try pending() == ["a1"])
        #expect(try server.request("GET", "/v1/requests/a1", headers: read).status == 200)

        // All or none: one unknown recipient refuses the other request too.
        let refused = try post("""
            [{"identifier": "b1", "recipient": "alice", "content": {"title": "one"}, "trigger": {"type": "timeInterval", "seconds": 600}},
             {"identifier": "b2", "recipient": "mallory", "content": {"title": "two"}, "trigger": {"type": "timeInterval", "seconds": 600}}]
            """, write)
        #expect(refused.status == 422, "\(refused.body)")
        #expect(Self.error(refused.body)?["code"] as? String == "refused")
        #expect((Self.error(refused.body)?["message"] as? String)?.contains("mallory") == true)
        #expect(Self.error(refused.body)?["at"] as? String == "[1].recipient", "the field at fault, as a 400 names it: \(refused.body)")
        #expect(try pending() == ["a1"])
        let target = try post(#"{"identifier": "t1", "recipient": "alice", "content": {"title": "t", "targetContentIdentifier": "/lists/42"}, "trigger": {"type": "timeInterval", "seconds": 600}}"#, write)
        #expect(target.status == 422 && Self.error(target.body)?["at"] as? String == "content.targetContentIdentifier", "\(target.body)")
        // A value out of its range is at its own field, not at the object holding it.
        for (content, trigger, field) in [
            (#"{"title": "", "body": " "}"#, #"{"type": "timeInterval", "seconds": 600}"#, "content.title"),
            (#"{"title": "t", "relevanceScore": 1.5}"#, #"{"type": "timeInterval", "seconds": 600}"#, "content.relevanceScore"),
            (#"{"title": "t", "badge": -1}"#, #"{"type": "timeInterval", "seconds": 600}"#, "content.badge"),
            (#"{"title": "t"}"#, #"{"type": "calendar", "dateComponents": {"hour": 9, "weekday": 8}, "repeats": true}"#, "trigger.dateComponents.weekday"),
            (#"{"title": "t"}"#, #"{"type": "calendar", "dateComponents": {"month": 2, "day": 30}, "repeats": true}"#, "trigger.dateComponents.day"),
            (#"{"title": "t"}"#, #"{"type": "timeInterval", "seconds": 30, "repeats": true}"#, "trigger.seconds"),
        ] {
            let answer = try post(#"{"identifier": "r1", "recipient": "alice", "content": \#(content), "trigger": \#(trigger)}"#, write)
            #expect(answer.status == 422 && Self.error(answer.body)?["at"] as? String == field, "\(field): \(answer.body)")
        }

        // A key to schedule reminders is no key to the files chime serve can read: the API
        // attaches files from its working directory's attachments/ alone, symlinks resolved.
        try FileManager.default.createDirectory(atPath: ws.path("attachments"), withIntermediateDirectories: true)
        try ws.write("attachments/agenda.txt", "Agenda")
        try FileManager.default.createSymbolicLink(atPath: ws.path("attachments/key"), withDestinationPath: ws.path("write.key"))
        func attaching(_ id: String, _ path: String) throws -> (status: Int, body: String) {
            try post(#"{"identifier": "\#(id)", "recipient": "alice", "content": {"title": "t", "attachments": [{"identifier": "f", "path": "\#(path)"}]}, "trigger": {"type": "timeInterval", "seconds": 600}}"#, write)
        }
        for (id, path) in [("x1", "/etc/hostname"), ("x2", "../chime.xml"), ("x3", "../write.key"), ("x4", "key"), ("x5", ws.path("write.key"))] {
            let outside = try attaching(id, path)
            #expect(outside.status == 422 && (Self.error(outside.body)?["message"] as? String)?.contains("the only folder the HTTP API attaches files from") == true,
                    "\(path): \(outside.body)")
            #expect(Self.error(outside.body)?["at"] as? String == "content.attachments[0].path", "\(outside.body)")
        }
        #expect(try attaching("x6", "agenda.txt").status == 201)
        #expect(try pending() == ["a1", "x6"])
        #expect(try server.request("DELETE", "/v1/requests/x6", headers: write).status == 204)

        let wrongType = try post(#"[{"identifier": "c1", "recipient": "alice", "content": {"title": 7}, "trigger": {"type": "timeInterval", "seconds": 600}}]"#, write)
        #expect(wrongType.status == 400, "\(wrongType.body)")
        #expect(Self.error(wrongType.body)?["code"] as? String == "bad_request")
        #expect(Self.error(wrongType.body)?["at"] as? String == "[0].content.title")
        let syntax = try post(#"{"identifier": "#, write)
        #expect(syntax.status == 400)
        #expect(Self.error(syntax.body)?["at"] == nil, "a syntax error is at no field")
        #expect(try pending() == ["a1"])

        let huge = try post(#"{"identifier": "h", "recipient": "alice", "content": {"title": "\#(String(repeating: "x", count: 1 << 20))"}, "trigger": {"type": "timeInterval", "seconds": 600}}"#, write)
        #expect(huge.status == 413)
        #expect(Self.error(huge.body)?["code"] as? String == "too_large")

        let two = try post("""
            [{"identifier": "b1", "recipient": "alice", "content": {"title": "one"}, "trigger": {"type": "timeInterval", "seconds": 600}},
             {"identifier": "b2", "recipient": "alice", "content": {"title": "two"}, "trigger": {"type": "timeInterval", "seconds": 1200}}]
            """, write)
        #expect(two.status == 201)
        #expect(try pending() == ["a1", "b1", "b2"])
    }

    @Test("Idempotency-Key: the same key and body replay the first answer, kept across a restart; another body is 409")
    func idempotency() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys)
        var server = try ServeTests.Server(ws, ["--no-scheduler"])
        defer { server.stop() }
        let write = ["Authorization": "Bearer " + keys.write, "Content-Type": "application/json"]
        func post(_ json: String, key: String?, _ headers: [String: String] = write) throws -> (status: Int, body: String) {
            try server.request("POST", "/v1/requests", headers: headers.merging(key.map { ["Idempotency-Key": $0] } ?? [:]) { $1 }, body: Array(json.utf8))
        }
        func pending() throws -> [[String: Any]] {
            try JSONSerialization.jsonObject(with: Data(try ws.chime(["pending", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        }
        let body = #"{"identifier": "i1", "recipient": "alice", "content": {"title": "Pay rent"}, "trigger": {"type": "timeInterval", "seconds": 3600}}"#
        let first = try post(body, key: "order-42")
        #expect(first.status == 201)
        let added = try pending().first?["added"] as? String
        #expect(added != nil)

        Thread.sleep(forTimeInterval: 1.1)  // a second scheduling would change nextTriggerDate and added
        let again = try post(body, key: "order-42")
        #expect(again.status == 201)
        #expect(again.body == first.body, "the first answer, byte for byte")
        #expect(try pending().count == 1)
        #expect(try pending().first?["added"] as? String == added, "not scheduled a second time")

        let other = try post(body.replacingOccurrences(of: "Pay rent", with: "Pay the rent"), key: "order-42")
        #expect(other.status == 409)
        #expect(Self.error(other.body)?["code"] as? String == "conflict")
        #expect((try pending().first?["content"] as? [String: Any])?["title"] as? String == "Pay rent")

        // A refusal is an answer too: replayed, even once the recipient would be known.
        let refused = try post(body.replacingOccurrences(of: "alice", with: "mallory"), key: "order-43")
        #expect(refused.status == 422)
        #expect(try post(body.replacingOccurrences(of: "alice", with: "mallory"), key: "order-43").body == refused.body)

        #expect(try post(body, key: "").status == 400, "an empty key")
        #expect(try post(body, key: String(repeating: "k", count: 256)).status == 400, "a key over 255 characters")

        server.stop()
        server = try ServeTests.Server(ws, ["--no-scheduler"])
        let afterRestart = try post(body, key: "order-42")
        #expect(afterRestart.body == first.body, "kept in the store")
        #expect(try pending().first?["added"] as? String == added)
        #expect(try post(body, key: nil).status == 201, "without a key, scheduled again (replacing i1)")
        #expect(try pending().first?["added"] as? String != added)
    }

    @Test("GET /v1/pending and /v1/delivered page with cursors as pending --json and delivered --json list; GET /v1/responses polls after an id")
    func listings() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys)
        try ws.write("chime.xml", Self.configuration(ws).replacingOccurrences(of: "</recipients>", with: #"<recipient id="bob" timeZone="UTC"><address channel="log"/></recipient></recipients>"#))
        let requests = (1...5).map { #"{"identifier": "p\#($0)", "recipient": "alice", "content": {"title": "t\#($0)"}, "trigger": {"type": "timeInterval", "seconds": \#(600 * $0)}}"# }
            + [#"{"identifier": "q1", "recipient": "bob", "content": {"title": "bob's"}, "trigger": {"type": "timeInterval", "seconds": 900}}"#,
               #"{"identifier": "d1", "recipient": "alice", "content": {"title": "fired"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#,
               #"{"identifier": "d2", "recipient": "alice", "content": {"title": "fired too"}, "trigger": {"type": "timeInterval", "seconds": 120}}"#]
        try ws.write("r.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:03:00Z").status == 0)
        let server = try ServeTests.Server(ws, ["--no-scheduler"])
        defer { server.stop() }
        let read = ["Authorization": "Bearer " + keys.read]
        func get(_ path: String) throws -> (status: Int, object: [String: Any]) {
            let answer = try server.request("GET", path, headers: read)
            return (answer.status, (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [String: Any] ?? [:])
        }
        func identifiers(_ object: [String: Any]) -> [String] {
            (object["items"] as? [[String: Any]] ?? []).compactMap { $0["identifier"] as? String }
        }

        #expect(try server.request("GET", "/v1/pending", headers: [:]).status == 401)
        var seen: [String] = [], cursor: String?, pages = 0
        repeat {
            let page = try get("/v1/pending?limit=2" + (cursor.map { "&cursor=" + $0 } ?? ""))
            #expect(page.status == 200)
            #expect(page.object.keys.contains("next"), "next is written even when null")
            seen += identifiers(page.object)
            cursor = page.object["next"] as? String
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        #expect(seen == ["p1", "q1", "p2", "p3", "p4", "p5"], "in fire order, each once")
        let cli = try JSONSerialization.jsonObject(with: Data(try ws.chime(["pending", "--json"]).stdout.utf8)) as? [[String: Any]]
        #expect(cli?.compactMap { $0["identifier"] as? String } == seen)
        let whole = try get("/v1/pending")
        #expect(whole.object["next"] is NSNull)
        #expect((whole.object["items"] as? [[String: Any]])?.first?["nextTriggerDate"] as? String == cli?.first?["nextTriggerDate"] as? String)
        #expect(identifiers(try get("/v1/pending?recipient=bob").object) == ["q1"])

        // A cursor stays good when the items before it go.
        let first = try get("/v1/pending?limit=2")
        #expect(try server.request("DELETE", "/v1/requests/p1", headers: ["Authorization": "Bearer " + keys.write]).status == 204)
        #expect(identifiers(try get("/v1/pending?limit=2&cursor=\(first.object["next"] as? String ?? "")").object) == ["p2", "p3"])

        for bad in ["limit=0", "limit=1001", "limit=x", "cursor=%21%21"] {
            let refused = try server.request("GET", "/v1/pending?" + bad, headers: read)
            #expect(refused.status == 400, "\(bad)")
            #expect(Self.error(refused.body)?["at"] as? String == String(bad.prefix { $0 != "=" }))
        }

        let listed = try JSONSerialization.jsonObject(with: Data(try ws.chime(["delivered", "--json"]).stdout.utf8)) as? [[String: Any]]
        let order = listed?.compactMap { $0["identifier"] as? String }
        #expect(order?.count == 2)
        let delivered = try get("/v1/delivered?limit=1")
        #expect(identifiers(delivered.object) == order?.prefix(1).map { $0 }, "newest first, as delivered --json")
        let rest = try get("/v1/delivered?limit=1&cursor=\(delivered.object["next"] as? String ?? "")")
        #expect(identifiers(rest.object) == order?.suffix(1).map { $0 })
        #expect(rest.object["next"] is NSNull)
        #expect((rest.object["items"] as? [[String: Any]])?.first?["deliveryID"] as? String != nil)

        let write = ["Authorization": "Bearer " + keys.write]
        #expect(try server.request("DELETE", "/v1/delivered/nothing-such", headers: write).status == 404)
        #expect(try server.request("DELETE", "/v1/delivered/d1", headers: read).status == 403)
        #expect(try server.request("GET", "/v1/responses", headers: read).body.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        for id in (order ?? []).reversed() {
            let respond = try ws.chime(["respond", id, "dismiss"], now: "2026-11-21T09:04:00Z")
            #expect(respond.status == 0, "\(respond.stderr)")
        }
        func responses(_ query: String) throws -> [[String: Any]] {
            let answer = try server.request("GET", "/v1/responses" + query, headers: read)
            #expect(answer.status == 200)
            return (try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [[String: Any]] ?? []
        }
        let all = try responses("")
        #expect(try server.request("DELETE", "/v1/delivered/d1", headers: write).status == 204)
        #expect(identifiers(try get("/v1/delivered").object) == ["d2"], "d1 removed, as chime remove-delivered")
        #expect(try server.request("DELETE", "/v1/delivered/d1", headers: write).status == 404)
        #expect(all.compactMap { $0["identifier"] as? String } == order?.reversed(), "oldest first")
        let firstID = all.first?["id"] as? Int ?? -1
        let later = try responses("?after=\(firstID)").compactMap { $0["identifier"] as? String }
        #expect(later.count == 1)
        #expect(later == all.dropFirst().compactMap { $0["identifier"] as? String })
        #expect(try responses("?limit=1").count == 1)
        #expect(try server.request("GET", "/v1/responses?after=-1", headers: read).status == 400)
    }

    @Test("GET /v1/deliveries lists as deliveries --json; POST /v1/deliveries/{id}/retry (admin) queues a failed one again as chime retry")
    func deliveriesAndRetry() throws {
        let keys = Keys(), admin = UUID().uuidString
        let ws = try Self.workspace(keys)
        try ws.write("admin.key", admin)
        try ws.write("chime.xml", Self.configuration(ws, extra: #"<key id="ops" secret="file:\#(ws.path("admin.key"))" scope="admin"/>"#)
            .replacingOccurrences(of: #"<channels><channel id="log" url="file:./sent.jsonl"/></channels>"#,
                                  with: #"<channels><channel id="log" url="file:./sent.jsonl"/><channel id="hook" url="json://127.0.0.1:9/hook" maxAttempts="1"/></channels>"#)
            .replacingOccurrences(of: #"<address channel="log"/>"#, with: #"<address channel="hook"/>"#))
        try ws.write("r.json", #"{"identifier": "w1", "recipient": "alice", "content": {"title": "ping"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        #expect(try ws.chime(["schedule", "--json", "r.json"], now: "2026-11-21T09:00:00Z").status == 0)
        _ = try ws.chime(["run"], now: "2026-11-21T09:02:00Z")
        let cli = try JSONSerialization.jsonObject(with: Data(try ws.chime(["deliveries", "--json"]).stdout.utf8)) as? [[String: Any]] ?? []
        #expect(cli.count == 1)
        #expect(cli.first?["state"] as? String == "failed", "\(cli)")
        let id = cli.first?["id"] as? Int ?? -1
        let server = try ServeTests.Server(ws, ["--no-scheduler", "--now", "2026-11-21T09:03:00Z"])
        defer { server.stop() }
        let (read, write, ops) = (["Authorization": "Bearer " + keys.read], ["Authorization": "Bearer " + keys.write], ["Authorization": "Bearer " + admin])
        func items(_ query: String) throws -> [[String: Any]] {
            let answer = try server.request("GET", "/v1/deliveries" + query, headers: read)
            #expect(answer.status == 200)
            return ((try? JSONSerialization.jsonObject(with: Data(answer.body.utf8))) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        }
        #expect(try items("?state=failed").compactMap { $0["id"] as? Int } == [id])
        #expect(try items("?state=failed").first?["deliveryID"] as? String == cli.first?["deliveryID"] as? String)
        #expect(try items("?state=queued").isEmpty)
        let bad = try server.request("GET", "/v1/deliveries?state=lost", headers: read)
        #expect(bad.status == 400)
        #expect(Self.error(bad.body)?["at"] as? String == "state")

        #expect(try server.request("POST", "/v1/deliveries/\(id)/retry", headers: write).status == 403, "retry is admin's")
        let retried = try server.request("POST", "/v1/deliveries/\(id)/retry", headers: ops)
        #expect(retried.status == 200, "\(retried.body)")
        #expect(((try? JSONSerialization.jsonObject(with: Data(retried.body.utf8))) as? [String: Any])?["queued"] as? [Int] == [id])
        #expect(try items("?state=queued").compactMap { $0["id"] as? Int } == [id])
        let again = try server.request("POST", "/v1/deliveries/\(id)/retry", headers: ops)
        #expect(again.status == 409)
        #expect(Self.error(again.body)?["code"] as? String == "not_failed")
        #expect(try server.request("POST", "/v1/deliveries/999999/retry", headers: ops).status == 404)
        #expect(try server.request("POST", "/v1/deliveries/x/retry", headers: ops).status == 404)
        #expect(try server.request("POST", "/v1/deliveries/-9223372036854775808/retry", headers: ops).status == 404)
        #expect(try server.request("POST", "/v1/deliveries/0/retry", headers: ops).status == 404)
    }

    @Test("A key's rate: calls beyond it are answered 429 with Retry-After, other keys unaffected, and the key may call again a second later")
    func rateLimit() throws {
        let keys = Keys(), limited = UUID().uuidString
        let ws = try Self.workspace(keys)
        try ws.write("limited.key", limited)
        try ws.write("chime.xml", Self.configuration(ws, extra: #"<key id="poller" secret="file:\#(ws.path("limited.key"))" scope="read" rate="2"/>"#))
        let server = try ServeTests.Server(ws, ["--no-scheduler"])
        defer { server.stop() }
        let statuses = try (1...6).map { _ in try server.request("GET", "/v1/pending", headers: ["Authorization": "Bearer " + limited]).status }
        #expect(statuses.prefix(2) == [200, 200], "\(statuses)")
        #expect(statuses.contains(429), "\(statuses)")
        let refused = try ChimeProcess.runProgram("/usr/bin/env", ["curl", "-s", "-i", "-H", "Authorization: Bearer " + limited,
                                                                   "http://127.0.0.1:\(server.port)/v1/pending"])
        #expect(refused.stdout.hasPrefix("HTTP/1.1 429"), "\(refused.stdout)")
        #expect(refused.stdout.lowercased().contains("retry-after: 1"), "\(refused.stdout)")
        #expect(refused.stdout.contains(#""code":"rate_limited""#))
        #expect(try (1...6).allSatisfy { _ in try server.request("GET", "/v1/pending", headers: ["Authorization": "Bearer " + keys.read]).status == 200 },
                "a key with no rate is not limited")
        Thread.sleep(forTimeInterval: 1.1)
        #expect(try server.request("GET", "/v1/pending", headers: ["Authorization": "Bearer " + limited]).status == 200)
    }

    static let fixtures = ChimeProcess.repositoryRoot.appendingPathComponent("Tests/ChimeCLITests/Fixtures/api")

    @Test("Python's requests through the flows: auth, schedule, all or none, get, pages (identifiers by their bytes), idempotency replay (eight at once), HEAD, triggers as the document says, delete")
    func pythonFlows() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys)
        let server = try ServeTests.Server(ws, ["--no-scheduler"])
        defer { server.stop() }
        let result = try ChimeProcess.runProgram("/usr/bin/env", ["python3", Self.fixtures.appendingPathComponent("flows.py").path,
                                                                  "http://127.0.0.1:\(server.port)", keys.read, keys.write])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok 27", "\(result.stdout)\(result.stderr)")
    }

    /// Schemathesis (pinned by script/setup --test) against a real `chime serve` with a
    /// write key, from the document the server serves: every operation, generated valid
    /// and invalid data and stateful sequences, bounded to stay well under a minute.
    @Test("Schemathesis against /v1/openapi.json: no server error, every status, content type and body as the document says")
    func schemathesis() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys)
        let server = try ServeTests.Server(ws, ["--no-scheduler"])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let served = try server.request("GET", "/v1/openapi.json")
        #expect(served.status == 200)
        let file = try String(contentsOf: ChimeProcess.repositoryRoot.appendingPathComponent("Sources/ChimeServer/openapi.json"), encoding: .utf8)
        #expect(served.body == file, "the document in the repository is the one served")
        try Self.schemathesis(base, key: keys.write, maxExamples: 50, atLeast: 300, in: ws)
        server.stop()
        #expect(!(try ws.read("serve.out")).contains(keys.write), "the key in every request, in no log line")
    }

    /// Runs Schemathesis (pinned by script/setup --test) against the document `base`
    /// serves, with `key`, and expects no failure of the four checks and at least
    /// `atLeast` cases, all passed; `options` narrow it (`--include-path-regex`).
    static func schemathesis(_ base: String, key: String, options: [String] = [], maxExamples: Int, atLeast: Int, in ws: Workspace) throws {
        // Run in the workspace: Schemathesis keeps its example database in .schemathesis/.
        let result = try ChimeProcess.run([
            // The python3 on PATH, as script/setup --test installed it there (no __main__).
            "python3", "-c", "import sys; from schemathesis.cli import schemathesis; sys.argv[0] = 'schemathesis'; schemathesis()", "run", base + "/v1/openapi.json", "--url", base,
            "-H", "Authorization: Bearer " + key,
            "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance",
            "--phases", "examples,coverage,fuzzing,stateful", "--max-examples", String(maxExamples), "--no-color",
        ] + options, in: ws.url, timeout: 240, program: URL(fileURLWithPath: "/usr/bin/env"))
        let output = result.stdout + result.stderr
        print(output.split(separator: "\n").filter { $0.contains("generated") || $0.contains("Scenarios") }.joined(separator: "\n"))
        #expect(result.status == 0, "\(output)")
        let counts = output.firstMatch(of: /(\d+) generated, (\d+) passed/)
        #expect(counts != nil, "\(output)")
        if let counts {
            #expect(counts.output.1 == counts.output.2)
            #expect(Int(counts.output.1) ?? 0 >= atLeast, "enough cases to mean something")
        }
        #expect(output.firstMatch(of: /\d+ (failed|failures?|errors?)\b/) == nil, "\(output)")
    }
}
