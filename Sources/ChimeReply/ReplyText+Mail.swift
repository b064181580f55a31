import ChimeMIME
import ChimeXML

extension ReplyText {
    /// The text of a parsed reply that ``extract(_:markers:)`` reads: its first plain-text
    /// part that is not an attachment (`format=flowed` joined again), else its HTML made
    /// text with the clients' quote containers left out (``HTMLText``).
    /// - Parameter mail: the reply as ``ParsedMail`` read it, its parts decoded.
    public static func body(of mail: ParsedMail) -> String {
        if let plain = mail.parts.first(where: { $0.contentType == "text/plain" && $0.filename == nil }) {
            let text = plain.decodedText
            return plain.parameters["format"]?.lowercased() == "flowed"
                ? unflowed(text, deleteSpace: plain.parameters["delsp"]?.lowercased() == "yes") : text
        }
        if let html = mail.parts.first(where: { $0.contentType == "text/html" && $0.filename == nil }) {
            return HTMLText.text(of: html.text.map { Array($0.utf8) } ?? html.data)
        }
        return ""
    }
}
