import ChimeCore
import ChimeCurl
import ChimeRuntime
import ChimeTestSupport
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Testing

/// `chime serve`'s routes as the runtime assembles them (`Runtime.buildApplication`), on
/// a port of their own in this process, asked over HTTP by libcurl: what a route answers,
/// the API's keys and scopes, a request scheduled over HTTP seen by the store the runtime
/// opened. `chime serve` itself, as a process, is what the CLI tests (`ServeTests`,
/// `APITests`) drive with curl and Python's requests.
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

    /// What a request brought back: its status, headers by lower-cased name, its body.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let text: String
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] }
    }

    /// The application listening on 127.0.0.1 (a port the system chose) while `body`
    /// runs, which asks it through `ask(path, method, headers, body)`; stopped after.
    func serving(_ body: (_ ask: Asking) async throws -> Void) async throws {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let app = try runtime.buildApplication(listening: { listening.yield($0) })
        let services = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "chime.router-tests")))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { listening.finish() }
                try await services.run()
            }
            var bound = ports.makeAsyncIterator()
            guard let port = await bound.next() else {
                try await group.waitForAll()
                Issue.record("the application stopped before it listened")
                return
            }
            var failure: (any Error)?
            do { try await body(Asking(port: port)) } catch { failure = error }
            // However `body` ended, as SIGTERM stops `chime serve`: what is in flight
            // finishes, then it closes.
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            if let failure { throw failure }
        }
    }

    /// libcurl asking the application, on a thread of its own: a transfer waits for the
    /// answer, and the routes' handlers run on the threads Swift's tasks share. Those are
    /// as many as the cores, and the suite's other tests hold them for minutes on end
    /// (each waiting on a child process), so an answer may come only once many of those
    /// are done: the transfer gives up after 30 minutes, not libcurl's usual one.
    struct Asking {
        let port: Int

        func callAsFunction(_ path: String, _ method: HTTPPool.Method, _ headers: [String], _ text: String) async throws -> Answer {
            let request = HTTPPool.Request(url: "http://127.0.0.1:\(port)\(path)", method: method, body: Array(text.utf8), headers: headers,
                                           timeouts: .init(connect: 10_000, total: 1_800_000))
            let response = try await withCheckedThrowingContinuation { (done: CheckedContinuation<HTTPPool.Response, any Error>) in
                DispatchQueue.global().async { done.resume(with: Result { try HTTPPool(bodyLimit: 1 << 20).perform(request) }) }
            }
            if let error = response.error { throw error }
            return Answer(status: response.status, headers: response.headers, text: String(decoding: response.body, as: UTF8.self))
        }
    }

    @Test("Health, the OpenAPI document, a forged action link and an unknown route")
    func publicRoutes() async throws {
        try await serving { ask in
            let health = try await ask("/health", .get, [], "")
            #expect(health.status == 200)
            #expect(health.text.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
            let document = try await ask("/v1/openapi.json", .get, [], "")
            #expect(document.status == 200)
            #expect((document.json?["openapi"] as? String)?.hasPrefix("3.1") == true)
            // A token that does not verify: the page says so, and nothing is recorded.
            let forged = try await ask("/a/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/1", .post, [], "")
            #expect(forged.status == 403)
            #expect(forged.text.contains("This link is not valid."))
            #expect(try await ask("/nowhere", .get, [], "").status == 404)
        }
    }

    @Test("The API: 401 without a key, 403 for a read key writing, 201 scheduling, then listed as pending")
    func scheduleOverTheRouter() async throws {
        let body = #"{"identifier": "dentist", "recipient": "alice", "content": {"title": "Call the dentist"}, "trigger": {"type": "timeInterval", "seconds": 3600}}"#
        try await serving { ask in
            let anonymous = try await ask("/v1/pending", .get, [], "")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["www-authenticate"] == "Bearer")
            #expect(try await ask("/v1/requests", .post, ["Authorization: Bearer \(readKey)", "Content-Type: application/json"], body).status == 403)
            let before = Instant(Date())
            let created = try await ask("/v1/requests", .post, ["Authorization: Bearer \(key)", "Content-Type: application/json"], body)
            #expect(created.status == 201)
            let scheduled = created.json?["scheduled"] as? [[String: Any]]
            #expect(scheduled?.first?["identifier"] as? String == "dentist")
            // An hour after it was scheduled.
            let next = (scheduled?.first?["nextTriggerDate"] as? String).flatMap(Instant.init(rfc3339:))
            #expect(next.map { $0 >= before + 3_600 && $0 <= Instant(Date()) + 3_600 } == true, "\(String(describing: next))")
            let pending = try await ask("/v1/pending", .get, ["Authorization: Bearer \(readKey)"], "")
            #expect(pending.status == 200)
            let items = pending.json?["items"] as? [[String: Any]]
            #expect(items?.map { $0["identifier"] as? String } == ["dentist"])
        }
        // The store the runtime opened holds it: the command line sees what the API scheduled.
        let store = try runtime.openStore()
        #expect(try store.pending(identifier: "dentist")?.request.content.title == "Call the dentist")
    }
}
