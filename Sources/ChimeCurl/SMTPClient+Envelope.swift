/// How an envelope is written to a server: addresses beyond ASCII (RFC 6531) only to a
/// server that takes them.
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
        /// The recipients left out: their address needs SMTPUTF8, which the server does not
        /// offer.
        var refused: [Refusal]
    }

    /// An envelope's commands (addresses ``check(from:to:)``ed) for a server with these
    /// extensions: MAIL FROM (with the message's SIZE, and SMTPUTF8 for an address beyond
    /// ASCII), each RCPT TO that can be written, DATA.
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
            if extensions.smtpUTF8 || !beyondASCII(recipient) {
                written.recipients.append(recipient)
            } else {
                // What a server that cannot take it answers (RFC 6531 §3.7.4.1): final for
                // this server.
                written.refused.append(Refusal(recipient: recipient, code: 553, reply: "553 5.6.7 not sent: \(why(recipient))"))
            }
        }
        guard !written.recipients.isEmpty else {
            throw Failure(temporary: false, code: 0, message: "every recipient refused (\(written.refused.map(\.reply).joined(separator: "; ")))",
                          refused: written.refused)
        }
        var mail = "MAIL FROM:<\(envelope.from)>"
        if extensions.size { mail += " SIZE=\(envelope.size)" }
        if extensions.smtpUTF8, ([envelope.from] + written.recipients).contains(where: beyondASCII) { mail += " SMTPUTF8" }
        written.commands = [mail] + written.recipients.map { "RCPT TO:<\($0)>" } + ["DATA"]
        return written
    }
}
