import CChimeCurl
import ChimeCore
import ChimeCurl
import ChimeLocalization
import ChimeMIME
import ChimeRendering
import ChimeTestSupport
import Foundation


/// `count` due notifications through the release `chime run`, end to end (claim, render,
/// queue, send, mark), against baselines measured in the same run: a bare libcurl loop
/// and Python's smtplib, each over one connection, sending the same messages rendered
/// beforehand. CPU per message is printed for each.
///
/// `options`: `--latency MS` sends to an aiosmtpd server that answers each command after
/// MS milliseconds (a relay far away) and counts what it accepts, instead of Postfix's
/// smtp-sink; `--concurrency C` is the channel's concurrency (default 1 against
/// smtp-sink, 16 with a latency); `--busy` keeps one core busy with another process for
/// the whole run.
func smtpBenchmark(count: Int, options: [String]) throws {
    var latency: Int?
    var concurrency: Int?
    var busy = false
    var iterator = options.makeIterator()
    while let option = iterator.next() {
        switch option {
        case "--latency": latency = Int(iterator.next() ?? "")
        case "--concurrency": concurrency = Int(iterator.next() ?? "")
        case "--busy": busy = true
        default:
            print("usage: chime-bench --smtp N [--latency MS] [--concurrency C] [--busy]")
            exit(64)
        }
    }
    let connections = concurrency ?? (latency == nil ? 1 : 16)
    let burner = busy ? BusyCore() : nil
    defer { burner?.stop() }
    let load = loadAverage()

    let chime = chimeExecutable()
    let sink: SMTPSink? = latency == nil ? try SMTPSink(keep: false) : nil
    let slow: LatencySMTPServer? = try latency.map { try LatencySMTPServer(latency: $0) }
    let port = sink?.port ?? slow!.port
    let recipients = (0..<100).map { ("user\($0)", "mail", "user\($0)@example.org") }
    let folder = try makeWorkspace(
        channels: #"<channel id="mail" url="smtp://127.0.0.1:\#(port)" from="Reminders &lt;bot@example.org&gt;" concurrency="\#(connections)"/>"#,
        recipients: recipients)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("filling the store: \(count) due …")
    try fillStore(path: folder.appendingPathComponent("chime.sqlite").path, count: count, due: count, recipients: recipients.map(\.0), now: benchNow)
    setenv("CHIME_TEMPLATES", repositoryRoot.appendingPathComponent("templates").path, 1)
    // CHIME_BENCH_KEEP=FOLDER keeps a copy of the workspace as it is before the run, for
    // profiling `chime run --now <the printed instant>` alone against a server of one's own.
    if let keep = ProcessInfo.processInfo.environment["CHIME_BENCH_KEEP"] {
        try? FileManager.default.removeItem(atPath: keep)
        try FileManager.default.copyItem(at: folder, to: URL(fileURLWithPath: keep))
        print("workspace kept: \(keep) (chime run --now \(benchNow.description); its channel names port \(port))")
    }
    let run = measure(chime, ["run", "--now", benchNow.description], in: folder)
    guard run.output == "fired \(count), delivered \(count)" else {
        print("chime run said: \(run.output.prefix(500))")
        exit(1)
    }
    let accepted = try slow?.accepted()

    // The same messages, rendered beforehand, for the baselines; one connection each is
    // slow with a latency, so they send fewer then.
    let baselineCount = latency == nil ? count : min(count, max(20, 4_000 / max(1, latency!)))
    let messages = try renderedEmails(count: baselineCount, port: port)
    let bare = try bareCurlLoop(messages, port: port)
    let python = try smtplibLoop(messages, port: port, folder: folder)

    let rate = Double(count) / run.seconds
    let cpu = run.cpuSeconds / Double(count) * 1e6
    let bareRate = Double(baselineCount) / bare.seconds
    let bareCPU = bare.cpuSeconds / Double(baselineCount) * 1e6
    let pythonRate = Double(baselineCount) / python.seconds
    let pythonCPU = python.cpuSeconds / Double(baselineCount) * 1e6
    let server = latency.map { "an aiosmtpd server answering each command after \($0) ms" } ?? "Postfix's smtp-sink"
    print("")
    print("\(count) due notifications to \(server), chime at concurrency \(connections)")
    print(String(format: "  load: %d cores, load average %@ before the run, %@", ProcessInfo.processInfo.activeProcessorCount, load,
                 busy ? "one core kept busy by another process" : "no extra load"))
    print(String(format: "  chime run, end to end (claim, render, queue, send, mark)  %7.2f s  %7.0f messages/s  peak %.1f MiB  CPU %.0f µs/message",
                 run.seconds, rate, run.peakMiB, cpu))
    if let accepted {
        print("  the server accepted \(accepted.total) messages, \(accepted.distinct) distinct Message-IDs (of \(count))")
        if accepted.total != count || accepted.distinct != count { print("  MISMATCH: every message should be accepted once") }
    }
    print(String(format: "  baseline: bare libcurl loop, one connection, %5d messages rendered beforehand  %7.2f s  %7.0f messages/s  CPU %.0f µs/message",
                 baselineCount, bare.seconds, bareRate, bareCPU))
    print(String(format: "  baseline: Python smtplib, one connection,    %5d messages rendered beforehand  %7.2f s  %7.0f messages/s  CPU %.0f µs/message",
                 baselineCount, python.seconds, pythonRate, pythonCPU))
    print(String(format: "  chime's throughput: %.2f× the bare libcurl loop, %.2f× smtplib%@", rate / bareRate, rate / pythonRate,
                 latency == nil ? " (target >= 1.0× smtplib)" : " (target >= 8× smtplib at concurrency 16)"))
    print(String(format: "  chime's CPU per message (everything: claim, render, queue, send, mark): %.2f× the bare libcurl loop's (target <= 1.5×), %.2f× smtplib's",
                 cpu / bareCPU, cpu / pythonCPU))
}

