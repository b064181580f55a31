import ChimeMIME

/// What the receiving mail servers say of a message (RFC 8601 `Authentication-Results`).
enum AuthenticationResults {
    /// An RFC 5322 comment, `(…)`, built once.
    nonisolated(unsafe) static let comment = /\([^)]*\)/

    /// True when a trusted receiving server says the sender's domain passed DMARC, or
    /// DKIM signed for it (RFC 8601 `Authentication-Results`; any other server's are
    /// ignored, since anyone can write one).
    static func prove(_ sender: String, in mail: ParsedMail, trusted: [String]) -> Bool {
        guard !trusted.isEmpty, let at = sender.lastIndex(of: "@") else { return false }
        let domain = String(sender[sender.index(after: at)...])
        func aligned(_ value: Substring?) -> Bool {
            guard var value = value?.lowercased() else { return false }
            if let at = value.lastIndex(of: "@") { value = String(value[value.index(after: at)...]) }
            return value == domain || domain.hasSuffix("." + value)
        }
        for header in mail.headers where header.name.lowercased() == "authentication-results" {
            let value = header.value.replacing(comment, with: " ").lowercased()
            let parts = value.split(separator: ";").map { $0.split(whereSeparator: \.isWhitespace) }
            guard let id = parts.first?.first, trusted.contains(String(id)) else { continue }
            for result in parts.dropFirst() {
                guard let method = result.first else { continue }
                let properties = Dictionary(result.dropFirst().compactMap { item -> (Substring, Substring)? in
                    let pair = item.split(separator: "=", maxSplits: 1)
                    return pair.count == 2 ? (pair[0], pair[1]) : nil
                }) { first, _ in first }
                if method == "dmarc=pass", properties["header.from"].map({ aligned($0) }) ?? true { return true }
                if method == "dkim=pass", aligned(properties["header.d"] ?? properties["header.i"]) { return true }
            }
        }
        return false
    }
}
