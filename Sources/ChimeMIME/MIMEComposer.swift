internal import CChimeGMime
import ChimeCore
import Foundation
import Synchronization

/// Builds RFC 5322 / MIME messages: `multipart/alternative` (text, then HTML),
/// `multipart/mixed` around it for attachments.
///
/// Every encoding is GMime's: RFC 2047 encoded words and folding of headers, address
/// lists, RFC 2231 parameters, quoted-printable and base64 bodies (so every line stays
/// within 78 characters). What is written here is only the layout GMime's own writer
/// would produce — header lines, part headers and boundaries — and the one address shape
/// GMime writes back unchanged (`MIMEComposer+Addresses.swift`). GMime's object model
/// (a GObject per part, header and address, then a serializer) cost about 110 µs per
/// reminder, more than all the rest of rendering; its encoders cost a tenth of that.
public enum MIMEComposer {
    /// The message's bytes, with LF line ends (Maildir's convention; SMTP sends CRLF).
    public static func compose(_ message: MailMessage) -> String {
        GMime.initialize()
        var out = ""
        out.reserveCapacity(message.text.utf8.count * 3 + (message.html?.utf8.count ?? 0) + 2048)
        out += "Date: \(message.date)\n"
        // A channel's From and a recipient's To come back message after message; a
        // Reply-To carries the message's own token.
        out += addressHeader("From", message.from, remembered: true)
        out += addressHeader("To", message.to.joined(separator: ", "), remembered: true)
        if let replyTo = message.replyTo { out += addressHeader("Reply-To", replyTo, remembered: false) }
        out += textHeader("Subject", message.subject)
        out += "Message-ID: <\(message.messageID)>\n"
        // Ids from elsewhere (a reply's) only when they are msg-ids by their syntax: no
        // line break, bracket or space can reach the header.
        if let inReplyTo = message.inReplyTo, isMessageID(inReplyTo) { out += "In-Reply-To: <\(inReplyTo)>\n" }
        let references = message.references.filter(isMessageID)
        if !references.isEmpty {
            // One msg-id per line: a fold inside one would break it.
            out += "References: " + references.map { "<\($0)>" }.joined(separator: "\n ") + "\n"
        }
        for header in message.headers { out += textHeader(header.name, header.value) }
        out += "MIME-Version: 1.0\n"

        var body = textPart("plain", message.text)
        if let html = message.html { body = multipart("alternative", [body, textPart("html", html)]) }
        if !message.attachments.isEmpty { body = multipart("mixed", [body] + message.attachments.map(attachmentPart)) }
        out += body.text
        return out
    }

    /// Whether `id` (without brackets) is one RFC 5322 msg-id short enough for its own
    /// header line (`In-Reply-To: <…>` within 998 octets: a reply's id of 990 characters
    /// made a line relays refuse, and the answer never went).
    private static func isMessageID(_ id: String) -> Bool {
        id.utf8.count <= longestMessageID && MailAddress.messageIDs("<\(id)>") == [id]
    }

    /// The longest msg-id a header of ours carries.
    static let longestMessageID = 980

    /// A header: as it is when it is printable ASCII (URLs in angle brackets, msg-ids,
    /// `List-Id` and plain subjects are never encoded: GMime's text encoder turned any long
    /// word into an RFC 2047 word, and mail clients then found no `List-Unsubscribe`),
    /// else in RFC 2047 words, each within RFC 2047's 75 characters
    /// (``withinEncodedWordLimit(_:)``; a line break in a value is encoded, never a new header);
    /// folded at white space only, at 78 columns where it can be.
    static func textHeader(_ name: String, _ value: String) -> String {
        // Its encoder reads GMime's default options, which g_mime_init makes: called
        // first (a test's), it read them as nil and crashed in the encoder.
        GMime.initialize()
        let value = value.utf8.count > longestSpaceRun ? shortenedSpaceRuns(value) : value
        let plain = isPlain(value) && !hasUnfoldableWord(value)
        let encoded = plain ? value : value.contains("=?") ? encodedWords(value) : taken(g_mime_utils_header_encode_text(nil, value, "utf-8"))
        let line = folded("\(sanitizedName(name)): " + encoded)
        return plain ? line : withinEncodedWordLimit(line)
    }