/// Another process keeping one core busy (`--busy`), as on a server doing other work.
private final class BusyCore {
    private let process = Process()

    init() {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "while :; do :; done"]
        try? process.run()
        usleep(100_000)
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// An SMTP server (Debian's python3-aiosmtpd) on 127.0.0.1 that waits `latency`
/// milliseconds before each reply (the greeting, EHLO, MAIL, RCPT, DATA, the end of the
/// data): a relay far away. It writes the Message-ID of each message it accepts to a log.
private final class LatencySMTPServer {
    let port: Int
    private let process = Process()
    private let log: URL
    private let input = Pipe()

    private static let script = """
        import asyncio, socket, sys
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import SMTP
        delay = float(sys.argv[1]) / 1000
        log = open(sys.argv[2], "a", buffering=1)

        class SlowSMTP(SMTP):
            async def push(self, status):
                # A reply's last line waits; the lines of a multi-line reply before it do not.
                if len(status) < 4 or status[3] != "-":
                    await asyncio.sleep(delay)
                await super().push(status)

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                found = b""
                for line in envelope.original_content.split(b"\\r\\n"):
                    if not line:
                        break
                    if line[:11].lower() == b"message-id:":
                        found = line[11:].strip()
                        break
                log.write(found.decode() + "\\n")
                return "250 OK: queued"

        class SlowController(Controller):
            def factory(self):
                return SlowSMTP(self.handler, **self.SMTP_kwargs)

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        controller = SlowController(Handler(), hostname="127.0.0.1", port=port, ready_timeout=10)
        controller.start()
        print(f"port {port}", flush=True)
        try:
            sys.stdin.read()
        finally:
            controller.stop()
        """

    init(latency: Int) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("chime-latency-\(UUID().uuidString).log")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, "\(latency)", log.path]
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("port "), let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            print("the aiosmtpd server did not start (is python3-aiosmtpd installed?): \(line)")
            exit(69)
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    /// The messages accepted so far, and how many distinct Message-IDs they carry; the log
    /// starts over.
    func accepted() throws -> (total: Int, distinct: Int) {
        let ids = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
        try? FileManager.default.removeItem(at: log)
        return (ids.count, Set(ids).count)
    }
}

/// Emails as `chime run` renders them for the benchmark's requests (same templates,
/// same sizes), with their envelope recipient.
private func renderedEmails(count: Int, port: Int) throws -> [(to: String, bytes: [UInt8])] {
    let templates = repositoryRoot.appendingPathComponent("templates").path
    let composer = EmailComposer(localizer: try Localizer(directory: templates), templates: try TemplateSet(directory: templates))
    let category = NotificationCategory(identifier: "reminder", actions: [NotificationAction(identifier: "done", title: "Done")])
    let channel = Channel(id: "mail", url: try ChannelURL(parsing: "smtp://127.0.0.1:\(port)"), from: "Reminders <bot@example.org>")
    return try (0..<count).map { n in
        let to = "user\(n % 100)@example.org"
        let outgoing = OutgoingNotification(
            request: NotificationRequest(identifier: "req-\(n)", recipient: "user\(n % 100)",
                                         content: NotificationContent(title: "Reminder \(n)", body: "Water the plants, item \(n).", categoryIdentifier: "reminder"),
                                         trigger: .timeInterval(seconds: 60, repeats: false)),
            recipient: Recipient(id: "user\(n % 100)", timeZone: "Europe/Paris"),
            address: .init(channel: "mail", value: to), channel: channel,
            fireDate: benchNow, deliveryID: "g\(n).\(benchNow.seconds)", coalesced: 0)
        return (to, SMTPClient.crlf(Array(MIMEComposer.compose(try composer.compose(outgoing, category: category)).utf8)))
    }
}

/// The upload libcurl reads from.
private final class Upload {
    var bytes: [UInt8] = []
    var offset = 0
}

