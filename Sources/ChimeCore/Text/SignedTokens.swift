/// Chime's own signed tokens (reply, action, view, bounce: lower-case base32 of a
/// payload and its tag, 50 characters and more) as text may carry them: a server's
/// error quoting the payload or the envelope Chime sent it (`"context":{"token":"…"}`,
/// `553 <bounce+…@example.org>: Sender address rejected`). A token there is a key to
/// its action for whoever reads the error: in the log, the store's attempts,
/// `chime failed`, `GET /v1/deliveries` with a read-only key.
public enum SignedTokens {
    /// The shortest run of base32 letters taken for a token: shorter than any token (its
    /// payload's 16 bytes and more, and a 10-byte tag: 42 characters at least), longer
    /// than words and than the identifiers people write; a hex digest breaks into shorter
    /// runs at its 0, 1, 8 and 9.
    static let shortestRun = 40

    /// How many different characters a run holds at least to be taken for a token: a
    /// token's are random (42 of 32 kinds), a padding of `xxxx…` or `====…` is not one.
    static let distinct = 12

    /// `text` with each run of at least ``shortestRun`` lower-case base32 characters
    /// (`a`–`z`, `2`–`7`) that stands alone (no letter or digit touching it) and is
    /// varied enough (``distinct``) written as `(token)`. One pass over the bytes.
    public static func blanked(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= shortestRun else { return text }
        func base32(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x32...0x37).contains(byte) }
        func wordy(_ byte: UInt8) -> Bool { base32(byte) || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) }
        var result: [UInt8] = []
        var index = 0
        var changed = false
        while index < bytes.count {
            guard base32(bytes[index]), index == 0 || !wordy(bytes[index - 1]) else {
                result.append(bytes[index])
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, base32(bytes[end]) { end += 1 }
            if end - index >= shortestRun, end == bytes.count || !wordy(bytes[end]), Set(bytes[index..<end]).count >= distinct {
                result += "(token)".utf8
                changed = true
            } else {
                result += bytes[index..<end]
            }
            index = end
        }
        return changed ? String(decoding: result, as: UTF8.self) : text
    }
}
