import ChimeCore
import Foundation

/// `chime ingest --maildir` over `count` replies, one to each of `count` reminders sent
/// to 100 recipients: every reply is checked (token, sender), read (quote stripped),
/// matched, recorded, carried out and answered in its thread. The baseline, in the same
/// run: Python's standard email parser reading the same Maildir and taking each reply's
/// first line, which does none of the rest.
func ingestBenchmark(count: Int) throws {
    let chime = chimeExecutable()
    setenv("CHIME_TEMPLATES", repositoryRoot.appendingPathComponent("templates").path, 1)
    let recipients = (0..<100).map { ("user\($0)", "mail", "user\($0)@example.org") }
    let folder = try makeWorkspace(
        channels: #"<channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>"#,
        recipients: recipients)
    defer { try? FileManager.default.removeItem(at: folder) }
    try fillStore(path: folder.appendingPathComponent("chime.sqlite").path, count: count, due: count, recipients: recipients.map(\.0), now: benchNow)
    let fired = measure(chime, ["run", "--now", benchNow.description], in: folder)
    guard fired.output == "fired \(count)" else {
        print("chime run said: \(fired.output.prefix(500))")
        exit(1)
    }

    // One reply per email, top-posted above the quoted reminder as mail clients write
    // them: half choose the action by its number, half snooze for an hour.
    let outbox = folder.appendingPathComponent("outbox/new")
    let replies = folder.appendingPathComponent("replies")
    for sub in ["new", "cur", "tmp"] {
        try FileManager.default.createDirectory(at: replies.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    for (index, name) in try FileManager.default.contentsOfDirectory(atPath: outbox.path).sorted().enumerated() {
        let sent = try String(contentsOf: outbox.appendingPathComponent(name), encoding: .utf8).replacingOccurrences(of: "\r\n", with: "\n")
        let head = sent.components(separatedBy: "\n\n")[0].replacingOccurrences(of: "\n ", with: " ").replacingOccurrences(of: "\n\t", with: " ")
        func header(_ name: String) -> String {
            head.split(separator: "\n").first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) } ?? ""
        }
        let messageID = header("Message-ID")
        let token = messageID.dropFirst().prefix { $0 != "@" }
        let reply = [
            "From: \(header("To")) <\(header("To"))>", "To: bot+\(token)@reply.example.org", "Subject: Re: \(header("Subject"))",
            "Message-ID: <reply-\(index)@example.org>", "In-Reply-To: \(messageID)", "References: \(messageID)",
            "Date: Sat, 21 Nov 2026 10:00:00 +0100", "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "",
            index % 2 == 0 ? "1" : "snooze 1h", "", "Sent from my iPhone", "",
            "On Sat, Nov 21, 2026 at 10:00 AM Chime <bot@reply.example.org> wrote:",
            "> Reply above this line to answer.", ">", "> \(header("Subject"))", ">", "> Water the plants.", ">", "> Reply 1 for Done", "",
        ].joined(separator: "\r\n")
        try Data(reply.utf8).write(to: replies.appendingPathComponent("new/\(index).bench:2,"))
    }

    let script = """
        import email, email.policy, os, sys
        folder = sys.argv[1]
        n = 0
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as f:
                message = email.message_from_binary_file(f, policy=email.policy.default)
            body = message.get_body(("plain",))
            first = next((line.strip() for line in body.get_content().splitlines() if line.strip()), "")
            n += 1 if first else 0
        print(n)
        """
    let python = measure("/usr/bin/python3", ["-c", script, replies.appendingPathComponent("new").path], in: folder)
    guard python.output == "\(count)" else {
        print("the Python baseline said: \(python.output.prefix(500))")
        exit(1)
    }
    // CHIME_BENCH_KEEP=FOLDER keeps a copy of the workspace as it is before the ingest,
    // for profiling `chime ingest` alone (run it there with the same arguments).
    if let keep = ProcessInfo.processInfo.environment["CHIME_BENCH_KEEP"] {
        try? FileManager.default.removeItem(atPath: keep)
        try FileManager.default.copyItem(at: folder, to: URL(fileURLWithPath: keep))
    }
    let ingest = measure(chime, ["ingest", "--maildir", "replies", "--now", (benchNow + 60).description], in: folder)
    let lines = ingest.output.split(separator: "\n")
    let responded = lines.filter { $0.contains(": responded: ") }.count
    guard responded == count else {
        print("chime ingest responded to \(responded) of \(count): \(lines.filter { !$0.contains(": responded: ") }.prefix(5))")
        exit(1)
    }
    let answers = try FileManager.default.contentsOfDirectory(atPath: outbox.path).count - count
    print("")
    print("chime ingest --maildir: \(count) replies to \(count) reminders of 100 recipients (\(ProcessInfo.processInfo.activeProcessorCount) cores)")
    print(String(format: "  chime ingest                 %6.2f s  %7.0f replies/s (target >= 3000)  peak %6.1f MiB  CPU %5.0f µs/reply",
                 ingest.seconds, Double(count) / ingest.seconds, ingest.peakMiB, ingest.cpuSeconds / Double(count) * 1e6))
    print(String(format: "  baseline: Python email parse %6.2f s  %7.0f replies/s  peak %6.1f MiB   ratio %.2f×",
                 python.seconds, Double(count) / python.seconds, python.peakMiB, python.seconds / ingest.seconds))
    print("  each reply recorded and carried out (\(count / 2) actions, \(count - count / 2) snoozes), \(answers) answers written in the threads")
}
