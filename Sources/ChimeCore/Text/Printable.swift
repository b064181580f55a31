/// Text from outside (a reply, a chat message, a request's title) as a terminal may show
/// it: control characters (C0, DEL, C1, which start terminal escape sequences) and the
/// bidirectional overrides that reorder what is shown are written as `\u{…}`, and a
/// backslash as `\\`, so nothing printed can move the cursor, recolour or hide text.
public func printable(_ text: String) -> String {
    // Most lines have nothing to escape: their bytes are looked at first (a scalar at a
    // time, the line was 2% of `chime ingest`'s instructions).
    guard needsEscape(text) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x5C: result += "\\\\"
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            result += "\\u{\(String(scalar.value, radix: 16))}"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}

/// An error as a log line may carry it: ``printable(_:)`` (no control character of it
/// reaches the log), at most 1,000 characters.
public func printableError(_ error: any Error) -> String {
    String(printable(String(describing: error)).prefix(1_000))
}

/// Whether ``printable(_:)`` changes `text`, read from its UTF-8: the C1 controls are
/// C2 80–9F, the bidirectional marks E2 80 8E–8F, E2 80 AA–AE and E2 81 A6–A9.
private func needsEscape(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    for (index, byte) in bytes.enumerated() {
        switch byte {
        case 0x00...0x1F, 0x5C, 0x7F: return true
        case 0xC2 where bytes[index + 1] <= 0x9F: return true
        case 0xE2:
            let (second, third) = (bytes[index + 1], bytes[index + 2])
            if second == 0x80, third == 0x8E || third == 0x8F || (0xAA...0xAE).contains(third) { return true }
            if second == 0x81, (0xA6...0xA9).contains(third) { return true }
        default: continue
        }
    }
    return false
}

extension String {
    /// This text with each NUL (U+0000) written as U+FFFD: what the stores keep of text
    /// from outside (a reply's report, a typed answer, a hook's output). PostgreSQL's
    /// `text` cannot hold a NUL and refuses the row; SQLite would keep it. Both keep this.
    public var storable: String {
        guard utf8.contains(0) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
    }
}
