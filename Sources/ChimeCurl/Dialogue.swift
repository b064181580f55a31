internal import CChimeCurl

/// The protocol lines of one SMTP or IMAP transfer, in order: (sent by us, text), as
/// libcurl's debug callback shows them; our own lines other than EHLO are kept empty.
/// How a reply's own words reach an error message, and how an SMTP server's extensions
/// are known (``SMTPConnection``).
final class Dialogue {
    var lines: [(out: Bool, text: String)] = []

    /// The last line the server sent.
    var lastReply: String {
        lines.last { !$0.out }?.text.trimmingLineEnd() ?? ""
    }
}

extension CurlEasy {
    /// Has libcurl show every protocol line to the ``Dialogue`` of the transfer
    /// (``recording(_:_:)``).
    func recordDialogues() throws {
        try check(chime_curl_setopt_long(handle, CURLOPT_VERBOSE, 1))
        try check(chime_curl_setopt_debug_callback(handle, CURLOPT_DEBUGFUNCTION) { _, type, data, size, context in
            guard let data, let context, type == CURLINFO_HEADER_IN || type == CURLINFO_HEADER_OUT else { return 0 }
            let bytes = UnsafeRawBufferPointer(start: data, count: size)
            let out = type == CURLINFO_HEADER_OUT
            // Of our own lines only EHLO is read (where the server's extensions start); the
            // others (AUTH with its credentials, LOGIN…) are kept as empty lines.
            let kept = !out || (size >= 4 && bytes[0] == 0x45 && bytes[1] == 0x48 && bytes[2] == 0x4C && bytes[3] == 0x4F)
            let text = kept ? String(decoding: bytes, as: UTF8.self) : ""
            Unmanaged<Dialogue>.fromOpaque(context).takeUnretainedValue().lines.append((out, text))
            return 0
        })
    }

    /// Runs `body` with the lines of its transfers recorded in `dialogue`.
    func recording<T>(_ dialogue: Dialogue, _ body: () throws -> T) rethrows -> T {
        try withExtendedLifetime(dialogue) {
            _ = chime_curl_setopt_pointer(handle, CURLOPT_DEBUGDATA, Unmanaged.passUnretained(dialogue).toOpaque())
            defer { _ = chime_curl_setopt_pointer(handle, CURLOPT_DEBUGDATA, nil) }
            return try body()
        }
    }
}

extension String {
    /// Without its CR and LF at the end. ("\r\n" is one `Character`, which neither "\r"
    /// nor "\n" equals: compared with them, a CRLF stayed, and an extension named last on
    /// its line was not known.)
    func trimmingLineEnd() -> String {
        var text = Substring(self)
        while let last = text.utf8.last, last == 0x0A || last == 0x0D { text = Substring(text.utf8.dropLast()) }
        return String(text)
    }
}
