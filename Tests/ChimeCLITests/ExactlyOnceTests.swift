import Foundation
import Testing

@Suite("chime run fires each reminder exactly once")
struct ExactlyOnceTests {
    /// 1,000 one-shot requests for alice, all due at 2026-11-21T09:01:00Z.
    private func scheduleThousand(in ws: Workspace) throws {
        let requests = (1...1000).map { n in
            #"{"identifier": "r\#(n)", "recipient": "alice", "content": {"title": "Reminder \#(n)"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#
        }
        try ws.write("thousand.json", "[" + requests.joined(separator: ",\n") + "]")
        let result = try ws.chime(["schedule", "--json", "thousand.json"], now: "2026-11-21T09:00:00Z")
        #expect(result.status == 0)
    }

    @Test("two runs started together on 1,000 due requests deliver 1,000 messages, each run its share")
    func overlappingRuns() throws {
        let ws = try Workspace(configuration: Workspace.defaultConfiguration.replacingOccurrences(of: "file:./sent.jsonl", with: "file:./pipe"))
        try scheduleThousand(in: ws)
        // Both runs write into a FIFO this test drains only once both are started: the
        // first blocks on the full pipe holding its batch, so the second must take the
        // rest while the first is still running.
        #expect(mkfifo(ws.path("pipe"), 0o600) == 0)
        let reader = try PipeReader(path: ws.path("pipe"))
        let outputs = [ws.url.appendingPathComponent("a.out"), ws.url.appendingPathComponent("b.out")]
        let runs = try outputs.map { try ChimeProcess.start(["run", "--now", "2026-11-21T09:05:00Z"], in: ws.url, output: $0) }
        var lines = reader.read(atLeast: 100, timeout: 30)
        usleep(500_000)
        while runs.contains(where: \.isRunning) { lines += reader.read(atLeast: 1, timeout: 0.2) }
        runs.forEach { $0.waitUntilExit() }
        lines += reader.drain()
        #expect(runs.allSatisfy { $0.terminationStatus == 0 })
        let fired = try outputs.map { try String(contentsOf: $0, encoding: .utf8) }
        #expect(fired.allSatisfy { $0.hasPrefix("fired ") && $0 != "fired 0\n" }, "both runs fired: \(fired)")
        let identifiers = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["identifier"] as? String }
        #expect(identifiers.count == 1000)
        #expect(Set(identifiers).count == 1000)
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
    }

    @Test("runs killed at random moments, then run again: every message, resent only those not yet marked (at most 64), with their delivery ids", arguments: [40, 90, 140, 190, 240])
    func randomKills(afterMilliseconds delay: Int) throws {
        let ws = try Workspace()
        try scheduleThousand(in: ws)
        let run = try ChimeProcess.start(["run", "--now", "2026-11-21T09:05:00Z"], in: ws.url)
        usleep(useconds_t(delay * 1000))
        kill(run.processIdentifier, SIGKILL)
        run.waitUntilExit()
        let again = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(again.status == 0)
        // The kill may cut the line in flight short; it stands alone, and the next run
        // writes that notification again whole.
        let (lines, cut) = try ws.linesAndCut()
        #expect(cut <= 1, "lines cut short: \(cut)")
        var seen: [String: [String]] = [:]
        for line in lines {
            seen[line["identifier"] as! String, default: []].append(line["deliveryID"] as! String)
        }
        #expect(Set(seen.keys) == Set((1...1000).map { "r\($0)" }))
        let twice = seen.filter { $0.value.count > 1 }
        // Marks are written 64 at a time (or after 20 ms): what a kill resends.
        #expect(twice.count <= 64, "sent twice: \(twice.keys.sorted())")
        #expect(twice.values.allSatisfy { Set($0).count == 1 })
        #expect(try ws.chime(["delivered"]).stdout.split(separator: "\n").count == 1000)
    }

    @Test("a run killed with SIGKILL mid-run, run again, delivers every message; twice only those not yet marked (at most 64), each with the same delivery id")
    func killedRun() throws {
        let ws = try Workspace(configuration: Workspace.defaultConfiguration.replacingOccurrences(of: "file:./sent.jsonl", with: "file:./pipe"))
        try scheduleThousand(in: ws)
        // The channel writes into a FIFO this test reads: once the pipe is full the run
        // blocks, so it is surely mid-run when killed.
        #expect(mkfifo(ws.path("pipe"), 0o600) == 0)
        let reader = try PipeReader(path: ws.path("pipe"))
        let first = try ChimeProcess.start(["run", "--now", "2026-11-21T09:05:00Z"], in: ws.url)
        var lines = reader.read(atLeast: 200, timeout: 60)
        #expect(lines.count >= 200)
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        lines += reader.drain()
        let beforeKill = lines.count
        #expect(beforeKill < 1000)

        // Read while the second run writes, or it would block on the full pipe.
        let output = ws.url.appendingPathComponent("second.out")
        let second = try ChimeProcess.start(["run", "--now", "2026-11-21T09:05:00Z"], in: ws.url, output: output)
        while second.isRunning { lines += reader.read(atLeast: 1, timeout: 0.2) }
        second.waitUntilExit()
        lines += reader.drain()
        #expect(second.terminationStatus == 0)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("took back"))

        let decoded = lines.map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let identifiers = decoded.compactMap { $0["identifier"] as? String }
        #expect(Set(identifiers) == Set((1...1000).map { "r\($0)" }))
        var counts: [String: Int] = [:]
        identifiers.forEach { counts[$0, default: 0] += 1 }
        let twice = counts.filter { $0.value > 1 }.map(\.key)
        #expect(twice.count <= 64, "sent twice: \(twice.sorted())")
        for identifier in twice {
            let ids = Set(decoded.filter { $0["identifier"] as? String == identifier }.compactMap { $0["deliveryID"] as? String })
            #expect(ids.count == 1)
        }
        #expect(try ws.chime(["pending"]).stdout.isEmpty)
        #expect(try ws.chime(["delivered"]).stdout.split(separator: "\n").count == 1000)
    }
}

/// Results gathered from concurrent runs.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: ChimeProcess.Result?] = [:]

    func set(_ index: Int, _ value: ChimeProcess.Result?) {
        lock.withLock { values[index] = value }
    }

    var all: [ChimeProcess.Result?] {
        lock.withLock { values.keys.sorted().map { values[$0]! } }
    }
}

/// Reads lines from a FIFO opened read-write, so that it never blocks on open and never
/// sees end-of-file between writers; waits with poll.
private final class PipeReader {
    private let descriptor: Int32
    private var partial = Data()

    init(path: String) throws {
        descriptor = open(path, O_RDWR | O_NONBLOCK)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoPermission) }
    }

    deinit { close(descriptor) }

    /// Reads until at least `count` lines arrived, or the timeout passed.
    func read(atLeast count: Int, timeout: TimeInterval) -> [String] {
        var lines: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while lines.count < count, Date() < deadline {
            lines += readAvailable(waitMilliseconds: 200)
        }
        return lines
    }

    /// Reads until nothing more comes for half a second.
    func drain() -> [String] {
        var lines: [String] = []
        while true {
            let more = readAvailable(waitMilliseconds: 500)
            if more.isEmpty && partial.isEmpty { return lines }
            if more.isEmpty { return lines }
            lines += more
        }
    }

    private func readAvailable(waitMilliseconds: Int32) -> [String] {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, waitMilliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return [] }
        partial.append(contentsOf: buffer[0..<count])
        var lines: [String] = []
        while let newline = partial.firstIndex(of: 0x0A) {
            lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial.removeSubrange(partial.startIndex...newline)
        }
        return lines
    }
}
