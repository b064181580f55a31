internal import CChimeCurl
import Glibc

/// Sends messages to one SMTP server through libcurl, over one easy handle, so the
/// connection stays open from one message to the next.
///
/// TLS and credentials are the ``MailServer``'s. Each recipient's RCPT reply is read from
/// the protocol lines, so a message refused for one recipient still goes to the others
/// and the refusal is known.
public final class SMTPClient {
    /// A recipient the server refused at RCPT, with its reply.
    public struct Refusal: Hashable, Sendable {
        public var recipient: String
        public var code: Int
        public var reply: String
    }

    /// The server took the message (250 after DATA) for `accepted`.
    public struct Sent: Sendable {
        public var accepted: [String]
        public var refused: [Refusal]
        /// The reply to DATA, e.g. `250 OK: queued as 1234`.
        public var reply: String
    }

    /// The message was not taken by anyone.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// A 4xx reply, or no reply at all (connection refused, reset, timed out): try
        /// again later. A 5xx reply, a refused certificate or STARTTLS missing when
        /// required: trying again will not help.
        public var temporary: Bool
        /// The last SMTP reply code, 0 when the server never answered.
        public var code: Int
        public var message: String
        public var refused: [Refusal]
        /// No connection could be made at all: later messages will fare no better now.
        public var unreachable: Bool = false
        public var description: String { message }
    }

    private let easy: CurlEasy

    /// Sets up the handle once: the server, TLS, credentials, and the callbacks every
    /// message goes through. Each ``send(from:to:message:)`` sets only its envelope.
    public init(_ settings: MailServer) throws {
        easy = try CurlEasy(timeouts: settings.timeouts)
        try easy.setUpMail(settings)
    }

    /// Sends one message (LF or CRLF line ends) from `from` to each of `to`.
    /// - Throws: ``Failure`` when no recipient got it.
    public func send(from: String, to recipients: [String], message: String) throws -> Sent {
        try send(from: from, to: recipients, message: Self.crlf(Array(message.utf8)))
    }

    /// Sends one message's bytes, with CRLF line ends (``crlf(_:)``, done when it was
    /// queued), from `from` to each of `to`.
    /// - Throws: ``Failure`` when no recipient got it.
    public func send(from: String, to recipients: [String], message: [UInt8]) throws -> Sent {
        let list = try easy.setEnvelope(from: from, to: recipients, size: message.count)
        defer { chime_curl_slist_free_all(list) }
        let (dialogue, error) = transfer(upload: MailUpload(bytes: message))
        _ = chime_curl_setopt_slist(easy.handle, CURLOPT_MAIL_RCPT, nil)
        return try Self.outcome(recipients: recipients, dialogue: dialogue, error: error, responseCode: easy.responseCode).get()
    }

    /// Connects, greets, upgrades to TLS and logs in as a send would, then asks `NOOP`:
    /// whether the server can be reached and takes the credentials. Returns its reply.
    /// - Throws: ``Failure`` when it cannot.
    public func probe() throws -> String {
        let handle = easy.handle
        try easy.check(chime_curl_setopt_long(handle, CURLOPT_UPLOAD, 0))
        try easy.check(chime_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, "NOOP"))
        defer {
            _ = chime_curl_setopt_long(handle, CURLOPT_UPLOAD, 1)
            _ = chime_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, nil)
        }
        let (dialogue, error) = transfer(upload: nil)
        let lastReply = dialogue.lastReply
        if let error { throw Self.failure(error, responseCode: easy.responseCode, lastReply: lastReply, refused: []) }
        return lastReply
    }

    /// Runs one transfer on the handle, with the dialogue recorded.
    private func transfer(upload: MailUpload?) -> (Dialogue, CurlError?) {
        let handle = easy.handle
        let dialogue = Dialogue()
        var failure: CurlError?
        withExtendedLifetime(upload) {
            _ = chime_curl_setopt_pointer(handle, CURLOPT_READDATA, upload.map { Unmanaged.passUnretained($0).toOpaque() })
            easy.recording(dialogue) {
                do { try easy.perform() } catch let error as CurlError { failure = error } catch {}
            }
            _ = chime_curl_setopt_pointer(handle, CURLOPT_READDATA, nil)
        }
        return (dialogue, failure)
    }

    /// LF line ends as CRLF, as SMTP's DATA has them; CRLF kept. Done when a message is
    /// queued, so the send finds it ready.
    ///
    /// Each line end is found by `memchr` and each line copied whole: appending byte by
    /// byte was 58,000 instructions an email, the most of any function of a run sending
    /// emails (callgrind).
    public static func crlf(_ text: [UInt8]) -> [UInt8] {
        text.withUnsafeBufferPointer { source in
            // The offsets of the LFs that no CR precedes.
            var bare: [Int] = []
            var from = 0
            while from < source.count, let found = memchr(source.baseAddress! + from, 0x0A, source.count - from) {
                let at = source.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if at == 0 || source[at - 1] != 0x0D { bare.append(at) }
                from = at + 1
            }
            // Messages rendered with CRLF already go as they are.
            guard !bare.isEmpty else { return text }
            return [UInt8](unsafeUninitializedCapacity: source.count + bare.count) { out, count in
                var written = 0, start = 0
                for at in bare + [source.count] {
                    (out.baseAddress! + written).initialize(from: source.baseAddress! + start, count: at - start)
                    written += at - start
                    guard at < source.count else { break }
                    out[written] = 0x0D
                    out[written + 1] = 0x0A
                    written += 2
                    start = at + 1
                }
                count = written
            }
        }
    }
}

extension Dialogue {
    /// Each refused RCPT with its reply.
    func refusals() -> [SMTPClient.Refusal] {
        var refused: [SMTPClient.Refusal] = []
        var pending: String?
        for line in lines {
            let text = line.text.trimmingLineEnd()
            if line.out {
                pending = text.uppercased().hasPrefix("RCPT TO:") ? String(text.dropFirst(8)).trimmingAngles() : nil
                continue
            }
            // A reply's last line has a space after its code ("250 OK"; "250-…" goes on).
            guard let code = Int(text.prefix(3)), text.count < 4 || text[text.index(text.startIndex, offsetBy: 3)] == " " else { continue }
            if let recipient = pending, code >= 400 { refused.append(.init(recipient: recipient, code: code, reply: text)) }
            pending = nil
        }
        return refused
    }
}

extension String {
    fileprivate func trimmingAngles() -> String {
        var text = Substring(self)
        if text.first == "<" { text = text.dropFirst() }
        if let close = text.firstIndex(of: ">") { text = text[..<close] }
        return String(text)
    }
}
