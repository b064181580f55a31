// The scheduling benchmark: `chime run` against a SQLite store holding 1,000,000 pending
// requests, 10,000 of them due, delivering into the `file:` transport; then `chime run`
// when nothing is due. It prints wall time and peak memory of each, beside a baseline
// measured in the same run: `chime --version`, the cost of starting the process at all.
//
//   swift run -c release chime-bench [--pending N] [--due N] [--repeat N] [--store postgres]
//                                                  (--store postgres: the same store copied into
//                                                   PostgreSQL too, and chime run measured there)
//   swift run -c release chime-bench --workers 1,2,4 [--store postgres|sqlite] [--due N]
//                                                  (N due, 2,000 unless given, to an SMTP server
//                                                   answering after 25 ms, through 1, 2 and 4
//                                                   chime run at once)
//   swift run -c release chime-bench --render N    (rendering: N emails, text + HTML,
//                                                   en/fr/ru, on this thread)
//   swift run -c release chime-bench --smtp N [--latency MS] [--concurrency C] [--busy]
//                                                  (delivery: N due to Postfix's smtp-sink, or
//                                                   to a server answering after MS ms)
//   swift run -c release chime-bench --webhooks N  (delivery: N webhooks, concurrency 16
//                                                   against sequential)
//   swift run -c release chime-bench --ingest N    (replies: `chime ingest --maildir` over N
//                                                   replies, against Python's email parser)
//   swift run -c release chime-bench --api N       (scheduling: N requests POSTed to `chime
//                                                   serve`, 16 in flight, against `chime
//                                                   schedule --json` of the same N)
//   swift run -c release chime-bench --adversarial BYTES [SHAPE]  (`chime ingest` on mail
//                                                   shaped to stall it, at BYTES and 4×: CPU per KB;
//                                                   SHAPE picks the shapes whose name holds it)
import ChimeCore
import ChimeLocalization
import ChimeMIME
import ChimeRendering
import ChimeSQLite
import ChimeTestSupport
import Foundation

var pendingCount = 1_000_000
var dueCount = 10_000
var repeats = 5
var storeKind = "sqlite"
var workerCounts: [Int]?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
// A benchmark other than the cron tick's, chosen by its argument; the arguments after
// its own are its options (`--smtp`) or not read.
var benchmark: (() throws -> Void)?
/// The next argument as a number, or `fallback` when it is missing or not one.
@MainActor func number(or fallback: Int) -> Int { Int(arguments.next() ?? "") ?? fallback }
reading: while let argument = arguments.next() {
    switch argument {
    case "--pending": pendingCount = number(or: pendingCount)
    case "--due": dueCount = number(or: dueCount)
    case "--repeat": repeats = number(or: repeats)
    case "--store": storeKind = arguments.next() ?? storeKind
    case "--workers": workerCounts = (arguments.next() ?? "1,2,4").split(separator: ",").compactMap { Int($0) }
    case "--render":
        let count = number(or: 100_000)
        benchmark = { try renderBenchmark(count: count) }
        break reading
    case "--smtp":
        let (count, options) = (number(or: 20_000), Array(IteratorSequence(arguments)))
        benchmark = { try smtpBenchmark(count: count, options: options) }
        break reading
    case "--ingest":
        let count = number(or: 10_000)
        benchmark = { try ingestBenchmark(count: count) }
        break reading
    case "--adversarial":
        let (size, only) = (number(or: 262_144), arguments.next())
        benchmark = { try adversarialBenchmark(size: size, only: only) }
        break reading
    case "--api":
        let count = number(or: 20_000)
        benchmark = { try apiBenchmark(count: count) }
        break reading
    case "--webhooks":
        let count = number(or: 2_000)
        benchmark = { try webhookBenchmark(count: count) }
        break reading
    default:
        print("usage: chime-bench [--pending N] [--due N] [--repeat N] [--store postgres] | --workers 1,2,4 [--store postgres|sqlite] [--due N] | --render N | --smtp N | --ingest N | --webhooks N | --api N | --adversarial BYTES")
        exit(64)
    }
}