    /// RFC 2047's longest encoded word.
    static let longestEncodedWord = 75

    /// Whether a word of `header` (between white space or line breaks) is an encoded word
    /// longer than ``longestEncodedWord``: one pass over the bytes, nothing allocated
    /// (every header that is not plain ASCII is looked at).
    static func hasLongEncodedWord(_ header: String) -> Bool {
        var run = 0, encoded = false, previous: UInt8 = 0
        for byte in header.utf8 {
            if isWhiteSpace(byte) || byte == UInt8(ascii: "\n") {
                (run, encoded) = (0, false)
            } else {
                if run == 1 { encoded = previous == UInt8(ascii: "=") && byte == UInt8(ascii: "?") }
                run += 1
                if encoded, run > longestEncodedWord { return true }
            }
            previous = byte
        }
        return false
    }

    /// `header` (a folded field GMime encoded: `Subject: =?UTF-8?b?…?=`, `From:
    /// =?utf-8?b?…?= <a@example.org>`) with each encoded word longer than
    /// ``longestEncodedWord`` written again as words within it (white space between two
    /// encoded words is not part of the text), then folded again. GMime cuts its words at
    /// about 38 characters, for its own folding to split further: 17 Japanese characters
    /// were one word of 80 (RFC 2047 allows 75), which strict readers left undecoded.
    static func withinEncodedWordLimit(_ header: String) -> String {
        guard hasLongEncodedWord(header) else { return header }
        var line = header.replacingOccurrences(of: "\n ", with: " ").replacingOccurrences(of: "\n\t", with: "\t")
        if line.hasSuffix("\n") { line.removeLast() }
        // Word by word, the white space between them kept (GMime folds with a tab).
        var out = "", word = ""
        func flush() {
            if word.utf8.count > longestEncodedWord, word.hasPrefix("=?"), word.hasSuffix("?=") {
                out += encodedWords(taken(g_mime_utils_header_decode_text(nil, word)))
            } else {
                out += word
            }
            word = ""
        }
        for character in line {
            if character == " " || character == "\t" {
                flush()
                out.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return folded(out)
    }

    /// `value` as RFC 2047 "B" words of UTF-8, each within RFC 2047's 75 characters and
    /// never splitting a character, a space between them (which a reader drops between two
    /// such words). For a value holding `=?`: GMime's encoder leaves a word that looks
    /// encoded as it is when it is ASCII, and a reader then decoded a title's
    /// "=?utf-8?q?hi?=" into "hi" (or a subject into words the message does not say).
    /// Written by hand: GMime cannot be told to encode such a word.
    static func encodedWords(_ value: String) -> String {
        var words: [String] = []
        var chunk: [UInt8] = []
        func word() {
            words.append("=?utf-8?b?" + Data(chunk).base64EncodedString() + "?=")
            chunk.removeAll(keepingCapacity: true)
        }
        for scalar in value.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            // 39 bytes: 52 characters of base64, 64 with the word's delimiters, so that
            // the first word stays within 78 columns beside a name such as "Subject".
            if chunk.count + bytes.count > 39 { word() }
            chunk += bytes
        }
        if !chunk.isEmpty { word() }
        return words.joined(separator: " ")
    }

    /// Whether a word of `value` is too long for any fold to bring its line within RFC
    /// 5322's 998 characters (a title that is one long URL): such a value goes in RFC
    /// 2047 words, which GMime splits; relays refuse longer lines ("500 Line too long").
    static func hasUnfoldableWord(_ value: String) -> Bool {
        guard value.utf8.count > longestWord else { return false }
        var run = 0
        for byte in value.utf8 {
            run = isWhiteSpace(byte) ? 0 : run + 1
            if run > longestWord { return true }
        }
        return false
    }

    /// The longest run of white space a header keeps: a longer one cannot be folded
    /// without a line of white space alone (obsolete syntax), or past 998 characters.
    static let longestSpaceRun = 78

    /// `value` with each run of white space longer than ``longestSpaceRun`` cut to that
    /// length (a title of a thousand spaces between two words shows the same).
    static func shortenedSpaceRuns(_ value: String) -> String {
        var kept: [UInt8] = [], run = 0, cut = false
        for byte in value.utf8 {
            run = isWhiteSpace(byte) ? run + 1 : 0
            if run > longestSpaceRun { cut = true } else { kept.append(byte) }
        }
        return cut ? String(decoding: kept, as: UTF8.self) : value
    }

    /// A header's white space (RFC 5322's WSP): where it folds, and what separates words.
    static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// The longest word a header keeps as it is: with the field's name before it on its
    /// line, well within 998 characters.
    public static let longestWord = 900

    /// Printable ASCII (tabs too) holding nothing a reader would take for an encoded word.
    /// Read from the string's own storage (``Swift/String/withStoredUTF8(_:)``): over
    /// an email's headers, reading `utf8` as a collection was 10,000 instructions.
    static func isPlain(_ value: String) -> Bool {
        value.withStoredUTF8 { utf8 in
            var previous: UInt8 = 0
            for byte in utf8 {
                guard (byte >= 0x20 && byte < 0x7F) || byte == 0x09 else { return false }
                if previous == UInt8(ascii: "="), byte == UInt8(ascii: "?") { return false }
                previous = byte
            }
            return true
        }
    }

    /// A header line folded before white space (spaces or tabs, which begin the next
    /// line, so that unfolding gives the line back) so that lines keep within 78 columns
    /// where the words allow (a longer word stays whole: RFC 5322 allows 998). A run of
    /// white space goes to the next line whole, with the word after it: a line of white
    /// space alone is obsolete syntax (RFC 5322, 4.2), so white space ending the value
    /// is left out where it would pass 998 characters.
    static func folded(_ line: String) -> String {
        guard line.utf8.count > 78 else { return line + "\n" }
        // By bytes: a header line here is ASCII (plain, or GMime's encoded words), and
        // splitting it as characters had been a fifth of composing an email.
        let bytes = Array(line.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 38 + 1)
        // How long the line being written is; how many pieces were written (the field
        // name keeps the value's first word beside it: a fold right after the colon is
        // legal, but leaves the name alone on its line).
        var length = 0, pieces = 0
        var start = 0
        while start < bytes.count {
            // A word with the white space before it (none before the field's name).
            var end = start
            while end < bytes.count, isWhiteSpace(bytes[end]) { end += 1 }
            let hasWord = end < bytes.count
            while end < bytes.count, !isWhiteSpace(bytes[end]) { end += 1 }
            let piece = bytes[start..<end]
            // White space ending the value, with no room left for it: left out rather
            // than written on a line of its own.
            if !hasWord, pieces >= 2, length + piece.count > 998 { break }
            if pieces >= 2, (hasWord && length + piece.count > 78) || length + piece.count > 998 {
                out.append(UInt8(ascii: "\n"))
                length = 0
            }
            out += piece
            length += piece.count
            pieces += 1
            start = end
        }
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    /// A `text/SUBTYPE` part in UTF-8: 7-bit as it is when it is ASCII in short lines,
    /// else in the transfer encoding GMime finds best (quoted-printable for mostly-ASCII
    /// text, base64 otherwise).
    private static func textPart(_ subtype: String, _ text: String) -> Part {
        let bytes = Array(text.utf8)
        let ascii = bytes.allSatisfy { $0 < 0x80 }
        var head = "Content-Type: text/\(subtype); charset=\(ascii ? "us-ascii" : "utf-8")\n"
        if ascii && bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F || $0 == 0x0A || $0 == 0x09 }) && shortLines(bytes) {
            return Part(text: head + "\n" + (text.hasSuffix("\n") || text.isEmpty ? text : text + "\n"), encoded: false)
        }
        let encoding = bytes.withUnsafeBufferPointer { g_mime_utils_best_encoding($0.baseAddress, $0.count) }
        head += "Content-Transfer-Encoding: \(String(cString: g_mime_content_encoding_to_string(encoding)))\n"
        return Part(text: encoded(bytes, encoding, after: head + "\n"), encoded: true)
    }

