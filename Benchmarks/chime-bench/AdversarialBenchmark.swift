import ChimeCore
import Foundation

/// `chime ingest` on the shapes of inbound mail an attacker would send to stall it, each
/// at `size` and at four times that: the CPU per KB at both sizes, net of a one-line
/// reply's run (the process and store start-up), and their ratio. Linear time shows as a
/// ratio near 1; time growing with the square of the size, as near 4.
func adversarialBenchmark(size: Int, only filter: String? = nil) throws {
    let chime = chimeExecutable()
    setenv("CHIME_TEMPLATES", repositoryRoot.appendingPathComponent("templates").path, 1)
    let folder = try makeWorkspace(
        channels: #"<channel id="mail" url="maildir:./outbox" from="Chime &lt;bot@reply.example.org&gt;" replyTo="bot+{token}@reply.example.org"/>"#,
        recipients: [("alice", "mail", "alice@example.org")])
    defer { try? FileManager.default.removeItem(at: folder) }
    // A text-input action, so that any text a reply carries is read to its end.
    let configuration = try String(contentsOf: folder.appendingPathComponent("chime.xml"), encoding: .utf8)
        .replacingOccurrences(of: #"<action identifier="done" title="Done"/>"#,
                              with: #"<action identifier="done" title="Done"/><textInputAction identifier="note" title="Note"/>"#)
    try configuration.write(to: folder.appendingPathComponent("chime.xml"), atomically: true, encoding: .utf8)
    try fillStore(path: folder.appendingPathComponent("chime.sqlite").path, count: 1, due: 1, recipients: ["alice"], now: benchNow)
    _ = measure(chime, ["run", "--now", benchNow.description], in: folder)
    let outbox = folder.appendingPathComponent("outbox/new")
    let sent = try String(contentsOf: outbox.appendingPathComponent(try FileManager.default.contentsOfDirectory(atPath: outbox.path)[0]), encoding: .utf8)
    guard let token = sent.firstMatch(of: /Message-ID: <([a-z2-7]+)@/)?.output.1 else {
        print("no token in the sent reminder")
        exit(1)
    }

    func reply(headers: [String] = [], contentType: String = "text/plain; charset=utf-8", body: String) -> String {
        ([
            "From: Alice <alice@example.org>", "To: bot+\(token)@reply.example.org", "Subject: Re: Reminder",
            "Message-ID: <r@example.org>", "In-Reply-To: <\(token)@reply.example.org>", "MIME-Version: 1.0", "Content-Type: \(contentType)",
        ] + headers).joined(separator: "\r\n") + "\r\n\r\n" + body
    }
    func stranger(_ header: String) -> String {
        ["From: x@evil.test", header, "Subject: hi", "", "hello"].joined(separator: "\r\n")
    }
    func fill(_ unit: String, _ size: Int) -> String { String(repeating: unit, count: max(1, size / unit.utf8.count)) }

    let shapes: [(String, (Int) -> String)] = [
        ("To: of letters, no token", { stranger("To: " + fill("a", $0)) }),
        ("To: a+letters without @", { stranger("To: a+" + fill("a", $0)) }),
        ("References: of <", { stranger("References: " + fill("<", $0)) }),
        ("References: of <letters", { stranger("References: " + fill("<aaaaaaaaaaaaaaaaaaaaaaaa", $0)) }),
        ("From: of comments", { stranger("To: y@example.org").replacingOccurrences(of: "From: x@evil.test", with: "From: " + fill("(", $0)) }),
        ("Authentication-Results: of (", { reply(headers: ["Authentication-Results: mx.example.org; " + fill("(", $0)], body: "note x") }),
        ("Authentication-Results: of \"", { reply(headers: ["Authentication-Results: mx.example.org; dkim=pass header.d=" + fill("\"a", $0)], body: "note x") }),
        ("body of blank lines", { reply(body: "note x" + fill("\r\n", $0)) }),
        ("body of lines \"a:\"", { reply(body: "note x\r\n" + fill("a:\r\n", $0)) }),
        ("body of \"> \" lines", { reply(body: "note x\r\n" + fill("> a\r\n", $0)) }),
        ("one line ending のメッセージ:", { reply(body: "note " + fill("あ", $0) + "のメッセージ:") }),
        ("one line ending 在…写道：", { reply(body: "note 在" + fill("说", $0) + "写道：") }),
        ("one line ending \"wrote:\"", { reply(body: "On " + fill("a ", $0) + " wrote:") }),
        ("punctuation before a keyword", { reply(body: fill("!", $0) + "note x") }),
        // Yandex's "… от … <addr>:" header form tried on every line ending ">:".
        ("lines of \" от\" ending >:", { reply(body: "note x\r\n" + fill(String(repeating: "a от", count: 30) + " x>:\r\n", $0)) }),
        ("lines of \" от\" ending <a@b>:", { reply(body: "note x\r\n" + fill(String(repeating: "a от", count: 100) + String(repeating: "b", count: 310) + " <a@b>:\r\n", $0)) }),
        ("HTML of &nbsp;<p></p>", { reply(contentType: "text/html; charset=utf-8", body: fill("&nbsp;<p></p>", $0)) }),
        ("HTML of nested <div>", { reply(contentType: "text/html; charset=utf-8", body: fill("<div>", $0) + "x") }),
        // Each quote left out becomes a '>' line; Gmail's containers are walked for answers.
        ("HTML of <blockquote>s", { reply(contentType: "text/html; charset=utf-8", body: "note x" + fill("<blockquote>a</blockquote>b", $0)) }),
        ("HTML of nested gmail_quote", { reply(contentType: "text/html; charset=utf-8", body: "note x" + fill(#"<div class="gmail_quote"><blockquote>a</blockquote>b"#, $0)) }),
        // Unicode normalization of a subject and of a first line (Foundation's is
        // quadratic on one long string), GMime's parameters, libxml2's attributes.
        ("Subject: of e+U+0301, no token", { stranger("To: y@example.org").replacingOccurrences(of: "Subject: hi", with: "Subject: " + fill("e\u{301}", $0)) }),
        ("first line of é", { reply(body: fill("é", $0)) }),
        ("Content-Type: of parameters", { reply(contentType: "text/plain; charset=utf-8" + (0..<max(1, $0 / 9)).map { "; p\($0)=v" }.joined(), body: "note x") }),
        ("HTML tag of attributes", { reply(contentType: "text/html; charset=utf-8", body: "<p" + (0..<max(1, $0 / 9)).map { " a\($0)=x" }.joined() + ">note x</p>") }),
        ("HTML tag of attributes run together", { reply(contentType: "text/html; charset=utf-8", body: "<p a=\"\"" + (0..<max(1, $0 / 9)).map { "a\($0)=\"\"" }.joined() + ">note x</p>") }),
        ("format=flowed of soft lines", { reply(contentType: "text/plain; charset=utf-8; format=flowed", body: "note x\r\n" + fill("a \r\n", $0)) }),
        ("HTML of script texts opening tags", { reply(contentType: "text/html; charset=utf-8", body: fill("<script><noscript a0 a1 a2 a3>", $0) + "note x") }),
        // A 'sent from' line above each run of quoted lines is asked whether it is one.
        ("body of sent-from lines over quotes", { reply(body: "note x\r\n" + fill("Sent from my iPhone\r\n> a\r\n", $0)) }),
        // A delivery report naming many made-up addresses: each was compared with every
        // configured address, for every token.
        ("bounce: made-up addresses × tokens", { size in
            let count = max(1, size / 60)
            let to = (0..<32).map { "bounce+\(String(repeating: "a", count: 40 + $0 % 7))@reply.example.org" }.joined(separator: ", ")
            let entries = (0..<count).map { "Final-Recipient: rfc822; u\($0)@example.net\r\nAction: failed\r\n\r\n" }.joined()
            return ["From: MAILER-DAEMON@mx.example.org", "To: \(to)", "Subject: Undelivered Mail", "MIME-Version: 1.0",
                    #"Content-Type: multipart/report; report-type=delivery-status; boundary="b""#, "", "--b", "Content-Type: text/plain", "",
                    "failed", "--b", "Content-Type: message/delivery-status", "", "Reporting-MTA: dns; mx.example.org", "", entries, "--b--", ""]
                .joined(separator: "\r\n")
        }),
        // A delivery report to many made-up return-path tokens, naming one address as
        // often: each token was checked against each entry.
        ("bounce: made-up tokens × entries", { size in
            let count = max(1, size / 120)
            let to = (0..<count).map { "bounce+\(String(repeating: "a", count: 40 + $0 % 7))@reply.example.org" }.joined(separator: ", ")
            let entries = String(repeating: "Final-Recipient: rfc822; alice@example.org\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n", count: count)
            return ["From: MAILER-DAEMON@mx.example.org", "To: \(to)", "Subject: Undelivered Mail", "MIME-Version: 1.0",
                    #"Content-Type: multipart/report; report-type=delivery-status; boundary="b""#, "", "--b", "Content-Type: text/plain", "",
                    "failed", "--b", "Content-Type: message/delivery-status", "", "Reporting-MTA: dns; mx.example.org", "", entries, "--b--", ""]
                .joined(separator: "\r\n")
        }),
    ]

    let maildir = folder.appendingPathComponent("in")
    for sub in ["new", "cur", "tmp"] { try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true) }
    var counter = 0
    /// CPU seconds of `chime ingest` on one message (the median of three).
    func cpu(_ message: String) throws -> Double {
        var runs: [Double] = []
        for _ in 0..<3 {
            counter += 1
            try Data(message.utf8).write(to: maildir.appendingPathComponent("new/\(counter).adv:2,"))
            runs.append(measure(chime, ["ingest", "--maildir", "in", "--now", "2026-11-21T10:00:00Z"], in: folder).cpuSeconds)
        }
        return runs.sorted()[1]
    }

    let baseline = try cpu(reply(body: "note x"))
    print("chime ingest on adversarial mail (\(ProcessInfo.processInfo.activeProcessorCount) cores, load \(loadAverage()))")
    print(String(format: "baseline: a one-line reply, %.1f ms CPU (start-up, store, answer)", baseline * 1000))
    try printCosts(shapes, size: size, baseline: baseline, only: filter, cpu: cpu)
    try adversarialConfigurations(size: size, in: folder, only: filter)
}

/// `chime check` on a `chime.xml` grown to `size` and four times that by each shape a
/// configuration can take against the schema and the reader (the configuration comes
/// from outside too: a template, a generator, a colleague): CPU per KB net of the
/// configuration as it was, as for mail.
private func adversarialConfigurations(size: Int, in folder: URL, only filter: String?) throws {
    let chime = chimeExecutable()
    let base = try String(contentsOf: folder.appendingPathComponent("chime.xml"), encoding: .utf8)
    func recipients(_ size: Int, _ line: (Int) -> String) -> String {
        var lines: [String] = [], bytes = 0
        while bytes < size { lines.append(line(lines.count)); bytes += lines.last!.utf8.count }
        return base.replacingOccurrences(of: "</recipients>", with: lines.joined() + "</recipients>")
    }
    let shapes: [(String, (Int) -> String)] = [
        ("recipients", { recipients($0) { #"<recipient id="r\#($0)" timeZone="UTC"><address channel="mail">r\#($0)@example.org</address></recipient>"# + "\n" } }),
        // A schema error each: libxml2 searched every element before it for an XInclude.
        ("recipients, each a misspelt attribute", { recipients($0) { #"<recipient id="r\#($0)" timeZone="UTC" tmeZone="UTC"/>"# + "\n" } }),
        ("recipients, each an unknown zone", { recipients($0) { #"<recipient id="r\#($0)" timeZone="Mars/Olympus"/>"# + "\n" } }),
        ("recipients on one line", { recipients($0) { #"<recipient id="r\#($0)" timeZone="UTC"/>"# } }),
        ("an attribute value of &amp;", { base.replacingOccurrences(of: "<recipients>", with: #"<recipients><recipient id="x" timeZone=""# + String(repeating: "&amp;", count: max(1, $0 / 5)) + #""/>"#) }),
        ("comments", { base.replacingOccurrences(of: "<recipients>", with: "<recipients>" + String(repeating: "<!-- a -->", count: max(1, $0 / 10))) }),
    ]
    let file = folder.appendingPathComponent("adversarial.xml")
    /// CPU seconds of `chime check` on one configuration (the median of three).
    func cpu(_ text: String) throws -> Double {
        try text.write(to: file, atomically: true, encoding: .utf8)
        return (0..<3).map { _ in measure(chime, ["check", "--config", file.path], in: folder).cpuSeconds }.sorted()[1]
    }
    let baseline = try cpu(base)
    print("chime check on adversarial configurations (load \(loadAverage()))")
    print(String(format: "baseline: the configuration as it was, %.1f ms CPU", baseline * 1000))
    try printCosts(shapes, size: size, baseline: baseline, only: filter, cpu: cpu)
}

/// Each shape's CPU per KB at `size` and at 4 × `size`, net of `baseline`, and the ratio
/// of the two: near 1 for linear time, near 4 for quadratic.
private func printCosts(_ shapes: [(String, (Int) -> String)], size: Int, baseline: Double, only filter: String?,
                        cpu: (String) throws -> Double) rethrows {
    print("shape                                   n KB    µs/KB at n   4n KB   µs/KB at 4n   ratio")
    for (name, make) in shapes where filter.map({ name.contains($0) }) ?? true {
        let small = make(size), large = make(size * 4)
        let (smallKB, largeKB) = (Double(small.utf8.count) / 1024, Double(large.utf8.count) / 1024)
        let (smallCost, largeCost) = (max(0, try cpu(small) - baseline) * 1e6 / smallKB, max(0, try cpu(large) - baseline) * 1e6 / largeKB)
        print(String(format: "%@ %7.0f %12.1f %7.0f %13.1f %7.2f", name.padding(toLength: 38, withPad: " ", startingAt: 0),
                     smallKB, smallCost, largeKB, largeCost, smallCost > 0 ? largeCost / smallCost : 0))
    }
}

/// The one-minute load average, as the kernel says it.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").first.map(String.init) ?? "?"
}
