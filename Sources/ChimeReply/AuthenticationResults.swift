import ChimeCore
import ChimeMIME

/// What the receiving mail servers say of a message: `Authentication-Results` (RFC 8601)
/// read by its grammar, written here because no package this project may use parses it.
///
/// Only headers whose authserv-id is trusted count (anyone can write one; the trusted
/// server must remove those claiming its name, as RFC 8601 §5 asks of it). A sender is
/// proved by `dmarc=pass` with `header.from` equal to the sender's domain, or by
/// `dkim=pass` with `header.d` equal to it: alignment is strict, organizational domains
/// (a signature by `example.org` for `mail.example.org`) are not taken.
public struct AuthenticationResults: Equatable, Sendable {
    /// One method's result: `dkim=pass header.d=example.org`.
    public struct Result: Equatable, Sendable {
        /// The method, lower case, without its version (`dkim`).
        public var method: String
        /// Lower case (`pass`, `fail`…).
        public var result: String
        /// `ptype.property` (lower case) → value as written (quotes taken off).
        public var properties: [String: String]
    }

    /// The server that wrote the header (lower case).
    public var authservID: String
    public var results: [Result]

    /// Parses one header's raw value; nil when it is not one (no authserv-id, or a
    /// result that breaks the grammar). Linear in the value's length.
    public init?(_ value: String) {
        var lexer = Lexer(Array(value.utf8))
        guard case .value(let id)? = lexer.next() else { return nil }
        authservID = id.lowercased()
        results = []
        var item = lexer.next()
        // An optional version after the authserv-id.
        if case .value(let version)? = item, version.allSatisfy(\.isNumber) { item = lexer.next() }
        while let current = item {
            guard current == .semicolon else { return nil }
            guard case .value(let method)? = lexer.next() else { return nil }
            if method.lowercased() == "none" {
                item = lexer.next()
                continue
            }
            guard lexer.next() == .equals, case .value(let result)? = lexer.next() else { return nil }
            var entry = Result(method: String(method.lowercased().split(separator: "/").first ?? ""), result: result.lowercased(), properties: [:])
            item = lexer.next()
            // reasonspec and propspecs: NAME=VALUE until the next `;`.
            while case .value(let name)? = item {
                guard lexer.next() == .equals, case .value(let value)? = lexer.next() else { return nil }
                if entry.properties[name.lowercased()] == nil { entry.properties[name.lowercased()] = value }
                item = lexer.next()
            }
            results.append(entry)
        }
    }

    /// True when a trusted receiving server proves `sender`'s domain: DMARC passed for
    /// it, or DKIM signed for it.
    public static func prove(_ sender: String, in mail: ParsedMail, trusted: [String]) -> Bool {
        guard !trusted.isEmpty, let at = sender.lastIndex(of: "@") else { return false }
        let domain = Mailbox.domainKey(sender[sender.index(after: at)...])
        let trustedIDs = Set(trusted.map { $0.lowercased() })
        for raw in mail.rawValues("Authentication-Results") {
            guard let header = AuthenticationResults(raw), trustedIDs.contains(header.authservID) else { continue }
            for result in header.results where result.result == "pass" {
                switch result.method {
                case "dmarc" where result.properties["header.from"].map(Mailbox.domainKey) == domain: return true
                case "dkim" where result.properties["header.d"].map(Mailbox.domainKey) == domain: return true
                default: continue
                }
            }
        }
        return false
    }

    /// The header's lexemes: values (tokens and quoted strings run together, as
    /// `"a b"@example.org`), `=` and `;`; comments and white space only separate.
    struct Lexer {
        enum Lexeme: Equatable {
            case value(String)
            case equals
            case semicolon
        }

        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func next() -> Lexeme? {
            skipSeparators()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "="):
                index += 1
                return .equals
            case UInt8(ascii: ";"):
                index += 1
                return .semicolon
            default:
                var value: [UInt8] = []
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") {
                        index += 1
                        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                            value.append(bytes[index])
                            index += 1
                        }
                        index += 1
                    } else if Self.ends(byte) {
                        break
                    } else {
                        value.append(byte)
                        index += 1
                    }
                }
                return .value(String(decoding: value, as: UTF8.self))
            }
        }

        /// White space and comments (which nest, and may hold quoted pairs).
        mutating func skipSeparators() {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0D || byte == 0x0A {
                    index += 1
                } else if byte == UInt8(ascii: "(") {
                    var depth = 0
                    while index < bytes.count {
                        switch bytes[index] {
                        case UInt8(ascii: "\\"): index += 1
                        case UInt8(ascii: "("): depth += 1
                        case UInt8(ascii: ")"): depth -= 1
                        default: break
                        }
                        index += 1
                        if depth == 0 { break }
                    }
                } else {
                    return
                }
            }
        }

        /// A byte that ends a value.
        static func ends(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0x0D || byte == 0x0A
                || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "(")
        }
    }
}
