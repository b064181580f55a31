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
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9 }
        // Each run: its worker, when it started and ended, and its output.
        var runs: [(worker: Int, started: Double, ended: Double?, output: URL)] = []
        var running: [pid_t: Int] = [:]
        func start(_ worker: Int) {
            setenv("CHIME_WORKER_ID", "bench-\(count)-\(worker)-\(runs.count)", 1)
            let output = round.appendingPathComponent("run-\(runs.count).out")
            let pid = spawn(chime, ["run", "--store", store, "--now", benchNow.description], in: round, output: output.path)
            running[pid] = runs.count
            runs.append((worker, elapsed(), nil, output))
        }
        (0..<count).forEach(start)
        // Runs to start again: their worker and when. Exits are looked for every 5 ms while
        // one waits, so that the time a run ends is the time it ended.
        var restarts: [(worker: Int, at: Double)] = []
        while !running.isEmpty || !restarts.isEmpty {
            var status: Int32 = 0
            let pid = waitpid(-1, &status, WNOHANG)
            if pid > 0, let run = running.removeValue(forKey: pid) {
                runs[run].ended = elapsed()
                if server.logCount() < due { restarts.append((runs[run].worker, elapsed() + 0.5)) }
                continue
            }
            if let next = restarts.firstIndex(where: { $0.at <= elapsed() }) {
                // Nothing left to send by now: no run needed.
                if server.logCount() < due { start(restarts[next].worker) }
                restarts.remove(at: next)
                continue
            }
            usleep(5_000)
        }
        let seconds = runs.compactMap(\.ended).max() ?? elapsed()
        let accepted = try server.messages().count
        guard accepted == due else {
            print("\(count) workers: the server accepted \(accepted) of \(due)")
            exit(1)
        }
        let starts = runs.count
        print(String(format: "  %d worker(s): %.1f s, %.1f messages/s, %d chime run started; load ", count, seconds, Double(due) / seconds, starts) + load)
        // What each run sent, and when: how evenly the workers shared the work, and how
        // long the last ones ran alone.
        for (index, run) in runs.enumerated() {
            let output = (try? String(contentsOf: run.output, encoding: .utf8)) ?? ""
            let delivered = output.firstMatch(of: /delivered (\d+)/).map { String($0.output.1) } ?? "0"
            print(String(format: "    run %d (worker %d): %.2f s to %.2f s, delivered ", index, run.worker, run.started, run.ended ?? seconds) + delivered)
        }
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