    /// A file as a base64 part, its name in RFC 2231 form where it needs one.
    private static func attachmentPart(_ attachment: MailMessage.Attachment) -> Part {
        let type = attachment.contentType.wholeMatch(of: /[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(; charset=[A-Za-z0-9_.:-]+)?/) != nil
            ? attachment.contentType.lowercased() : "application/octet-stream"
        let disposition = g_mime_content_disposition_new()!
        g_mime_content_disposition_set_disposition(disposition, "attachment")
        // Control characters (a line break would end the header and start another, or the
        // part's body) never reach the header: a file may be named anything on Linux.
        let name = String(String.UnicodeScalarView(attachment.filename.unicodeScalars.map { $0.properties.generalCategory == .control ? "_" : $0 }))
        let encodedDisposition: String
        if name.contains("=?") {
            // What a reader would decode as an RFC 2047 word (GMime's parser does, in a
            // quoted value) goes in RFC 2231's form, which no reader decodes twice; GMime
            // writes an ASCII value quoted whatever method it is asked for.
            encodedDisposition = rfc2231Disposition(name)
        } else {
            g_mime_content_disposition_set_parameter(disposition, "filename", name)
            encodedDisposition = taken(g_mime_content_disposition_encode(disposition, nil))
        }
        chime_gmime_unref(disposition)
        return Part(text: encoded(attachment.data, GMIME_CONTENT_ENCODING_BASE64,
                                  after: "Content-Type: \(type)\nContent-Disposition:\(encodedDisposition)Content-Transfer-Encoding: base64\n\n"),
                    encoded: true)
    }

    /// ` attachment;` and `filename` in RFC 2231's extended form (UTF-8, each byte
    /// outside RFC 2045's token characters as `%XX`), in numbered sections of at most 50
    /// characters, one to a line: written by hand, as GMime keeps an ASCII value quoted.
    static func rfc2231Disposition(_ name: String) -> String {
        // Each character as written, its bytes together (a section never ends inside
        // one, for readers that decode each section alone).
        let pieces = name.unicodeScalars.map { String($0).addingPercentEncoding(withAllowedCharacters: attributeCharacters) ?? "" }
        var sections = [""]
        for piece in pieces {
            if sections[sections.count - 1].utf8.count + piece.utf8.count > 50 { sections.append("") }
            sections[sections.count - 1] += piece
        }
        let written = sections.enumerated().map { index, section in "filename*\(index)*=" + (index == 0 ? "utf-8''" : "") + section }
        return " attachment;\n " + written.joined(separator: ";\n ") + "\n"
    }

    /// RFC 2231's attribute-char: RFC 2045's token characters but `*`, `'` and `%`.
    private static let attributeCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")

    /// Parts under one boundary that none of them contains. A boundary starts with `=-`,
    /// which neither quoted-printable nor base64 can produce, so only a part holding
    /// those two characters needs searching.
    private static func multipart(_ subtype: String, _ parts: [Part]) -> Part {
        var boundary: String
        repeat {
            boundary = "=-" + randomToken()
        } while parts.contains { !$0.encoded && $0.text.utf8.containsBoundaryStart && $0.text.contains(boundary) }
        var out = "Content-Type: multipart/\(subtype); boundary=\"\(boundary)\"\n\n"
        out.reserveCapacity(parts.reduce(256) { $0 + $1.text.utf8.count })
        // The line break before a boundary belongs to it: a part ending in one keeps it.
        // Appended piece by piece: an interpolation would copy each part once more.
        for part in parts {
            out += "--"
            out += boundary
            out += "\n"
            out += part.text
            out += "\n"
        }
        out += "--"
        out += boundary
        out += "--\n"
        return Part(text: out, encoded: false)
    }

    /// A MIME entity's headers and body, and whether its body came out of an encoder
    /// (whose output never holds `=-`).
    private struct Part {
        var text: String
        var encoded: Bool
    }

    /// 22 characters of `[A-Za-z0-9]` from 128 bits of a generator seeded once a process
    /// from the system's. Drawn from the system for each message, the two `getrandom`
    /// calls were 1 % of a delivered email's CPU (perf, `chime-bench --smtp`); a boundary
    /// need not be secret, only absent from its parts, and one that a part holds is
    /// drawn again (``multipart(_:_:)``).
    private static func randomToken() -> String {
        var words = boundaryBits.withLock { ($0.next(), $0.next()) }
        var token = [UInt8]()
        token.reserveCapacity(22)
        for index in 0..<22 {
            if index == 11 { words.0 = words.1 }
            token.append(boundaryAlphabet[Int(words.0 % 62)])
            words.0 /= 62
        }
        return String(decoding: token, as: UTF8.self)
    }

    private static let boundaryAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let boundaryBits = Mutex(SplitMix(seed: {
        var system = SystemRandomNumberGenerator()
        return system.next()
    }()))

    /// `head`, then `bytes` through one of GMime's encoders, ending with a line break
    /// (when there are any). The encoder writes straight into the string's storage: into
    /// a zeroed array, then copied and validated into a string, then joined to its head,
    /// the part was copied three times (13,000 instructions an email, callgrind).
    private static func encoded(_ bytes: [UInt8], _ encoding: GMimeContentEncoding, after head: String) -> String {
        var state = GMimeEncoding()
        g_mime_encoding_init_encode(&state, encoding)
        return head.withStoredUTF8 { head in
            // The encoder's bound, and a line break.
            let capacity = head.count + g_mime_encoding_outlen(&state, bytes.count) + 4 + 1
            return String(unsafeUninitializedCapacity: capacity) { output in
                _ = output.initialize(fromContentsOf: head)
                let written = bytes.withUnsafeBufferPointer { input in
                    input.baseAddress.map { base in
                        base.withMemoryRebound(to: CChar.self, capacity: input.count) { source in
                            (output.baseAddress! + head.count).withMemoryRebound(to: CChar.self, capacity: capacity - head.count) {
                                g_mime_encoding_flush(&state, source, input.count, $0)
                            }
                        }
                    } ?? 0
                }
                var length = head.count + written
                if written > 0 && output[length - 1] != UInt8(ascii: "\n") {
                    output[length] = UInt8(ascii: "\n")
                    length += 1
                }
                return length
            }
        }
    }

    /// Whether no line is longer than 78 bytes.
    private static func shortLines(_ bytes: [UInt8]) -> Bool {
        var column = 0
        for byte in bytes {
            column = byte == 0x0A ? 0 : column + 1
            if column > 78 { return false }
        }
        return true
    }

    /// A header name as RFC 5322 allows it (printable ASCII but `:`); anything else is dropped.
    private static func sanitizedName(_ name: String) -> String {
        if name.withStoredUTF8({ $0.allSatisfy { $0 > 32 && $0 < 127 && $0 != 0x3A } }) { return name }
        return String(name.unicodeScalars.filter { $0.value > 32 && $0.value < 127 && $0 != ":" })
    }

    /// A GLib-allocated string as a Swift one, freed.
    private static func taken(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { chime_gmime_free(pointer) }
        return String(cString: pointer)
    }
}

extension String.UTF8View {
    /// Whether `=-` occurs.
    fileprivate var containsBoundaryStart: Bool {
        var previous: UInt8 = 0
        for byte in self {
            if previous == 0x3D && byte == 0x2D { return true }
            previous = byte
        }
        return false
    }
}
