import ChimeCore
import ChimeSQLite
import Foundation

/// The release `chime` beside this benchmark, or exit 69 saying how to build it.
func chimeExecutable() -> String {
    let path = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("chime").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        print("build chime first: swift build -c release (looked for \(path))")
        exit(69)
    }
    return path
}

/// How fast this machine is at the moment, as fixed pieces of work timed in this process:
/// 200 million steps of integer arithmetic, each depending on the last, and 8 million
/// reads, each depending on the last, at random over 4 MiB (what a cache shared with the
/// machine's neighbours may keep) and over 64 MiB (memory; a B-tree's descents are such
/// reads). The same binary's figures move by a factor of three between hours on a shared
/// machine (the 10,000 due took 0.37 s one day and 1.34 s another), with memory's
/// latency more than with the arithmetic; printed beside them, figures from different runs
/// can be told apart from the machine's speed.
func machineReference() -> String {
    func milliseconds(since start: UInt64) -> String {
        String(format: "%.0f ms", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    var x: UInt64 = 0x9E37_79B9_7F4A_7C15
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<200_000_000 {
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
    }
    var figures = ["200 M integer steps \(milliseconds(since: start))"]
    var random = SplitMix(seed: x)
    var reached = 0
    for mebibytes in [4, 64] {
        // One random cycle through every slot (Sattolo's shuffle), so each read waits for the last.
        let count = mebibytes * 1_048_576 / MemoryLayout<Int>.size
        var next = [Int](0..<count)
        for i in stride(from: count - 1, to: 0, by: -1) {
            next.swapAt(i, Int(random.next() % UInt64(i)))
        }
        var at = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<8_388_608 { at = next[at] }
        figures.append("8 M dependent reads over \(mebibytes) MiB \(milliseconds(since: start))")
        reached += at
    }
    // Both results used, so that no loop can be left out (xorshift never reaches 0 from
    // another value; a slot is never negative): nothing is ever printed here.
    if x == 0 || reached < 0 { print("") }
    return "machine reference (this process, now): " + figures.joined(separator: ", ")
}

/// The repository, found from this file; the instant the delivery and ingest benchmarks
/// fire at.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let benchNow = Instant(rfc3339: "2026-11-21T09:00:00Z")!

/// Stores `count` one-shot requests in a new SQLite store at `path`: the first `due` fire
/// at or before `now`, the others spread over the following year; recipients in turn.
/// Each has a random generation, as `chime schedule` gives it: delivery ids made of
/// `g0`, `g1`… came out in firing order, so the indexes keyed by them took each run's new
/// entries on a few pages, where real ones scatter them (sending 5,000 emails with a core
/// busy, 10 % more CPU with random ones, 8 alternating runs).
func fillStore(path: String, count: Int, due: Int, recipients: [String], now: Instant) throws {
    let store = try SQLiteStore(path: path)
    var batch: [PendingNotification] = []
    for n in 0..<count {
        let fires = n < due ? now + Int64(-(n % 3600)) : now + Int64(60 + (n * 31) % 31_536_000)
        let request = NotificationRequest(
            identifier: "req-\(n)", recipient: recipients[n % recipients.count],
            content: NotificationContent(title: "Reminder \(n)", body: "Water the plants, item \(n).", categoryIdentifier: "reminder"),
            trigger: .timeInterval(seconds: Double(fires.seconds - now.seconds + 3600), repeats: false))
        batch.append(PendingNotification(request: request, added: now + -3600, nextFire: fires, anchor: now + -3600, zone: "UTC",
                                         generation: UUID().uuidString.lowercased()))
        if batch.count == 20_000 {
            try store.upsert(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }
    try store.upsert(batch)
}

/// One run of a program: its wall and CPU time (user and system, all threads), its peak
/// resident memory, what it printed (stdout and stderr).
typealias Measured = (seconds: Double, cpuSeconds: Double, peakMiB: Double, output: String)

/// Runs a program in `directory` and measures it (``Measured``).
///
/// Started by a small Python process rather than by this one: Linux gives a process the
/// peak memory of the one that started it (at `exec`, the old image's high-water mark is
/// kept), so a program started from this benchmark, which holds the store it filled,
/// would be reported at this benchmark's size (`chime --version` at 80 MiB rather than 31).
/// The wall time is taken in that process, around starting and waiting for the program.
func measure(_ executable: String, _ arguments: [String], in directory: URL) -> Measured {
    let outputPath = directory.appendingPathComponent("out.txt").path
    let reportPath = directory.appendingPathComponent("measured.txt").path
    let pid = spawn("/usr/bin/env", ["python3", "-c", measureScript, outputPath, executable] + arguments, in: directory, output: reportPath)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let report = ((try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard report.count == 3 else { fatalError("could not measure \(executable): \((try? String(contentsOfFile: reportPath, encoding: .utf8)) ?? "")") }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return (report[0], report[1], report[2] / 1024, output.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// Starts the program (argv[2…]) with its output into argv[1]; prints its wall seconds,
/// CPU seconds and peak resident KiB.
private let measureScript = """
    import os, sys, time
    out = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    start = time.perf_counter()
    pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, out, 1), (os.POSIX_SPAWN_DUP2, out, 2)])
    _, status, usage = os.wait4(pid, 0)
    print(time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
    """

/// Starts a program in `directory` (this process moves there too), its stdout and stderr
/// into the file at `output`; returns its process id.
func spawn(_ executable: String, _ arguments: [String], in directory: URL, output: String) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    chdir(directory.path)
    var pid: pid_t = 0
    guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { fatalError("cannot start \(executable)") }
    return pid
}

/// User and system CPU seconds of a `rusage`.
func cpuSeconds(_ usage: rusage) -> Double {
    func inSeconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return inSeconds(usage.ru_utime) + inSeconds(usage.ru_stime)
}

/// A folder with a `chime.xml` of these channels and recipients (`id`, channel, address),
/// and `more` (an `<api>` element…) after them.
func makeWorkspace(channels: String, recipients: [(String, String, String)], more: String = "") throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try """
        <chime version="1">
          <categories><category identifier="reminder"><action identifier="done" title="Done"/></category></categories>
          <channels>\(channels)</channels>
          <recipients>
        \(recipients.map { "    <recipient id=\"\($0.0)\" timeZone=\"Europe/Paris\"><address channel=\"\($0.1)\">\($0.2)</address></recipient>" }.joined(separator: "\n"))
          </recipients>
          \(more)
        </chime>
        """.write(to: folder.appendingPathComponent("chime.xml"), atomically: true, encoding: .utf8)
    return folder
}
