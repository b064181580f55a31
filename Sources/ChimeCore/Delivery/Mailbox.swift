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

    /// The address alone as an SMTP envelope names it: its domain, when beyond ASCII, in
    /// its ASCII form (IDNA), which every relay takes, with or without SMTPUTF8: a relay
    /// that offers it may pass the message to one that does not. A local part beyond ASCII
    /// is left to the relay (RFC 6531). An address whose domain is no internationalized
    /// domain name (``isValid(_:)`` refuses it) is left as it is.
    public static func envelopeAddress(of mailbox: String) -> String {
        let address = address(of: mailbox)
        guard !isASCII(address), let at = address.utf8.lastIndex(of: UInt8(ascii: "@")),
              let domain = asciiDomain(address[address.utf8.index(after: at)...]) else { return address }
        return address[..<at] + "@" + domain
    }

    /// An address as addresses are compared (a reply's sender, a bounce's recipient, an
    /// address marked undeliverable): alone, in lower case, its domain in ASCII; so
    /// `Ida <Ida@Bücher.example>` and `ida@xn--bcher-kva.example` are the same person.
    public static func key(of mailbox: String) -> String {
        envelopeAddress(of: mailbox).lowercased()
    }

    /// A domain as domains are compared (an address's against an Authentication-Results
    /// header's): in lower case, in its ASCII form.
    public static func domainKey(_ domain: some StringProtocol) -> String {
        (asciiDomain(Substring(domain)) ?? String(domain)).lowercased()
    }

    /// `domain` in its ASCII form (IDNA: UTS #46 processing, which maps case and width),
    /// as it is when already ASCII; nil when it is no internationalized domain name.
    /// Foundation's (`URLComponents`, over ICU), which writes what it cannot convert
    /// percent-encoded instead.
    static func asciiDomain(_ domain: Substring) -> String? {
        guard !isASCII(domain) else { return String(domain) }
        var components = URLComponents()
        components.host = String(domain)
        guard let ascii = components.encodedHost, isASCII(ascii), !ascii.contains("%") else { return nil }
        return ascii
    }

    /// What may stand just before the `+` of a plus-address (`bot+TOKEN@…`), as the reader
    /// of replies and bounces looks for it, and as `chime check` holds a `{token}` to.
    public static func mayPrecedePlus(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "%"), UInt8(ascii: "-"): true
        default: false
        }
    }

    private static func isASCII(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether `text` is one RFC 5322 mailbox: `local@domain`, or `Display Name
    /// <local@domain>` (a display name of words or a quoted string). The local part is a
    /// dot-atom or a quoted string, the domain a dot-atom or an address literal; UTF-8
    /// (RFC 6531) is taken in both, a domain beyond ASCII when it is an internationalized
    /// domain name (``envelopeAddress(of:)``).
    public static func isValid(_ text: String) -> Bool {
        let trimmed = Substring(text).trimmingBlanks
        if let open = trimmed.lastIndex(of: "<") {
            guard trimmed.last == ">" else { return false }
            let spec = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            return isAddrSpec(spec) && isDisplayName(trimmed[..<open])
        }
        return isAddrSpec(trimmed)
    }

    /// `local@domain` as SMTP takes it (RFC 5321 §4.1.2, with RFC 6531's UTF-8): the
    /// local part a dot-atom or a quoted string, the domain a dot-atom or an address
    /// literal. No control character anywhere: one would end the header or the command
    /// it is written in.
    static func isAddrSpec(_ spec: Substring) -> Bool {
        guard let at = spec.lastIndex(of: "@") else { return false }
        let local = spec[..<at], domain = spec[spec.index(after: at)...]
        let localOK = local.first == "\"" ? isQuotedString(local.unicodeScalars) : isDotAtom(local)
        let domainOK = domain.first == "[" ? domain.last == "]" && domain.count > 2
            && domain.dropFirst().dropLast().unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) && !"[]\\".unicodeScalars.contains($0) }
            : isDotAtom(domain) && asciiDomain(domain) != nil
        return localOK && domainOK
    }

    /// One whole quoted string: printable characters (or UTF-8 beyond ASCII) between two
    /// quotes, a quote or a backslash inside only after a backslash.
    static func isQuotedString(_ scalars: Substring.UnicodeScalarView) -> Bool {
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return false }
        var escaped = false
        for scalar in scalars.dropFirst().dropLast() {
            guard !isControl(scalar) else { return false }
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                return false
            }
        }
        return !escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    /// Atoms joined by single dots; an atom is RFC 5322's atext or any non-ASCII character.
    static func isDotAtom(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.first != ".", text.last != ".", !text.contains("..") else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x7F || scalar == "." || (scalar.value > 0x20 && scalar.value < 0x7F && !"()<>[]:;@\\,\"".unicodeScalars.contains(scalar))
        }
    }

    /// A phrase before `<…>` (empty is allowed): words, quoted strings and comments, as
    /// GMime reads them back. Outside quotes, none of RFC 5322's specials but the dot
    /// (`John Q. Public`), and no backslash; quotes and parentheses closed; no control
    /// character but white space. Anything else made GMime write the header empty.
    static func isDisplayName(_ name: Substring) -> Bool {
        var quoted = false, escaped = false, comments = 0
        for scalar in name.unicodeScalars {
            if escaped {
                escaped = false
                guard !isControl(scalar) else { return false }
                continue
            }
            if isControl(scalar), scalar != "\t", scalar != "\n", scalar != "\r" { return false }
            switch scalar {
            case "\\" where quoted || comments > 0: escaped = true
            case "\"" where comments == 0: quoted.toggle()
            case "(" where !quoted: comments += 1
            case ")" where !quoted:
                guard comments > 0 else { return false }
                comments -= 1
            case "<", ">", "@", ",", ";", ":", "[", "]", "\\":
                guard quoted || comments > 0 else { return false }
            default: break
            }
        }
        return !quoted && !escaped && comments == 0
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    var trimmingBlanks: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
