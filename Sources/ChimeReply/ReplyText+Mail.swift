import ChimeMIME
import ChimeXML

extension ReplyText {
    /// The text of a parsed reply that ``extract(_:markers:)`` reads: its first plain-text
    /// part that is not an attachment (`format=flowed` joined again), else its HTML made
    /// text with the clients' quote containers left out (``HTMLText``). A plain part of
    /// white space alone, which some clients send beside the HTML that holds the answer,
    /// is passed over.
    /// - Parameter mail: the reply as ``ParsedMail`` read it, its parts decoded.
    public static func body(of mail: ParsedMail) -> String {
        let hasHTML = mail.parts.contains { $0.contentType == "text/html" && $0.filename == nil }
        if let plain = mail.parts.first(where: { $0.contentType == "text/plain" && $0.filename == nil }),
           case let text = plain.decodedText, !hasHTML || text.contains(where: { !$0.isWhitespace }) {
            return plain.parameters["format"]?.lowercased() == "flowed"
                ? unflowed(text, deleteSpace: plain.parameters["delsp"]?.lowercased() == "yes") : text
        }
        if let html = mail.parts.first(where: { $0.contentType == "text/html" && $0.filename == nil }) {
            // A charset named only by the page's own <meta> (Outlook's Shift_JIS and
            // windows-1251 pages, a Japanese client's 7-bit ISO-2022-JP, whose escapes
            // are valid UTF-8): the bytes as they came, read in it.
            if html.parameters["charset"] == nil, html.data.contains(0x1B) || String(validating: html.data, as: UTF8.self) == nil,
               let charset = metaCharset(html.data), let text = html.text(inCharset: charset) {
                return HTMLText.text(of: text)
            }
            return HTMLText.text(of: html.decodedText)
        }
        return ""
    }

    /// The charset an HTML page names in its first 2 KB (`<meta charset="…">` or
    /// `content="text/html; charset=…"`), as a name of letters, digits and `-_.:`.
    static func metaCharset(_ html: [UInt8]) -> String? {
        let head = html.prefix(2048).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard let key = head.firstRange(of: Array("charset=".utf8)) else { return nil }
        let name = head[key.upperBound...].drop { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") || $0 == 0x20 }
            .prefix { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":")].contains($0) }
        guard (1...40).contains(name.count) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }
}