/// One easy handle, one connection, every message in turn: the least libcurl can do.
/// Returns the seconds of its sending loop and the CPU seconds of this thread meanwhile.
private func bareCurlLoop(_ messages: [(to: String, bytes: [UInt8])], port: Int) throws -> (seconds: Double, cpuSeconds: Double) {
    if let failure = chime_curl_start() { fatalError(String(cString: failure)) }
    guard let handle = chime_curl_easy_init() else { fatalError("curl_easy_init") }
    defer { chime_curl_easy_cleanup(handle) }
    let upload = Upload()
    _ = chime_curl_setopt_string(handle, CURLOPT_URL, "smtp://127.0.0.1:\(port)")
    _ = chime_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
    _ = chime_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
    _ = chime_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<bot@example.org>")
    _ = chime_curl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(upload).toOpaque())
    _ = chime_curl_setopt_read_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let upload = Unmanaged<Upload>.fromOpaque(context).takeUnretainedValue()
        let length = min(size * count, upload.bytes.count - upload.offset)
        upload.bytes.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress! + upload.offset, byteCount: length) }
        upload.offset += length
        return length
    }
    // RUSAGE_THREAD (1): a macro Swift does not import.
    var before = rusage()
    getrusage(__rusage_who_t(1), &before)
    let start = DispatchTime.now().uptimeNanoseconds
    for message in messages {
        let list = chime_curl_slist_append(nil, "<\(message.to)>")
        defer { chime_curl_slist_free_all(list) }
        _ = chime_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, list)
        upload.bytes = message.bytes
        upload.offset = 0
        _ = chime_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.bytes.count))
        guard chime_curl_easy_perform(handle) == CURLE_OK else { fatalError("the bare libcurl loop failed") }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    var after = rusage()
    getrusage(__rusage_who_t(1), &after)
    return (seconds, cpuSeconds(after) - cpuSeconds(before))
}

/// Python's smtplib over one connection; returns the seconds of its sending loop and the
/// CPU seconds of the process meanwhile.
private func smtplibLoop(_ messages: [(to: String, bytes: [UInt8])], port: Int, folder: URL) throws -> (seconds: Double, cpuSeconds: Double) {
    let data = folder.appendingPathComponent("messages.bin")
    var blob: [UInt8] = []
    for message in messages { blob += Array(message.to.utf8) + [0] + message.bytes + [0] }
    try Data(blob).write(to: data)
    let script = """
        import smtplib, sys, time
        parts = open(sys.argv[1], "rb").read().split(b"\\0")[:-1]
        pairs = [(parts[i].decode(), parts[i + 1]) for i in range(0, len(parts), 2)]
        server = smtplib.SMTP("127.0.0.1", int(sys.argv[2]))
        server.ehlo()
        start, cpu = time.perf_counter(), time.process_time()
        for to, message in pairs:
            server.sendmail("bot@example.org", [to], message)
        print(time.perf_counter() - start, time.process_time() - cpu)
        server.quit()
        """
    let result = measure("/usr/bin/python3", ["-c", script, data.path, "\(port)"], in: folder)
    let figures = result.output.split(separator: " ").compactMap { Double($0) }
    guard figures.count == 2 else { fatalError("smtplib: \(result.output)") }
    return (figures[0], figures[1])
}

/// `count` webhooks through `chime run` to the test suite's HTTP server, which answers
/// each after 10 ms (standing for a platform's own time to answer): once with the
/// channel's concurrency at 16, once at 1 (sequential), in the same run.
func webhookBenchmark(count: Int) throws {
    let chime = chimeExecutable()
    let server = try WebhookServer()
    let port = server.port
    setenv("CHIME_TEMPLATES", repositoryRoot.appendingPathComponent("templates").path, 1)
    func run(concurrency: Int, latency: String) throws -> Double {
        let folder = try makeWorkspace(
            channels: #"<channel id="hook" url="json://127.0.0.1:\#(port)/slow/\#(latency)" concurrency="\#(concurrency)"/>"#,
            recipients: [("u", "hook", "")])
        defer { try? FileManager.default.removeItem(at: folder) }
        try fillStore(path: folder.appendingPathComponent("chime.sqlite").path, count: count, due: count, recipients: ["u"], now: benchNow)
        let result = measure(chime, ["run", "--now", benchNow.description], in: folder)
        guard result.output == "fired \(count), delivered \(count)" else {
            print("chime run said: \(result.output.prefix(500))")
            exit(1)
        }
        return result.seconds
    }
    print("")
    print("\(count) webhooks through chime run to a local HTTP server (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
    for latency in ["0.01", "0"] {
        let sequential = try run(concurrency: 1, latency: latency)
        let parallel = try run(concurrency: 16, latency: latency)
        print(String(format: "  server answers after %@ ms: concurrency 16 %6.2f s %7.0f requests/s; sequential %6.2f s %7.0f requests/s; %.1f×%@",
                     latency == "0" ? "0" : "10", parallel, Double(count) / parallel, sequential, Double(count) / sequential, sequential / parallel,
                     latency == "0" ? "" : " (target >= 5)"))
    }
}
