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

    @Test("No key or an unknown one: 401; a key too small for the route: 403; each as a JSON error, no secret logged")
    func keysAndScopes() throws {
        let keys = Keys()
        let ws = try Self.workspace(keys)
        try ws.write("r.json", #"{"identifier": "a1", "recipient": "alice", "content": {"title": "Call the dentist"}, "trigger": {"type": "timeInterval", "seconds": 3600}}"#)
        #expect(try ws.chime(["schedule", "--json", "r.json"]).status == 0)
        let server = try ServeTests.Server(ws, ["--no-scheduler"])
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
}
