import Foundation

/// The parts of an RFC 5322 mailbox as configuration writes it: `Display Name <address>`
/// or a bare address.
public enum Mailbox {
    /// The address alone.
    public static func address(of mailbox: String) -> String {
        guard let open = mailbox.lastIndex(of: "<"), let close = mailbox.lastIndex(of: ">"), open < close else {
            return mailbox.trimmingCharacters(in: .whitespaces)
        }
        return String(mailbox[mailbox.index(after: open)..<close])
    }

    /// The address's domain, for Message-IDs and List-Ids; `chime.invalid` when it has none.
    public static func domain(of mailbox: String) -> String {
        let address = address(of: mailbox)
        let domain = address.split(separator: "@").last.map(String.init) ?? ""
        return domain.isEmpty || !address.contains("@") ? "chime.invalid" : domain
    }
}
