import CChimeCurl
import ChimeCore
import ChimeCurl
import ChimeLocalization
import ChimeMIME
import ChimeRendering
import ChimeTestSupport
import Foundation


/// `count` due notifications to Postfix's smtp-sink through the release `chime run`, end
/// to end (claim, render, queue, send, mark), against two baselines measured in the same
/// run over one connection each: a bare libcurl loop and Python's smtplib sending the
/// same messages, already rendered.
func smtpBenchmark(count: Int) throws {
    let chime = chimeExecutable()
    let sink = try SMTPSink(keep: false)
    let port = sink.port
    let recipients = (0..<100).map { ("user\($0)", "mail", "user\($0)@example.org") }
    let folder = try makeWorkspace(
        channels: #"<channel id="mail" url="smtp://127.0.0.1:\#(port)" from="Reminders &lt;bot@example.org&gt;"/>"#,
        recipients: recipients)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("filling the store: \(count) due …")
    try fillStore(path: folder.appendingPathComponent("chime.sqlite").path, count: count, due: count, recipients: recipients.map(\.0), now: benchNow)
    setenv("CHIME_TEMPLATES", repositoryRoot.appendingPathComponent("templates").path, 1)
    let run = measure(chime, ["run", "--now", benchNow.description], in: folder)
    guard run.output == "fired \(count), delivered \(count)" else {
        print("chime run said: \(run.output.prefix(500))")
        exit(1)
    }

    // The same messages, rendered beforehand, for the baselines.
    let messages = try renderedEmails(count: count, port: port)
    let bare = try bareCurlLoop(messages, port: port)
    let python = try smtplibLoop(messages, port: port, folder: folder)

    let rate = Double(count) / run.seconds
    let bareRate = Double(count) / bare
    let pythonRate = Double(count) / python
    print("")
    print("\(count) due notifications to smtp-sink over one connection (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
    print(String(format: "  chime run, end to end (claim, render, queue, send, mark)  %7.2f s  %7.0f messages/s  peak %.1f MiB  CPU %.0f µs/message",
                 run.seconds, rate, run.peakMiB, run.cpuSeconds / Double(count) * 1e6))
    print(String(format: "  baseline: bare libcurl loop, messages rendered beforehand %7.2f s  %7.0f messages/s  chime is %.2f× (target >= 0.7)",
                 bare, bareRate, rate / bareRate))
    print(String(format: "  baseline: Python smtplib, messages rendered beforehand    %7.2f s  %7.0f messages/s  chime is %.2f× (target >= 1.0)",
                 python, pythonRate, rate / pythonRate))
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
private func bareCurlLoop(_ messages: [(to: String, bytes: [UInt8])], port: Int) throws -> Double {
    curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    guard let handle = curl_easy_init() else { fatalError("curl_easy_init") }
    defer { curl_easy_cleanup(handle) }
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
    let start = DispatchTime.now().uptimeNanoseconds
    for message in messages {
        let list = curl_slist_append(nil, "<\(message.to)>")
        defer { curl_slist_free_all(list) }
        _ = chime_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, list)
        upload.bytes = message.bytes
        upload.offset = 0
        _ = chime_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.bytes.count))
        guard curl_easy_perform(handle) == CURLE_OK else { fatalError("the bare libcurl loop failed") }
    }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Python's smtplib over one connection; returns the seconds of its sending loop.
private func smtplibLoop(_ messages: [(to: String, bytes: [UInt8])], port: Int, folder: URL) throws -> Double {
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
        start = time.perf_counter()
        for to, message in pairs:
            server.sendmail("bot@example.org", [to], message)
        print(time.perf_counter() - start)
        server.quit()
        """
    let result = measure("/usr/bin/python3", ["-c", script, data.path, "\(port)"], in: folder)
    guard let seconds = Double(result.output) else { fatalError("smtplib: \(result.output)") }
    return seconds
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
