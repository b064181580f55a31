import Foundation

/// The parts of an RFC 5322 mailbox as configuration writes it: `Display Name <address>`
/// or a bare address.
public enum Mailbox {
    /// The address alone.
    public static func address(of mailbox: String) -> String {
        let bytes = mailbox.utf8
        guard let open = bytes.lastIndex(of: UInt8(ascii: "<")), let close = bytes.lastIndex(of: UInt8(ascii: ">")), open < close else {
            let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
            if let first = bytes.first, let last = bytes.last, !blank(first), !blank(last) { return mailbox }
            return mailbox.trimmingCharacters(in: .whitespaces)
        }
        return String(mailbox[bytes.index(after: open)..<close])
    }

    /// The address's domain, for Message-IDs and List-Ids; `chime.invalid` when it has none.
    public static func domain(of mailbox: String) -> String {
        let address = address(of: mailbox)
        guard let at = address.utf8.lastIndex(of: UInt8(ascii: "@")) else { return "chime.invalid" }
        let domain = String(address[address.utf8.index(after: at)...])
        return domain.isEmpty ? "chime.invalid" : domain
    }
}
