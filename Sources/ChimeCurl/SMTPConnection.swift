internal import CChimeCurl
import Glibc

/// One SMTP session: libcurl connects, greets, upgrades to TLS and logs in
/// (`CURLOPT_CONNECT_ONLY`), and the transactions are spoken here over its connection
/// (`curl_easy_send`, `curl_easy_recv`), through its TLS.
///
/// Written by hand because no library does it: libcurl's SMTP sends each command of a
/// message and waits for its reply before the next (MAIL, each RCPT, DATA, the data: four
/// round trips for one recipient), and has no PIPELINING (RFC 2920). With a server
/// offering it, ``SMTPClient`` sends MAIL, the RCPTs and DATA together and reads their
/// replies together, and writes the next message's envelope with this one's data: one
/// round trip a message. On loopback each round trip is a wakeup of each side, most of
/// the CPU a message costs its sender; against a relay far away it is most of the time a
/// message holds its connection.
///
/// What comes from the server is bounded: a reply line of at most 4,096 bytes, a reply of
/// at most 128 lines, each found by one scan of the bytes read.
final class SMTPConnection {
    /// A reply: its code and its last line, as the server wrote it (without CRLF).
    struct Reply {
        var code: Int
        var line: String
        var positive: Bool { code >= 200 && code < 400 }
    }

    /// The connection cannot be used any more.
    struct Broken: Error {
        var message: String
        /// Lost with nothing read of the reply waited for (closed, reset): on a connection
        /// kept from an earlier message, the server may simply have closed it meanwhile.
        var lost: Bool
    }

    /// The keywords of the server's last EHLO reply that change what is sent.
    struct Extensions {
        var pipelining = false
        var size = false
        var smtpUTF8 = false
    }

    let easy: CurlEasy
    let extensions: Extensions
    private let socket: curl_socket_t
    private var input: [UInt8] = []
    /// Where the next reply line starts in `input`.
    private var position = 0
    /// How far `input` has been looked through for a line end.
    private var scanned = 0
    private var scratch = [UInt8](repeating: 0, count: 16_384)

    static let longestLine = 4_096
    static let mostLines = 128

    /// Connects to `server` as a transfer would, up to and including its login.
    /// - Throws: ``SMTPClient/Failure`` with libcurl's words, the server's last line and
    ///   its reply code.
    init(_ server: MailServer) throws(SMTPClient.Failure) {
        let easy: CurlEasy
        do {
            easy = try CurlEasy(timeouts: server.timeouts)
        } catch {
            throw .init(connecting: Self.curlError(error), responseCode: 0, lastReply: "")
        }
        let dialogue = Dialogue()
        do {
            try easy.check(chime_curl_setopt_string(easy.handle, CURLOPT_URL, server.url))
            try easy.apply(server)
            try easy.check(chime_curl_setopt_long(easy.handle, CURLOPT_CONNECT_ONLY, 1))
            try easy.recordDialogues()
            try easy.recording(dialogue) { try easy.perform() }
        } catch {
            throw .init(connecting: Self.curlError(error), responseCode: easy.responseCode, lastReply: dialogue.lastReply)
        }
        self.easy = easy
        var socket = curl_socket_t(-1)
        _ = chime_curl_getinfo_socket(easy.handle, CURLINFO_ACTIVESOCKET, &socket)
        self.socket = socket
        var extensions = Self.extensions(dialogue)
        extensions.pipelining = extensions.pipelining && server.pipelining
        self.extensions = extensions
    }

    private static func curlError(_ error: any Error) -> CurlError {
        error as? CurlError ?? CurlError(code: Int(CURLE_FAILED_INIT.rawValue), message: "\(error)")
    }

    /// Says goodbye (`QUIT`, its reply awaited a second at most); libcurl closes the
    /// connection with the handle.
    func quit() {
        let deadline = Deadline(milliseconds: 1_000)
        _ = try? write(commands: ["QUIT"], until: deadline)
        _ = try? reply(until: deadline)
    }

    /// Commands as they are written: each followed by CRLF.
    static func lines(_ commands: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for command in commands {
            bytes += command.utf8
            bytes += [0x0D, 0x0A]
        }
        return bytes
    }

    /// Writes `commands` (``lines(_:)``) at once.
    func write(commands: [String], until deadline: Deadline) throws(Broken) {
        try write(Self.lines(commands), until: deadline)
    }

    /// Writes every byte, waiting for the connection to take them.
    func write(_ bytes: [UInt8], until deadline: Deadline) throws(Broken) {
        var offset = 0
        while offset < bytes.count {
            var sent = 0
            let code = bytes.withUnsafeBytes { chime_curl_easy_send(easy.handle, $0.baseAddress! + offset, $0.count - offset, &sent) }
            if code == CURLE_OK {
                offset += sent
            } else if code == CURLE_AGAIN {
                try wait(for: Int16(POLLOUT), until: deadline, waitingFor: "to take what was written")
            } else {
                throw Broken(message: "the connection was lost while writing (\(String(cString: chime_curl_easy_strerror(code))))", lost: true)
            }
        }
    }

