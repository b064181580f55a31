import Foundation

/// RFC 2047 encoded words for header text that is not plain ASCII.
///
/// Written by hand: no well-kept Swift package encodes mail headers, and this is the
/// few lines the standard needs (B encoding, words under 76 characters, split on
/// character boundaries).
public enum MailHeader {
    /// The text as is when it is printable ASCII, else as `=?UTF-8?B?…?=` words.
    public static func encode(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if flat.allSatisfy({ $0.isASCII && !($0.asciiValue! < 32) }) && !flat.contains("=?") {
            return flat
        }
        // 75 characters per word: "=?UTF-8?B?" + "?=" leave 63 for base64, 45 bytes.
        var words: [String] = []
        var chunk = Data()
        for character in flat {
            let bytes = Data(String(character).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=")
                chunk = Data()
            }
            chunk.append(bytes)
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=") }
        return words.joined(separator: "\n ")
    }

    /// `Display Name <addr>` with the display name encoded when needed.
    public static func encodeDisplayName(in mailbox: String) -> String {
        guard let open = mailbox.lastIndex(of: "<") else { return mailbox }
        let name = mailbox[..<open].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.allSatisfy(\.isASCII) else { return mailbox }
        return "\(encode(name)) \(mailbox[open...])"
    }
}

/// Quoted-printable (RFC 2045 §6.7) for message bodies; hand-written for the same reason.
public enum QuotedPrintable {
    public static func encode(_ text: String) -> String {
        var output = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var encoded = ""
            var width = 0
            let bytes = Array(line.utf8)
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let piece: String
                if (byte >= 33 && byte <= 126 && byte != 61) || ((byte == 32 || byte == 9) && !isLast) {
                    piece = String(UnicodeScalar(byte))
                } else {
                    piece = String(format: "=%02X", byte)
                }
                if width + piece.count > 75 {
                    encoded += "=\n"
                    width = 0
                }
                encoded += piece
                width += piece.count
            }
            output += encoded + "\n"
        }
        return String(output.dropLast())
    }
}
