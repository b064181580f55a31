internal import CChimeGMime

/// Structured header values read by the book: the mailbox of an originator field
/// (RFC 5322 §3.6.2) through GMime's address parser, and msg-ids (§3.6.4) by their
/// syntax. Both take the raw value (``ParsedMail/rawHeaders``), never a decoded one.
public enum MailAddress {
    /// The address of a `From:` that holds exactly one mailbox, lower-cased; nil for a
    /// group, several mailboxes, or anything GMime does not read as one. Display names and
    /// comments never give the address: `bob@evil.test (<alice@example.org>)` is bob's.
    public static func singleMailbox(_ raw: String) -> String? {
        GMime.initialize()
        guard let list = internet_address_list_parse(nil, raw) else { return nil }
        defer { chime_gmime_unref(list) }
        guard internet_address_list_length(list) == 1, let address = internet_address_list_get_address(list, 0),
              let mailbox = chime_gmime_mailbox(address), let text = internet_address_mailbox_get_addr(mailbox)
        else { return nil }
        let addr = String(cString: text)
        // One local part, one domain, nothing a mailbox cannot hold.
        let bytes = Array(addr.utf8)
        guard bytes.filter({ $0 == UInt8(ascii: "@") }).count == 1, let at = bytes.firstIndex(of: UInt8(ascii: "@")),
              at > 0, at < bytes.count - 1,
              !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: ",") })
        else { return nil }
        guard isOneMailbox(raw, addr) else { return nil }
        return addr.lowercased()
    }

    /// Whether the `@`s of `raw` outside its quoted strings and comments are those of one
    /// mailbox, `addr` (the address GMime read): one, between the angle brackets where
    /// there are brackets (a route's `<@relay:…>` before its colon not counted), and in
    /// the phrase before them only as `addr` itself (`alice@example.org <alice@…>`, some
    /// clients' name when there is none, in single quotes too). GMime reads on past what
    /// is no mailbox: `bob@evil.test <alice@example.org>` came back as alice's, and
    /// `alice@example.org@evil.test` as `alice@example.org`, where a DMARC checker could
    /// read `evil.test`'s domain. Linear: one pass over the bytes.
    static func isOneMailbox(_ raw: String, _ addr: String) -> Bool {
        var quoted = false, escaped = false, comment = 0, inAngle = false, angles = 0
        var outside = 0, inside = 0
        var word: [UInt8] = [], phraseWords: [[UInt8]] = []
        func endWord() {
            if word.contains(UInt8(ascii: "@")) { phraseWords.append(word) }
            word.removeAll(keepingCapacity: true)
        }
        for byte in raw.utf8 {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\"), quoted || comment > 0 {
                escaped = true
            } else if quoted {
                if byte == UInt8(ascii: "\"") { quoted = false }
            } else if comment > 0 {
                if byte == UInt8(ascii: "(") { comment += 1 } else if byte == UInt8(ascii: ")") { comment -= 1 }
            } else {
                switch byte {
                case UInt8(ascii: "\""): endWord(); quoted = true
                case UInt8(ascii: "("): endWord(); comment = 1
                case UInt8(ascii: "<"): endWord(); inAngle = true; angles += 1
                case UInt8(ascii: ">"): inAngle = false
                case UInt8(ascii: ":") where inAngle: inside = 0
                case UInt8(ascii: "@"):
                    if inAngle { inside += 1 } else { outside += 1; word.append(byte) }
                case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: ";"): endWord()
                default: if !inAngle { word.append(byte) }
                }
            }
        }
        endWord()
        guard angles > 0 else { return outside == 1 }
        let address = Array(addr.lowercased().utf8)
        return angles == 1 && inside == 1 && phraseWords.allSatisfy { word in
            Array(String(decoding: word, as: UTF8.self).lowercased().utf8).trimmingQuotes == address[...]
        }
    }

    /// The msg-ids of a raw `Message-ID`, `In-Reply-To` or `References` value, without
    /// their angle brackets, in order: `<id-left@id-right>` with each side a dot-atom
    /// (the right also a `[…]` literal), at most 998 characters. Anything else, words
    /// or comments between them included, is passed over. Linear in the value's length.
    public static func messageIDs(_ raw: String) -> [String] {
        let bytes = Array(raw.utf8)
        var found: [String] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            // The id runs to the next `>`; another `<` first starts a new one.
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: ">"), bytes[end] != UInt8(ascii: "<") { end += 1 }
            guard end < bytes.count else { break }
            if bytes[end] == UInt8(ascii: ">"), let id = messageID(bytes[(index + 1)..<end]) { found.append(id) }
            index = bytes[end] == UInt8(ascii: ">") ? end + 1 : end
        }
        return found
    }

    /// `id-left@id-right` when it is one, as text.
    private static func messageID(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.count <= 998, let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        let left = bytes[bytes.startIndex..<at], right = bytes[(at + 1)...]
        guard isDotAtom(left), isDotAtom(right) || isLiteral(right) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 5322 `dot-atom-text`: atext runs joined by single dots.
    static func isDotAtom(_ bytes: ArraySlice<UInt8>) -> Bool {
        isRuns(bytes, of: isAtext, joinedBy: UInt8(ascii: "."))
    }

    /// Runs of `allowed` bytes joined by single `separator`s, none empty.
    static func isRuns(_ bytes: ArraySlice<UInt8>, of allowed: (UInt8) -> Bool, joinedBy separator: UInt8) -> Bool {
        var previous = separator
        for byte in bytes {
            if byte == separator {
                guard previous != separator else { return false }
            } else {
                guard allowed(byte) else { return false }
            }
            previous = byte
        }
        return previous != separator
    }

    /// `[` dtext `]` (printable ASCII but `[`, `]` and `\`).
    private static func isLiteral(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 >= 33 && $0 <= 126 && $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: "\\") }
    }

    /// RFC 5322 `atext`.
    static func isAtext(_ byte: UInt8) -> Bool { atext[Int(byte)] }

    private static let atext: [Bool] = (0..<256).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return "!#$%&'*+-/=?^_`{|}~".utf8.contains(byte)
        }
    }
}

private extension Array where Element == UInt8 {
    /// Without the single quotes around it, as some clients write a name.
    var trimmingQuotes: ArraySlice<UInt8> {
        var slice = self[...]
        while slice.first == UInt8(ascii: "'") { slice = slice.dropFirst() }
        while slice.last == UInt8(ascii: "'") { slice = slice.dropLast() }
        return slice
    }
}
