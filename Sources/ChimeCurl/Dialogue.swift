internal import CChimeCurl

/// The protocol lines of one SMTP or IMAP transfer, in order: (sent by us, text), as
/// libcurl's debug callback shows them. How a reply's own words reach an error message.
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
            let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
            Unmanaged<Dialogue>.fromOpaque(context).takeUnretainedValue().lines.append((type == CURLINFO_HEADER_OUT, text))
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
    func trimmingLineEnd() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