guard benchmark != nil || storeKind == "sqlite" || storeKind == "postgres" else {
    print("--store: postgres or sqlite")
    exit(64)
}
// Once the arguments are known good: a usage error is not kept waiting for it.
print(machineReference())
if let benchmark {
    try benchmark()
    exit(0)
}
if let workerCounts {
    let given = CommandLine.arguments.contains("--due")
    try workersBenchmark(workers: workerCounts, storeKind: storeKind, due: given ? dueCount : 2_000)
    exit(0)
}

let chime = chimeExecutable()

let recipients = (0..<100).map { "user\($0)" }
let workspace = try makeWorkspace(channels: #"<channel id="log" url="file:./sent.jsonl"/>"#, recipients: recipients.map { ($0, "log", "") })
// `CHIME_BENCH_KEEP=1` keeps the workspace (its store copied before firing, as
// `chime.sqlite.before`), to profile `chime run` on it again.
let keep = ProcessInfo.processInfo.environment["CHIME_BENCH_KEEP"] == "1"
defer { if keep { print("workspace kept: \(workspace.path)") } else { try? FileManager.default.removeItem(at: workspace) } }

// The store: due requests fire at `now`, the others spread over the following year.
let now = Instant(rfc3339: "2026-11-21T09:00:00Z")!
print("filling the store: \(pendingCount) pending, \(dueCount) due …")
let fillStart = Date()
try fillStore(path: workspace.appendingPathComponent("chime.sqlite").path, count: pendingCount, due: dueCount, recipients: recipients, now: now)
print(String(format: "filled in %.1f s", Date().timeIntervalSince(fillStart)))
// With --store postgres, the same store copied into PostgreSQL (fsync on) before SQLite fires.
let postgres = storeKind == "postgres" ? try PostgresServer.durable() : nil
defer { postgres?.stop() }
let postgresStore = try postgres?.makeDatabase()
if let postgresStore {
    let copy = measure(chime, ["store", "copy", "--from", "sqlite:chime.sqlite", "--to", postgresStore], in: workspace)
    print(String(format: "copied into PostgreSQL in %.1f s: ", copy.seconds) + (copy.output.split(separator: "\n").last.map(String.init) ?? ""))
}

func measure(_ arguments: [String]) -> Measured {
    measure(chime, arguments, in: workspace)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

// Nothing due: an instant before every pending request. A tick after chime.xml changed
// loads it (the store keeps the fingerprint of the file it last loaded): each of the
// first runs follows an edit, a comment added at the end. The others find it unchanged.
// Each run is measured right after a baseline, so that both see the same machine.
let idleNow = "2026-11-21T07:00:00Z"
var baselineRuns: [Measured] = []
/// `repeats` idle ticks, each after `before` (given the round) and a baseline run.
@MainActor func idleTicks(before: ((Int) throws -> Void)? = nil) throws -> [Measured] {
    var runs: [Measured] = []
    for round in 0..<repeats {
        try before?(round)
        baselineRuns.append(measure(["--version"]))
        runs.append(measure(["run", "--now", idleNow]))
    }
    return runs
}
let configurationFile = workspace.appendingPathComponent("chime.xml")
let editedRuns = try idleTicks { round in
    let edit = try FileHandle(forWritingTo: configurationFile)
    edit.seekToEndOfFile()
    edit.write(Data("<!-- edit \(round) -->\n".utf8))
    try edit.close()
}
let idleRuns = try idleTicks()
let baseline = median(baselineRuns.map(\.seconds))
let baselineMemory = median(baselineRuns.map(\.peakMiB))
let idle = median(idleRuns.map(\.seconds))

// The store as it is before firing, put back before each repeat of the 10,000-due run
// (which fires them all). Every copy is written out to disk (`sync`) before a run, so
// that its write-back does not land in the run measured.
let store = workspace.appendingPathComponent("chime.sqlite"), before = workspace.appendingPathComponent("chime.sqlite.before")
try FileManager.default.copyItem(at: store, to: before)
func restoreStore() throws {
    for name in ["chime.sqlite", "chime.sqlite-wal", "chime.sqlite-shm", "sent.jsonl"] {
        try? FileManager.default.removeItem(at: workspace.appendingPathComponent(name))
    }
    try FileManager.default.copyItem(at: before, to: store)
}
let fireRepeats = max(1, min(repeats, 5))
var fireRuns: [Measured] = []
for round in 0..<fireRepeats {
    if round > 0 { try restoreStore() }
    sync()
    fireRuns.append(measure(["run", "--now", now.description]))
}
let fire = fireRuns.sorted { $0.seconds < $1.seconds }[fireRuns.count / 2]
let sent = (try? String(contentsOf: workspace.appendingPathComponent("sent.jsonl"), encoding: .utf8))?.split(separator: "\n").count ?? 0
if !keep { try? FileManager.default.removeItem(at: before) }

print("")
print("chime run on \(pendingCount) pending requests in SQLite, into the file: transport (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
print(String(format: "  baseline  chime --version         %7.1f ms   peak %6.1f MiB   (median of %d)", baseline * 1000, baselineMemory, baselineRuns.count))
print(String(format: "  nothing due  chime run            %7.1f ms   peak %6.1f MiB   %.2f× baseline (median of %d; target ≤ 1.3×)",
             idle * 1000, median(idleRuns.map(\.peakMiB)), idle / baseline, repeats))
print(String(format: "  the same, chime.xml just edited   %7.1f ms   peak %6.1f MiB   %.2f× baseline (median of %d: loads the file)",
             median(editedRuns.map(\.seconds)) * 1000, median(editedRuns.map(\.peakMiB)), median(editedRuns.map(\.seconds)) / baseline, repeats))
print(String(format: "  %d due    chime run           %7.1f ms   peak %6.1f MiB   %.1f× baseline (median of %d, %.0f–%.0f ms; target ≤ 500 ms, < 150 MB)",
             dueCount, fire.seconds * 1000, fire.peakMiB, fire.seconds / baseline, fireRuns.count,
             (fireRuns.map(\.seconds).min() ?? 0) * 1000, (fireRuns.map(\.seconds).max() ?? 0) * 1000))
print(String(format: "  CPU of chime (all threads)         %7.1f ms", fire.cpuSeconds * 1000) + "; load average \(loadAverage())")
print(String(format: "  per notification                   %7.1f µs", fire.seconds / Double(max(dueCount, 1)) * 1e6))
print("  chime said: \(fire.output); lines written: \(sent)")
if sent != dueCount {
    print("  MISMATCH: expected \(dueCount) lines")
    exit(1)
}
if let postgresStore {
    try FileManager.default.removeItem(at: workspace.appendingPathComponent("sent.jsonl"))
    let postgresIdle = (0..<repeats).map { _ in measure(["run", "--store", postgresStore, "--now", idleNow]) }
    let postgresFire = measure(["run", "--store", postgresStore, "--now", now.description])
    let postgresSent = (try? String(contentsOf: workspace.appendingPathComponent("sent.jsonl"), encoding: .utf8))?.split(separator: "\n").count ?? 0
    print("")
    print("the same on PostgreSQL 15 (fsync on, on this machine; load \(loadAverage()))")
    print(String(format: "  nothing due  chime run            %7.1f ms   peak %6.1f MiB   %.1f× baseline (median of %d)",
                 median(postgresIdle.map(\.seconds)) * 1000, median(postgresIdle.map(\.peakMiB)), median(postgresIdle.map(\.seconds)) / baseline, repeats))
    print(String(format: "  %d due    chime run           %7.1f ms   peak %6.1f MiB   %.1f× baseline (target < 2 s); SQLite %.1f ms",
                 dueCount, postgresFire.seconds * 1000, postgresFire.peakMiB, postgresFire.seconds / baseline, fire.seconds * 1000))
    print(String(format: "  per notification                   %7.1f µs   CPU of chime %.2f s", postgresFire.seconds / Double(max(dueCount, 1)) * 1e6, postgresFire.cpuSeconds))
    print("  chime said: \(postgresFire.output); lines written: \(postgresSent)")
    if postgresSent != dueCount {
        print("  MISMATCH: expected \(dueCount) lines")
        exit(1)
    }
}

/// Renders `count` emails (text and HTML, MIME through GMime) in three locales on one
/// thread; the baseline, in the same run, renders a tenth as many with every template
/// rendered by swift-mustache for each message (no compiled shapes).
func renderBenchmark(count: Int) throws {
    let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("templates").path
    let localizer = try Localizer(directory: templates)
    let composer = EmailComposer(localizer: localizer, templates: try TemplateSet(directory: templates))
    var direct = try TemplateSet(directory: templates)
    direct.compilesShapes = false
    let baselineComposer = EmailComposer(localizer: localizer, templates: direct)
    let category = NotificationCategory(
        identifier: "shoppingListReminderCategory",
        actions: [NotificationAction(identifier: "justInform", title: "OK, got it"),
                  NotificationAction(identifier: "editList", title: "Edit list", options: [.foreground]),
                  NotificationAction(identifier: "trashAction", title: "Delete list", options: [.destructive])],
        hiddenPreviewsBodyPlaceholder: "shopping.placeholder")
    let channel = Channel(id: "mail", url: try ChannelURL(parsing: "smtp://127.0.0.1"), from: "Reminders <bot@example.org>", replyTo: "bot+{token}@example.org")
    func notification(_ n: Int) -> OutgoingNotification {
        OutgoingNotification(
            request: NotificationRequest(identifier: "r\(n)", recipient: "u", content: NotificationContent(title: "Reminder \(n)", body: "Water the plants, item \(n).", categoryIdentifier: category.identifier, threadIdentifier: "t\(n % 50)"),
                                         trigger: .timeInterval(seconds: 60, repeats: false)),
            recipient: Recipient(id: "u", locale: ["en", "fr", "ru"][n % 3], timeZone: "Europe/Paris"),
            address: .init(channel: "mail", value: "u@example.org"), channel: channel,
            fireDate: Instant(seconds: 1_795_507_200 + Int64(n)), deliveryID: "d\(n)", coalesced: 0)
    }
    func render(_ composer: EmailComposer, _ count: Int) throws -> (seconds: Double, bytes: Int) {
        let start = DispatchTime.now().uptimeNanoseconds
        var bytes = 0
        for n in 0..<count {
            bytes += MIMEComposer.compose(try composer.compose(notification(n), category: category)).utf8.count
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, bytes)
    }
    let baselineCount = max(count / 10, 1)
    let baseline = try render(baselineComposer, baselineCount)
    let measured = try render(composer, count)
    let rate = Double(count) / measured.seconds
    let baselineRate = Double(baselineCount) / baseline.seconds
    print(String(format: "rendered %d emails (text + HTML, en/fr/ru) in %.2f s on one thread: %.0f per second (target >= 20,000); %.1f MB out",
                 count, measured.seconds, rate, Double(measured.bytes) / 1e6))
    print(String(format: "baseline, every template rendered by swift-mustache for each message: %d in %.2f s, %.0f per second; ratio %.1fx",
                 baselineCount, baseline.seconds, baselineRate, rate / baselineRate))

    // The generic JSON message a file: line or a json:// webhook carries.
    let hook = Channel(id: "hook", url: try ChannelURL(parsing: "file:/dev/null"))
    let renderer = TemplateRenderer(composer: composer, configuration: Configuration(categories: [category], channels: [hook]))
    let start = DispatchTime.now().uptimeNanoseconds
    var payloadBytes = 0
    for n in 0..<count {
        var outgoing = notification(n)
        outgoing.channel = hook
        payloadBytes += try renderer.payload(outgoing).count
    }
    let payloadSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(String(format: "rendered %d generic JSON payloads in %.2f s: %.0f per second (%.1f µs each); %.1f MB out",
                 count, payloadSeconds, Double(count) / payloadSeconds, payloadSeconds / Double(count) * 1e6, Double(payloadBytes) / 1e6))
}
