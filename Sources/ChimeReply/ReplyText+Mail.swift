import ChimeMIME
import ChimeXML

extension ReplyText {
    /// The text of a parsed reply that ``extract(_:markers:)`` reads: its first written
    /// part (text or HTML, not an attachment) that holds more than white space, in the
    /// message's order. Where that part is a version of a `multipart/alternative`, the
    /// plain one of its versions is read (`format=flowed` joined again), else its HTML
    /// made text with the clients' quote containers left out (``HTMLText``): some clients
    /// send a plain part of white space alone beside the HTML that holds the answer.
    /// Outside an alternative, the part is read whatever its type: a gateway's
    /// disclaimer or a list's footer added after an HTML-only answer, as a part of its
    /// own, is not the answer. The text part that follows an inline picture is read on
    /// after it: Apple Mail sends a plain message with a picture in it as three parts.
    /// - Parameter mail: the reply as ``ParsedMail`` read it, its parts decoded.
    public static func body(of mail: ParsedMail) -> String {
        let parts = mail.parts
        guard let first = parts.indices.first(where: { parts[$0].isWritten && parts[$0].hasText })
        else { return "" }
        if let alternative = parts[first].alternative {
            let versions = parts.filter { $0.alternative == alternative && $0.isWritten }
            if let plain = versions.first(where: { $0.contentType == "text/plain" && $0.hasText }) {
                return text(of: plain)
            }
            return versions.first { $0.contentType == "text/html" }.map(text(of:)) ?? ""
        }
        var pieces = [text(of: parts[first])]
        var index = first + 1
        while index + 1 < parts.count, parts[index].contentType.hasPrefix("image/"), !parts[index].isAttachment, parts[index].alternative == nil,
              parts[index + 1].isWritten, parts[index + 1].contentType == parts[first].contentType, parts[index + 1].alternative == nil {
            pieces.append(text(of: parts[index + 1]))
            index += 2
        }
        return pieces.joined(separator: "\n")
    }

    /// A written part's text: plain text joined again where it is `format=flowed`, HTML
    /// made text.
    private static func text(of part: ParsedMail.Part) -> String {
        guard part.contentType == "text/html" else {
            let text = part.decodedText
            return part.parameters["format"]?.lowercased() == "flowed"
                ? unflowed(text, deleteSpace: part.parameters["delsp"]?.lowercased() == "yes") : text
        }
        // A charset named only by the page's own <meta> (Outlook's Shift_JIS and
        // windows-1251 pages, a Japanese client's 7-bit ISO-2022-JP, whose escapes are
        // valid UTF-8): the bytes as they came, read in it.
        if part.parameters["charset"] == nil, part.data.contains(0x1B) || String(validating: part.data, as: UTF8.self) == nil,
           let charset = metaCharset(part.data), let text = part.text(inCharset: charset) {
            return HTMLText.text(of: text)
        }
        return HTMLText.text(of: part.decodedText)
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