    /// Reads the next reply: its continuation lines (`250-…`) skipped, its last line kept.
    func reply(until deadline: Deadline) throws(Broken) -> Reply {
        var lines = 0
        while true {
            guard let end = nextLineEnd() else {
                if input.count - position > Self.longestLine {
                    throw Broken(message: "the server sent a line longer than \(Self.longestLine) bytes", lost: false)
                }
                try fill(until: deadline, nothingRead: lines == 0 && position == input.count)
                continue
            }
            let start = position
            position = end + 1
            lines += 1
            var last = end
            if last > start && input[last - 1] == 0x0D { last -= 1 }
            guard last - start >= 3, let code = Self.code(input[start], input[start + 1], input[start + 2]) else {
                throw Broken(message: "the server's reply is not SMTP: \(Self.printable(input[start..<last]))", lost: false)
            }
            if last - start > 3 && input[start + 3] == 0x2D { // "-": the reply goes on
                guard lines < Self.mostLines else {
                    throw Broken(message: "the server's reply ran past \(Self.mostLines) lines", lost: false)
                }
                continue
            }
            return Reply(code: code, line: String(decoding: input[start..<last], as: UTF8.self))
        }
    }

    /// The offset of the next LF at or after `position`, looked for only in bytes not
    /// looked at before (those before `scanned`).
    private func nextLineEnd() -> Int? {
        let from = max(position, scanned)
        guard from < input.count else { return nil }
        let found = input.withUnsafeBytes { bytes -> Int? in
            memchr(bytes.baseAddress! + from, 0x0A, bytes.count - from).map { bytes.baseAddress!.distance(to: UnsafeRawPointer($0)) }
        }
        scanned = found.map { $0 + 1 } ?? input.count
        return found
    }

    /// Reads what has come, waiting for some when nothing has.
    private func fill(until deadline: Deadline, nothingRead: Bool) throws(Broken) {
        if position > 0 {
            input.removeFirst(position)
            scanned = max(0, scanned - position)
            position = 0
        }
        while true {
            var received = 0
            let code = scratch.withUnsafeMutableBytes { chime_curl_easy_recv(easy.handle, $0.baseAddress!, $0.count, &received) }
            if code == CURLE_OK {
                guard received > 0 else { throw Broken(message: "the server closed the connection", lost: nothingRead) }
                input.append(contentsOf: scratch[0..<received])
                return
            }
            guard code == CURLE_AGAIN else {
                throw Broken(message: "the connection was lost (\(String(cString: chime_curl_easy_strerror(code))))", lost: nothingRead)
            }
            try wait(for: Int16(POLLIN), until: deadline, waitingFor: "to answer")
        }
    }

    private func wait(for events: Int16, until deadline: Deadline, waitingFor what: String) throws(Broken) {
        while true {
            let left = deadline.millisecondsLeft
            guard left > 0 else { throw Broken(message: "the server took longer than \(deadline.milliseconds) ms \(what)", lost: false) }
            var descriptor = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(left, Int(Int32.max))))
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
        }
    }

    private static func code(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int? {
        guard (0x30...0x39).contains(a), (0x30...0x39).contains(b), (0x30...0x39).contains(c) else { return nil }
        return Int(a - 0x30) * 100 + Int(b - 0x30) * 10 + Int(c - 0x30)
    }

    /// At most 200 bytes of a line, control bytes shown as `?`: for an error message.
    private static func printable(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix(200).map { $0 < 0x20 || $0 == 0x7F ? 0x3F : $0 }, as: UTF8.self)
    }

    /// The extensions of the last EHLO reply libcurl read (after STARTTLS, the one that
    /// counts).
    private static func extensions(_ dialogue: Dialogue) -> Extensions {
        var found = Extensions()
        guard let ehlo = dialogue.lines.lastIndex(where: { $0.out && $0.text.hasPrefix("EHLO") }) else { return found }
        // The reply's first line names the server; each later one is a keyword and its
        // parameters.
        for line in dialogue.lines[(ehlo + 1)...].prefix(while: { !$0.out }).dropFirst() {
            let keyword = line.text.trimmingLineEnd().dropFirst(4).prefix { $0 != " " }.uppercased()
            switch keyword {
            case "PIPELINING": found.pipelining = true
            case "SIZE": found.size = true
            case "SMTPUTF8": found.smtpUTF8 = true
            default: break
            }
        }
        return found
    }
}

/// A moment by which something must be done, and the time it was set for (for an error
/// message).
struct Deadline {
    let milliseconds: Int
    private let end: ContinuousClock.Instant

    init(milliseconds: Int) {
        self.milliseconds = milliseconds
        end = .now + .milliseconds(milliseconds)
    }

    var millisecondsLeft: Int {
        let left = (end - .now).components
        return Int(left.seconds) * 1_000 + Int(left.attoseconds / 1_000_000_000_000_000)
    }
}
