import ChimeCore
import ChimeRuntime
import ChimeTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `chime serve`'s routes as the runtime assembles them (`Runtime.buildApplication`),
/// driven through Hummingbird's router without a socket: what a route answers, the API's
/// keys and scopes, a request scheduled over HTTP seen by the store the runtime opened.
/// The same application on a real port is what the CLI tests (`ServeTests`, `APITests`)
/// drive with curl and Python's requests.
@Suite("Runtime: the router")
struct RouterTests {
    /// Each test's folder, gone with it.
    private let scratch = TemporaryFolder("chime-router")
    let folder: URL
    let runtime: Runtime
    let key = UUID().uuidString
    let readKey = UUID().uuidString

    init() throws {
        folder = scratch.url
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let configuration = """
            <chime version="1">
              <channels><channel id="log" url="file:\(folder.path)/sent.jsonl"/></channels>
              <recipients><recipient id="alice" timeZone="Europe/Paris"><address channel="log"/></recipient></recipients>
              <api>
                <key id="backend" secret="\(key)" scope="write"/>
                <key id="dashboard" secret="\(readKey)" scope="read"/>
              </api>
            </chime>
            """
        try configuration.write(to: folder.appendingPathComponent("chime.xml"), atomically: true, encoding: .utf8)
        let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("templates").path
        runtime = Runtime(configPath: folder.appendingPathComponent("chime.xml").path, storeURL: "sqlite:\(folder.path)/chime.sqlite",
                          templatesPath: templates, statePath: folder.path)
    }

    func json(_ buffer: ByteBuffer) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: buffer).utf8))) as? [String: Any]
    }

    @Test("Health, the OpenAPI document, a forged action link and an unknown route")
    func publicRoutes() async throws {
        let app = try runtime.buildApplication()
        try await app.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
            }
            try await client.execute(uri: "/v1/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect((json(response.body)?["openapi"] as? String)?.hasPrefix("3.1") == true)
            }
            // A token that does not verify: the page says so, and nothing is recorded.
            try await client.execute(uri: "/a/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/1", method: .post) { response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("This link is not valid."))
            }
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    @Test("The API: 401 without a key, 403 for a read key writing, 201 scheduling, then listed as pending")
    func scheduleOverTheRouter() async throws {
        let app = try runtime.buildApplication()
        let body = #"{"identifier": "dentist", "recipient": "alice", "content": {"title": "Call the dentist"}, "trigger": {"type": "timeInterval", "seconds": 3600}}"#
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/pending", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
            try await client.execute(uri: "/v1/requests", method: .post, headers: [.authorization: "Bearer \(readKey)", .contentType: "application/json"],
                                     body: ByteBuffer(string: body)) { response in
                #expect(response.status == .forbidden)
            }
            let before = Instant(Date())
            try await client.execute(uri: "/v1/requests", method: .post, headers: [.authorization: "Bearer \(key)", .contentType: "application/json"],
                                     body: ByteBuffer(string: body)) { response in
                #expect(response.status == .created)
                let scheduled = json(response.body)?["scheduled"] as? [[String: Any]]
                #expect(scheduled?.first?["identifier"] as? String == "dentist")
                // An hour after it was scheduled.
                let next = (scheduled?.first?["nextTriggerDate"] as? String).flatMap(Instant.init(rfc3339:))
                #expect(next.map { $0 >= before + 3_600 && $0 <= Instant(Date()) + 3_600 } == true, "\(String(describing: next))")
            }
            try await client.execute(uri: "/v1/pending", method: .get, headers: [.authorization: "Bearer \(readKey)"]) { response in
                #expect(response.status == .ok)
                let items = json(response.body)?["items"] as? [[String: Any]]
                #expect(items?.map { $0["identifier"] as? String } == ["dentist"])
            }
        }
        // The store the runtime opened holds it: the command line sees what the API scheduled.
        let store = try runtime.openStore()
        #expect(try store.pending(identifier: "dentist")?.request.content.title == "Call the dentist")
    }
}
