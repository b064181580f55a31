import Glibc

/// How an envelope is written to a server: addresses and headers beyond ASCII (RFC 6531,
/// RFC 6532) only to a server that takes them.
///
/// Chime's courier gives each address its domain's ASCII form already (IDNA, which every
/// relay takes), so what is left beyond ASCII is a local part, which only SMTPUTF8 carries.
extension SMTPClient {
    /// An envelope as written to one server: its commands, and what it could not be given.
    struct WrittenEnvelope {
        /// MAIL FROM, one RCPT TO for each recipient in ``recipients``, DATA.
        var commands: [String]
        /// The recipients written.
        var recipients: [String]
        /// The recipients left out: their address, or the message's header, needs SMTPUTF8,
        /// which the server does not offer.
        var refused: [Refusal]
    }

    /// Whether `message`'s header (up to its first empty line, CRLF CRLF) has a byte
    /// beyond ASCII. It is asked of every message sent: each line end is found by
    /// `memchr`, and each line looked at eight bytes at a time.
    static func hasUTF8Header(_ message: [UInt8]) -> Bool {
        message.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return false }
            var start = 0
            while start < raw.count {
                let end = memchr(base + start, 0x0A, raw.count - start).map { base.distance(to: UnsafeRawPointer($0)) + 1 } ?? raw.count
                var index = start
                while index + 8 <= end {
                    if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return true }
                    index += 8
                }
                if raw[index..<end].contains(where: { $0 >= 0x80 }) { return true }
                // The empty line after this one's CRLF: the header ends.
                if end >= 2, raw[end - 2] == 0x0D, end + 2 <= raw.count, raw[end] == 0x0D, raw[end + 1] == 0x0A { return false }
                start = end
            }
            return false
        }
    }

    /// An envelope's commands (addresses ``check(from:to:)``ed) for a server with these
    /// extensions: MAIL FROM (with the message's SIZE, and SMTPUTF8 for an address or a
    /// header beyond ASCII), each RCPT TO that can be written, DATA.
    /// - Throws: ``Failure`` (not temporary) when the sender's address cannot be written,
    ///   or no recipient's can.
    static func written(_ envelope: Envelope, _ extensions: SMTPConnection.Extensions) throws(Failure) -> WrittenEnvelope {
        let beyondASCII = { (address: String) in address.utf8.contains { $0 >= 0x80 } }
        let why = { (address: String) in "the server does not offer SMTPUTF8 (RFC 6531), which the address \(address.debugDescription) needs" }
        if !extensions.smtpUTF8, beyondASCII(envelope.from) {
            throw Failure(temporary: false, code: 0, message: "the sender: \(why(envelope.from))", refused: [])
        }
        var written = WrittenEnvelope(commands: [], recipients: [], refused: [])
        for recipient in envelope.recipients {
            // What a server that cannot take it answers (RFC 6531 §3.7.4.1): final for this
            // server. A header in UTF-8 (a from or replyTo beyond ASCII) keeps the message
            // from everyone.
            if !extensions.smtpUTF8, beyondASCII(recipient) {
                written.refused.append(Refusal(recipient: recipient, code: 553, reply: "553 5.6.7 not sent: \(why(recipient))"))
            } else if !extensions.smtpUTF8, envelope.utf8Header {
                written.refused.append(Refusal(recipient: recipient, code: 553, reply: """
                    553 5.6.7 not sent: the server does not offer SMTPUTF8 (RFC 6531), which the message's header needs \
                    (an address beyond ASCII in it)
                    """))
            } else {
                written.recipients.append(recipient)
            }
        }
        guard !written.recipients.isEmpty else {
            throw Failure(temporary: false, code: 0, message: "every recipient refused (\(written.refused.map(\.reply).joined(separator: "; ")))",
                          refused: written.refused)
        }
        var mail = "MAIL FROM:<\(envelope.from)>"
        if extensions.size { mail += " SIZE=\(envelope.size)" }
        if extensions.smtpUTF8, envelope.utf8Header || ([envelope.from] + written.recipients).contains(where: beyondASCII) { mail += " SMTPUTF8" }
        written.commands = [mail] + written.recipients.map { "RCPT TO:<\($0)>" } + ["DATA"]
        return written
    }
}

/// What a send ends with, success or failure: both name the recipients refused.
protocol NamingRefusals {
    var refused: [SMTPClient.Refusal] { get set }
}

extension NamingRefusals {
    /// The same, `more` refused besides (those left out of the envelope).
    func adding(_ more: [SMTPClient.Refusal]) -> Self {
        var copy = self
        copy.refused += more
        return copy
    }
}

extension SMTPClient.Sent: NamingRefusals {}
extension SMTPClient.Failure: NamingRefusals {}
