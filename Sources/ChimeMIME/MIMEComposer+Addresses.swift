internal import CChimeGMime
import Synchronization

/// Address headers (`From`, `To`, `Reply-To`): GMime's encoding, and the one shape that
/// needs none written directly.
extension MIMEComposer {
    /// `Name <address>` (or several, comma-separated), display names encoded, folded.
    /// `remembered`: kept for the next message with the same header (``encodedAddresses``).
    static func addressHeader(_ name: String, _ mailboxes: String, remembered: Bool) -> String {
        if let line = plainAddressHeader(name, mailboxes) { return line }
        let key = remembered ? name + "\u{0}" + mailboxes : nil
        if let key, let known = encodedAddresses.withLock({ $0[key] }) { return known }
        let result = encodedAddressHeader(name, mailboxes)
        if let key {
            encodedAddresses.withLock { known in
                if known.count >= 1_024 { known.removeAll() }
                known[key] = result
            }
        }
        return result
    }

    /// The header as GMime encodes it.
    static func encodedAddressHeader(_ name: String, _ mailboxes: String) -> String {
        GMime.initialize()
        let text = g_string_new("\(name): ")!
        if let list = internet_address_list_parse(nil, mailboxes) {
            internet_address_list_encode(list, nil, text)
            chime_gmime_unref(list)
        }
        var result = String(cString: text.pointee.str)
        g_string_free(text, 1)
        if !result.hasSuffix("\n") { result += "\n" }
        // A Japanese or Thai display name: GMime's words past RFC 2047's 75 characters, as
        // in a subject (``textHeader(_:_:)``).
        return withinEncodedWordLimit(result)
    }

    /// Address headers as GMime encoded them, by header name and mailboxes: the same input
    /// gives the same bytes, and encoding one (libidn2 converting each domain, whether
    /// ASCII or not) took 40,000 instructions, a twelfth of an email's sending, counted by
    /// callgrind. At most 1,024, forgotten together when full.
    private static let encodedAddresses = Mutex<[String: String]>([:])

    /// The header for one mailbox that GMime would write back as it is, or nil for
    /// anything else (GMime then encodes it). A `Reply-To` carries each message's own
    /// token (or, without a channel `replyTo`, is not remembered), so the cache above
    /// does not serve it, and GMime took 45,000 instructions an email to parse and write
    /// back what is nearly always this shape (callgrind): an `addr-spec`, or a display
    /// name of plain words before `<addr-spec>` (RFC 5322 `atext` only: no quoting, no
    /// encoded word, no IDN). GMime keeps a lone `addr-spec` on the header's line up to
    /// 78 bytes and folds a longer one right after the colon, the address on a line of
    /// its own (a token's plus-address is that long); a name and address it keeps on one
    /// line up to 77 bytes, and a longer one is left to it. Written by hand because GMime
    /// has no cheaper call for it; a test holds it to GMime's output for every input it
    /// takes.
    static func plainAddressHeader(_ name: String, _ mailboxes: String) -> String? {
        let bytes = Array(mailboxes.utf8)
        guard !bytes.isEmpty else { return nil }
        let length = name.utf8.count + 2 + bytes.count
        if bytes.last == UInt8(ascii: ">") {
            // `Display Name <addr-spec>`: GMime folds it before `<` from 78 bytes already.
            guard length < plainLineLimit, let open = bytes.firstIndex(of: UInt8(ascii: "<")), open >= 2, bytes[open - 1] == UInt8(ascii: " "),
                  isPhrase(bytes[..<(open - 1)]), isAddrSpec(bytes[(open + 1)..<(bytes.count - 1)]) else { return nil }
        } else {
            guard isAddrSpec(bytes[...]) else { return nil }
            if length > plainLineLimit { return name + ":\n\t" + mailboxes + "\n" }
        }
        return name + ": " + mailboxes + "\n"
    }

    /// The longest header line GMime leaves unfolded (78 columns, RFC 5322's advice).
    static let plainLineLimit = 78

    /// Words of `atext` joined by single spaces, with nothing a reader would decode as an
    /// RFC 2047 word (`=?`).
    private static func isPhrase(_ bytes: ArraySlice<UInt8>) -> Bool {
        MailAddress.isRuns(bytes, of: MailAddress.isAtext, joinedBy: UInt8(ascii: " ")) && !containsEncodedWordStart(bytes)
    }

    /// `dot-atom@domain`, the domain's labels letters, digits and hyphens, none an IDN's
    /// ASCII form (`xn--`), which GMime would check and could rewrite.
    private static func isAddrSpec(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at], domain = bytes[(at + 1)...]
        func isLabelByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"): true
            default: false
            }
        }
        guard MailAddress.isDotAtom(local), !containsEncodedWordStart(local),
              MailAddress.isRuns(domain, of: isLabelByte, joinedBy: UInt8(ascii: ".")) else { return false }
        // No label starting `xn--` in any case, looked for in place: splitting the domain
        // into arrays was 2,500 instructions an address (callgrind).
        var label = domain.startIndex
        while label < domain.endIndex {
            let end = domain[label...].firstIndex(of: UInt8(ascii: ".")) ?? domain.endIndex
            if end - label >= 4, domain[label] | 0x20 == UInt8(ascii: "x"), domain[label + 1] | 0x20 == UInt8(ascii: "n"),
               domain[label + 2] == UInt8(ascii: "-"), domain[label + 3] == UInt8(ascii: "-") { return false }
            label = end + 1
        }
        return true
    }

    private static func containsEncodedWordStart(_ bytes: ArraySlice<UInt8>) -> Bool {
        zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "=") && $1 == UInt8(ascii: "?") }
    }
}
