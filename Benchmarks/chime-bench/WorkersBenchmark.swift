import ChimeCore
import ChimeTestSupport
import Foundation

/// `chime-bench --workers 1,2,4 [--store postgres|sqlite] [--due N]`: `due` notifications
/// to an SMTP server far away (aiosmtpd answering each command after 25 ms) through 1, 2
/// and 4 `chime run` processes at once on one store, each its own worker
/// (`$CHIME_WORKER_ID`); messages a second for each, and the ratio to one worker. A worker
/// that ends while messages are still unsent is started again after half a second, as a
/// timer would. PostgreSQL is a server of the benchmark's own with `fsync` on.
func workersBenchmark(workers: [Int], storeKind: String, due: Int) throws {
    let chime = chimeExecutable()
    let postgres = storeKind == "postgres" ? try PostgresServer.durable() : nil
    defer { postgres?.stop() }
    let recipients = (0..<100).map { ("user\($0)", "mail", "user\($0)@example.org") }
    // The port is written into each round's configuration: a new server a round.
    let folder = try makeWorkspace(channels: "", recipients: [])
    defer { try? FileManager.default.removeItem(at: folder) }
    print("filling the store: \(due) due …")
    let source = folder.appendingPathComponent("source.sqlite").path
    try fillStore(path: source, count: due, due: due, recipients: recipients.map(\.0), now: benchNow)
    setenv("CHIME_TEMPLATES", repositoryRoot.appendingPathComponent("templates").path, 1)

    var figures: [(workers: Int, seconds: Double, starts: Int, load: String)] = []
    for count in workers {
        let server = try SMTPServer(["--answer-delay", "0.025"])
        let round = try makeWorkspace(
            channels: #"<channel id="mail" url="smtp://127.0.0.1:\#(server.port)" from="Reminders &lt;bot@example.org&gt;"/>"#,
            recipients: recipients)
        defer { try? FileManager.default.removeItem(at: round) }
        let store: String
        if let postgres {
            store = try postgres.makeDatabase()
            let copy = measure(chime, ["store", "copy", "--from", "sqlite:" + source, "--to", store], in: round)
            guard copy.output.contains("copied ") else {
                print("chime store copy said: \(copy.output.prefix(500))")
                exit(1)
            }
        } else {
            store = "sqlite:" + round.appendingPathComponent("chime.sqlite").path
            try FileManager.default.copyItem(atPath: source, toPath: round.appendingPathComponent("chime.sqlite").path)
        }
        let load = loadAverage()
        let began = DispatchTime.now().uptimeNanoseconds
        var running: [pid_t: Int] = [:]
        var starts = 0
        func start(_ worker: Int) {
            starts += 1
            setenv("CHIME_WORKER_ID", "bench-\(count)-\(worker)-\(starts)", 1)
            let pid = spawn(chime, ["run", "--store", store, "--now", benchNow.description], in: round,
                            output: round.appendingPathComponent("worker-\(worker)-\(starts).out").path)
            running[pid] = worker
        }
        (0..<count).forEach(start)
        var accepted = 0
        while !running.isEmpty {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0, let worker = running.removeValue(forKey: pid) else {
                usleep(20_000)
                continue
            }
            accepted = (try? server.messages().count) ?? 0
            if accepted < due {
                usleep(500_000)
                start(worker)
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        accepted = try server.messages().count
        guard accepted == due else {
            print("\(count) workers: the server accepted \(accepted) of \(due)")
            exit(1)
        }
        // What each run sent: how evenly the workers shared the work.
        let shares = (1...starts).compactMap { start in
            (0..<count).lazy.compactMap { try? String(contentsOf: round.appendingPathComponent("worker-\($0)-\(start).out"), encoding: .utf8) }.first
        }.map { $0.firstMatch(of: /delivered (\d+)/).map { String($0.output.1) } ?? "0" }
        print(String(format: "  %d worker(s): %.1f s, %.1f messages/s, %d chime run started; load ", count, seconds, Double(due) / seconds, starts) + load
              + "; delivered by each run: " + shares.joined(separator: ", "))
        figures.append((count, seconds, starts, load))
    }
    unsetenv("CHIME_WORKER_ID")
    print("")
    print("\(due) due notifications to an SMTP server answering each command after 25 ms, \(storeKind == "postgres" ? "PostgreSQL 15 (fsync on)" : "SQLite"), chime run per worker (\(ProcessInfo.processInfo.activeProcessorCount) cores, load \(loadAverage()) at the end)")
    let one = figures.first { $0.workers == 1 }
    for figure in figures {
        let rate = Double(due) / figure.seconds
        let ratio = one.map { String(format: "%.2f× one worker", $0.seconds / figure.seconds) } ?? ""
        print(String(format: "  %d worker(s)  %7.1f s  %7.1f messages/s  ", figure.workers, figure.seconds, rate)
              + ratio + (figure.workers == 4 ? " (target >= 3.5)" : "") + "  (load \(figure.load) before)")
    }
}
