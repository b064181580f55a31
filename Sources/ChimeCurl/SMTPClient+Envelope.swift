import Foundation

/// How an envelope's addresses are written to a server: internationalized ones (RFC 6531)
/// as far as the server can take them.
extension SMTPClient {
    /// An envelope as written to one server: its commands, and what it could not be given.
    struct WrittenEnvelope {
        /// MAIL FROM, one RCPT TO for each recipient in ``recipients``, DATA.
        var commands: [String]
        /// The recipients written, as the caller named them (their replies are theirs).
        var recipients: [String]
        /// The recipients left out: their address needs SMTPUTF8, which the server does not
        /// offer, or has a domain that is no internationalized domain name.
        var refused: [Refusal]
    }

    /// An envelope's commands (addresses ``check(from:to:)``ed) for a server with these
    /// extensions: MAIL FROM (with the message's SIZE, and SMTPUTF8 when an address is
    /// still beyond ASCII), each RCPT TO that can be written, DATA.
    /// - Throws: ``Failure`` (not temporary) when the sender's address cannot be written,
    ///   or no recipient's can.
    static func written(_ envelope: Envelope, _ extensions: SMTPConnection.Extensions) throws(Failure) -> WrittenEnvelope {
        let from: String
        switch wire(envelope.from, smtpUTF8: extensions.smtpUTF8) {
        case .success(let address): from = address
        case .failure(let why): throw Failure(temporary: false, code: 0, message: "the sender \(envelope.from.debugDescription): \(why)", refused: [])
        }
        var written = WrittenEnvelope(commands: [], recipients: [], refused: [])
        var rcpts: [String] = []
        for recipient in envelope.recipients {
            switch wire(recipient, smtpUTF8: extensions.smtpUTF8) {
            case .success(let address):
                written.recipients.append(recipient)
                rcpts.append("RCPT TO:<\(address)>")
            case .failure(let why):
                // The code a server that cannot take it answers (RFC 6531 §3.7.4.1):
                // final for this server.
                written.refused.append(Refusal(recipient: recipient, code: 553, reply: "553 5.6.7 not sent: \(why)"))
            }
        }
        guard !written.recipients.isEmpty else {
            throw Failure(temporary: false, code: 0, message: "every recipient refused (\(written.refused.map(\.reply).joined(separator: "; ")))",
                          refused: written.refused)
        }
        var mail = "MAIL FROM:<\(from)>"
        if extensions.size { mail += " SIZE=\(envelope.size)" }
        if extensions.smtpUTF8, !isASCII(from) || rcpts.contains(where: { !isASCII($0) }) { mail += " SMTPUTF8" }
        written.commands = [mail] + rcpts + ["DATA"]
        return written
    }

    /// Why an address cannot be written to a server.
    struct Unwritable: Error, CustomStringConvertible {
        var description: String
    }

    /// `address` as written in MAIL FROM or RCPT TO: an internationalized domain as its
    /// ASCII form (IDNA, as every server takes it, with or without SMTPUTF8: a relay that
    /// offers SMTPUTF8 may pass the message to one that does not); a local part beyond
    /// ASCII only to a server offering SMTPUTF8. An address all ASCII is left as it is.
    ///
    /// The conversion is Foundation's (`URLComponents`, ICU's UTS #46 processing), which
    /// writes what it cannot convert percent-encoded instead: such a domain is refused.
    static func wire(_ address: String, smtpUTF8: Bool) -> Result<String, Unwritable> {
        guard !isASCII(address) else { return .success(address) }
        guard let at = address.utf8.lastIndex(of: UInt8(ascii: "@")) else { return .success(address) }
        let local = address[..<at], domain = String(address[address.utf8.index(after: at)...])
        if !isASCII(local), !smtpUTF8 {
            return .failure(Unwritable(description: "the server does not offer SMTPUTF8 (RFC 6531), which the address \(address.debugDescription) needs for its local part"))
        }
        guard !isASCII(domain) else { return .success(address) }
        var components = URLComponents()
        components.host = domain
        guard let ascii = components.encodedHost, isASCII(ascii), !ascii.contains("%") else {
            return .failure(Unwritable(description: "the domain of \(address.debugDescription) is not an internationalized domain name (IDNA)"))
        }
        return .success(local + "@" + ascii)
    }

    private static func isASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }
}
