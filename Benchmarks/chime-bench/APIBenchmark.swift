import ChimeCurl
import Foundation

/// `count` requests POSTed to the release `chime serve`'s `POST /v1/requests`, one request
/// object a POST, 16 in flight over kept-alive connections (libcurl's multi interface),
/// against the baseline measured in the same run: `chime schedule --json` of the same
/// `count` requests in one process, into a store of its own. Each answer must be 201, and
/// each store must hold `count` pending afterwards; the figures are printed, not checked.
func apiBenchmark(count: Int, concurrency: Int = 16) throws {
    let chime = chimeExecutable()
    let recipients = (0..<100).map { ("user\($0)", "log", "") }
    let secret = UUID().uuidString
    let channels = #"<channel id="log" url="file:./sent.jsonl"/>"#
    let served = try makeWorkspace(channels: channels, recipients: recipients,
                                   more: #"<api><key id="backend" secret="\#(secret)" scope="write"/></api>"#)
    let direct = try makeWorkspace(channels: channels, recipients: recipients)
    defer {
        try? FileManager.default.removeItem(at: served)
        try? FileManager.default.removeItem(at: direct)
    }
    // A day ahead: nothing falls due while the benchmark runs.
    let bodies = (0..<count).map { n in
        #"{"identifier": "api-\#(n)", "recipient": "user\#(n % 100)", "content": {"title": "Reminder \#(n)", "body": "Water the plants, item \#(n).", "categoryIdentifier": "reminder"}, "trigger": {"type": "timeInterval", "seconds": 86400}}"#
    }
    let loadBefore = loadAverage()

    // The baseline: the same requests as one array, through one `chime schedule --json`.
    try ("[" + bodies.joined(separator: ",\n") + "]").write(to: direct.appendingPathComponent("requests.json"), atomically: true, encoding: .utf8)
    let baseline = measure(chime, ["schedule", "--json", "requests.json"], in: direct)
    let baselinePending = pendingCount(chime, in: direct)

    // `chime serve` as deployed (its scheduler running), on a free port.
    let server = try ServeProcess(chime, in: served)
    let url = "http://127.0.0.1:\(server.port)/v1/requests"
    let headers = ["Authorization: Bearer \(secret)", "Content-Type: application/json"]
    let pool = try HTTPPool()
    var started = [UInt64](repeating: 0, count: count)
    var latencies: [Double] = []
    latencies.reserveCapacity(count)
    var failures: [Int: Int] = [:]
    var firstFailure: String?
    var next = 0
    var connections = 0
    let clientCPU = cpuSeconds()
    let start = DispatchTime.now().uptimeNanoseconds
    while next < count || pool.inFlight > 0 {
        while next < count && pool.inFlight < concurrency {
            started[next] = DispatchTime.now().uptimeNanoseconds
            try pool.start(HTTPPool.Request(url: url, body: Array(bodies[next].utf8), headers: headers), tag: next)
            next += 1
            if next == count / 2 { connections = establishedConnections(port: server.port) }
        }
        for (tag, response) in pool.collect(waitingUpTo: 100) {
            let end = DispatchTime.now().uptimeNanoseconds
            latencies.append(Double(end - started[tag]) / 1e6)
            if response.status != 201 {
                failures[response.status, default: 0] += 1
                firstFailure = firstFailure ?? "\(response.status) \(response.error.map { "\($0)" } ?? String(decoding: response.body.prefix(300), as: UTF8.self))"
            }
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let clientSeconds = cpuSeconds() - clientCPU
    let loadAfter = loadAverage()
    let serverCPU = server.stop()
    let servedPending = pendingCount(chime, in: served)

    latencies.sort()
    func percentile(_ p: Double) -> Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
    let failed = failures.values.reduce(0, +)
    print("")
    print("\(count) requests scheduled, one request object a POST (\(ProcessInfo.processInfo.activeProcessorCount) cores, load \(loadBefore) before, \(loadAfter) after)")
    print(String(format: "  chime serve, POST /v1/requests, %d in flight over %d kept-alive connections  %6.2f s  %7.0f requests/s (target >= 2,000)",
                 concurrency, connections, seconds, Double(count) / seconds))
    print(String(format: "    latency p50 %.2f ms  p99 %.2f ms (target < 20 ms)  max %.2f ms; CPU per request: server %.0f µs, client %.0f µs",
                 percentile(0.50), percentile(0.99), latencies.last ?? 0, serverCPU / Double(count) * 1e6, clientSeconds / Double(count) * 1e6))
    print(String(format: "    answers other than 201: %d%@; pending afterwards: %d", failed,
                 failures.isEmpty ? "" : " \(failures.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: ", "))", servedPending))
    print(String(format: "  baseline: chime schedule --json of the same %d in one process                     %6.2f s  %7.0f requests/s; HTTP is %.2f×",
                 count, baseline.seconds, Double(count) / baseline.seconds, baseline.seconds / seconds))
    print("    pending afterwards: \(baselinePending)\(baseline.output.isEmpty || baselinePending == count ? "" : "; chime said: \(baseline.output.prefix(300))")")
    if let firstFailure { print("  first failure: \(firstFailure)") }
    if failed > 0 || servedPending != count || baselinePending != count {
        print("  MISMATCH: expected \(count) answered 201 and \(count) pending in each store")
        exit(1)
    }
}

/// How many requests `chime pending --json` lists in the workspace.
private func pendingCount(_ chime: String, in folder: URL) -> Int {
    _ = measure(chime, ["pending", "--json"], in: folder)
    let data = (try? Data(contentsOf: folder.appendingPathComponent("out.txt"))) ?? Data()
    return ((try? JSONSerialization.jsonObject(with: data)) as? [Any])?.count ?? -1
}

/// User and system CPU seconds of this process so far.
private func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return cpuSeconds(usage)
}

/// TCP connections established to `port` on loopback (the server's side of each), from
/// /proc/net/tcp: how many connections the client kept open.
private func establishedConnections(port: Int) -> Int {
    // Read to the end: /proc files say their size is 0.
    let table = String(decoding: FileHandle(forReadingAtPath: "/proc/net/tcp")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    let local = String(format: ":%04X", port)
    return table.split(separator: "\n").dropFirst().filter { line in
        let fields = line.split(separator: " ")
        return fields.count > 3 && fields[1].hasSuffix(local) && fields[3] == "01"
    }.count
}

/// `chime serve --port 0` in a workspace, its port read from the line it prints once bound.
private final class ServeProcess {
    let pid: pid_t
    let port: Int

    init(_ chime: String, in folder: URL) throws {
        let outputPath = folder.appendingPathComponent("serve.out").path
        let pid = spawn(chime, ["serve", "--port", "0"], in: folder, output: outputPath)
        self.pid = pid
        var found: Int?
        var status: Int32 = 0
        var exited = false
        for _ in 0..<400 where found == nil && !exited {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            found = text.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.output.1) }
            exited = found == nil && waitpid(pid, &status, WNOHANG) == pid
            if found == nil && !exited { usleep(50_000) }
        }
        guard let found else {
            if !exited { kill(pid, SIGTERM) }
            let said = ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").prefix(500)
            print("chime serve did not say where it listens (\(exited ? "it ended, wait status \(status)" : "in 20 s")): \(said)")
            exit(1)
        }
        port = found
    }

    /// SIGTERM, then waits; returns the CPU seconds the server used (user and system).
    func stop() -> Double {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        var usage = rusage()
        wait4(pid, &status, 0, &usage)
        return cpuSeconds(usage)
    }
}
