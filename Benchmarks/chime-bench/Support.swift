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

/// The repository, found from this file; the instant the delivery and ingest benchmarks
/// fire at.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let benchNow = Instant(rfc3339: "2026-11-21T09:00:00Z")!

/// Stores `count` one-shot requests in a new SQLite store at `path`: the first `due` fire
/// at or before `now`, the others spread over the following year; recipients in turn.
func fillStore(path: String, count: Int, due: Int, recipients: [String], now: Instant) throws {
    let store = try SQLiteStore(path: path)
    var batch: [PendingNotification] = []
    for n in 0..<count {
        let fires = n < due ? now + Int64(-(n % 3600)) : now + Int64(60 + (n * 31) % 31_536_000)
        let request = NotificationRequest(
            identifier: "req-\(n)", recipient: recipients[n % recipients.count],
            content: NotificationContent(title: "Reminder \(n)", body: "Water the plants, item \(n).", categoryIdentifier: "reminder"),
            trigger: .timeInterval(seconds: Double(fires.seconds - now.seconds + 3600), repeats: false))
        batch.append(PendingNotification(request: request, added: now + -3600, nextFire: fires, anchor: now + -3600, zone: "UTC", generation: "g\(n)"))
        if batch.count == 20_000 {
            try store.upsert(batch)
            batch.removeAll(keepingCapacity: true)
        }
    }
    try store.upsert(batch)
}

/// Runs a program in `directory`; returns wall seconds, CPU seconds (user and system,
/// all threads), peak resident memory in MiB (wait4's ru_maxrss) and what it printed
/// (stdout and stderr).
/// One run of a program: its wall and CPU time, its peak memory, what it printed.
typealias Measured = (seconds: Double, cpuSeconds: Double, peakMiB: Double, output: String)

func measure(_ executable: String, _ arguments: [String], in directory: URL) -> Measured {
    let outputPath = directory.appendingPathComponent("out.txt").path
    let start = DispatchTime.now().uptimeNanoseconds
    let pid = spawn(executable, arguments, in: directory, output: outputPath)
    var status: Int32 = 0
    var usage = rusage()
    wait4(pid, &status, 0, &usage)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    return (seconds, cpuSeconds(usage), Double(usage.ru_maxrss) / 1024, output.trimmingCharacters(in: .whitespacesAndNewlines))
}

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
