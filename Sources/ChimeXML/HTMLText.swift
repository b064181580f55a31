internal import CChimeXML2

/// The text a person sees in an HTML email, read with libxml2's HTML parser (which
/// takes the tag soup mail clients write): one line per block, `<br>` as a line break,
/// scripts and styles dropped, each `<blockquote>` one line `>` (as plain text quotes),
/// and the quote containers of the common clients left out:
/// Gmail's `gmail_quote`, Yahoo's `yahoo_quoted`, Thunderbird's `moz-cite-prefix`,
/// Proton's `protonmail_quote`, Zoho's `zmail_extra`, Thunderbird's signature
/// (`moz-signature`) and forwarded
/// `moz-forward-container`, and
/// Outlook's `appendonsend` / `divRplyFwdMsg`, Outlook.com's and Hotmail's
/// `<hr id="stopSpelling">`, new Outlook's `mail-editor-reference-message-container`,
/// Outlook mobile's and Outlook on the web's `<hr tabindex="-1">` and Samsung Email's
/// `<!-- originalMessage -->`, after which everything is the quoted message; and the
/// mobile apps' signatures: Outlook's `ms-outlook-mobile-signature`, Samsung Email's
/// `composer_signature`, Yahoo's `ymail_android_signature`, K-9's (Thunderbird for
/// Android's) `k9mail-signature`, Spark's `messageSignatureSection` and
/// `messageReplySection`, Outlook on the web's `<div id="Signature">` and desktop
/// Outlook's `<a name="_MailAutoSig">` (after which all is signature and quote). Structure is read before any text rule: these need no
/// language.
public enum HTMLText {
    /// - Parameter html: the page as text (a charset its `<meta>` names is the caller's
    ///   to read first: libxml2 reads every page as UTF-8, and bounds are counted in it).
    public static func text(of html: String) -> String {
        XMLLibrary.initialize()
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        var bytes = Array(html.utf8)
        // libxml2 ends the page at a NUL in some places and not in others: none is read.
        if bytes.contains(0) { bytes.removeAll { $0 == 0 } }
        guard !bytes.isEmpty else { return "" }
        bytes = HTMLAttributeBound.bounded(bytes, maximum: maximumAttributes) ?? bytes
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                htmlReadMemory($0, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        guard let document else { return "" }
        defer { xmlFreeDoc(document) }
        var walker = Walker()
        walker.walk(xmlDocGetRootElement(document))
        return walker.lines.joined(separator: "\n")
    }

    /// The most attributes read of one tag (``HTMLAttributeBound``); mail clients write a
    /// handful (Outlook's tables, about eight).
    static let maximumAttributes = 32

    private struct Walker {
        var lines: [String] = []
        var current = ""
        /// Whether the line under way holds more than the spaces between tags: kept as
        /// text comes, not searched for at each block (a body of 100,000 empty
        /// paragraphs made that search take time growing with the square of its size).
        var hasText = false
        var stopped = false
        var depth = 0
        /// How many `<pre>` elements the walk is in.
        var preformatted = 0
        /// Elements nested deeper than this are read as text-less: no mail client nests
        /// so deep, and walking them would take as much stack as the attacker likes.
        static let deepest = 200

        mutating func walk(_ node: xmlNodePtr?) {
            guard depth < Self.deepest else { return }
            depth += 1
            defer { depth -= 1 }
            var node = node
            while let item = node, !stopped {
                visit(item)
                node = item.pointee.next
            }
        }

        mutating func visit(_ node: xmlNodePtr) {
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content {
                    // In `<pre>` (Thunderbird's and some webmails' plain text), a line
                    // break is one: LF, or CR LF (one Character to Swift) as a base64
                    // part or an IMAP fetch keeps it. Word's conditional markers
                    // (`<![if !supportLists]>`, `<![endif]>`), which libxml2 leaves as
                    // text, are no one's words.
                    let text = Self.withoutConditionals(String(cString: content))
                    let pieces = preformatted > 0 ? text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init) : [text]
                    for (number, piece) in pieces.enumerated() {
                        if number > 0 { breakLine() }
                        var text = piece.replacingWhitespace()
                        // One space where two nodes meet ("<td>4 </td><td> milk</td>").
                        if text.first == " ", current.last == " " { text.removeFirst() }
                        current += text
                        if !hasText, text.contains(where: { $0 != " " }) { hasText = true }
                    }
                }
            case XML_ELEMENT_NODE:
                let name = String(cString: node.pointee.name).lowercased()
                let id = attribute(node, "id"), classes = attribute(node, "class").split(separator: " ")
                // Outlook's own signature (`<a name="_MailAutoSig">`) begins what follows
                // the answer: the signature, then the quoted message.
                if id == "appendonsend" || id.hasPrefix("divRplyFwdMsg") || id == "stopSpelling" || id == "mail-editor-reference-message-container"
                    || classes.contains("OutlookMessageHeader") || name == "hr" && attribute(node, "tabindex") == "-1"
                    || name == "a" && attribute(node, "name") == "_MailAutoSig" {
                    stopped = true
                    return
                }
                if name != "blockquote", classes.contains("gmail_quote") || classes.contains("gmail_quote_container") {
                    walkAnswers(in: node)
                    return
                }
                if name == "blockquote", Self.isIndent(style: attribute(node, "style"), type: attribute(node, "type")) {
                    // Gmail's and Apple Mail's indent (`style="margin:0 0 0 40px;border:none;
                    // padding:0px"`): the person's own text, moved right, not a quote.
                    if hasText { breakLine() }
                    walk(node.pointee.children)
                    if hasText { breakLine() }
                    return
                }
                if name == "blockquote" {
                    // The quote stands as one `>` line, where it was: text rules then know
                    // what closes the person's text above it ("Sent from my iPhone").
                    if hasText { breakLine() }
                    lines.append(">")
                    return
                }
                if ["script", "style", "head", "title"].contains(name)
                    || classes.contains(where: { Self.quoteClasses.contains(String($0)) }) || id.hasPrefix("yahoo_quoted") || Self.signatureIDs.contains(id)
                    || Self.sparkSections.contains(attribute(node, "name")) {
                    return
                }
                // A block ends the line it interrupts; `<br>` always makes one, so an
                // empty paragraph (`<div><br></div>`) is a blank line and two blocks
                // side by side are not.
                let block = Self.blocks.contains(name)
                if name == "br" { breakLine() } else if block && hasText { breakLine() }
                // Cells side by side are words apart: `<td>4</td><td>milk</td>` is "4 milk".
                if name == "td" || name == "th", let last = current.last, last != " " { current += " " }
                if name == "pre" { preformatted += 1 }
                walk(node.pointee.children)
                if name == "pre" { preformatted -= 1 }
                if block && hasText { breakLine() }
            case XML_COMMENT_NODE:
                // Samsung Email's mark above the message it quotes.
                if let content = node.pointee.content, String(cString: content).filter({ !$0.isWhitespace }) == "originalMessage" { stopped = true }
            default:
                break
            }
        }

        /// Gmail's quote container, whose attribution and quotes are not the person's but
        /// whose lines between and after its quotes are (an answer typed inline, as the
        /// Gmail apps and web client write it): what stands before its first quote, a
        /// forwarded message among others, is left out.
        mutating func walkAnswers(in container: xmlNodePtr) {
            guard depth < Self.deepest else { return }
            depth += 1
            defer { depth -= 1 }
            var node = container.pointee.children
            var afterQuote = false
            while let item = node, !stopped {
                if item.pointee.type == XML_ELEMENT_NODE, String(cString: item.pointee.name).lowercased() == "blockquote" {
                    afterQuote = true
                } else if afterQuote {
                    visit(item)
                }
                node = item.pointee.next
            }
        }

        mutating func breakLine() {
            lines.append(current.trimmingSpaces())
            current = ""
            hasText = false
        }

        func attribute(_ node: xmlNodePtr, _ name: String) -> String {
            guard let value = xmlGetProp(node, name) else { return "" }
            defer { chime_xml_free(value) }
            return String(cString: value)
        }

        /// The classes of the clients' quote containers (and Gmail's signature).
        static let quoteClasses: Set<String> = ["gmail_quote", "gmail_quote_container", "gmail_attr", "yahoo_quoted", "moz-cite-prefix",
                                                "moz-forward-container", "gmail_signature", "moz-signature", "protonmail_quote", "zmail_extra",
                                                "k9mail-signature"]

        /// The ids of the mobile apps' signature containers.
        static let signatureIDs: Set<String> = ["ms-outlook-mobile-signature", "composer_signature", "ymail_android_signature",
                                                // Outlook on the web's and new Outlook's.
                                                "Signature"]

        /// `text` without Word's conditional markers, `<![if …]>` and `<![endif]>`, read
        /// once from start to end, byte by byte (searching the rest of the text for each
        /// marker took time growing with the square of a text of many).
        static func withoutConditionals(_ text: String) -> String {
            guard text.contains("<![") else { return text }
            let bytes = Array(text.utf8)
            var kept: [UInt8] = []
            kept.reserveCapacity(bytes.count)
            var index = 0
            // Where the next "]>" is, once looked for: never searched again before it.
            var nextClose = -1
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "<"), index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "!"), bytes[index + 2] == UInt8(ascii: "["),
                   bytes[(index + 3)...].starts(with: "if".utf8) || bytes[(index + 3)...].starts(with: "endif".utf8) {
                    if nextClose < index {
                        nextClose = index + 3
                        while nextClose + 1 < bytes.count, !(bytes[nextClose] == UInt8(ascii: "]") && bytes[nextClose + 1] == UInt8(ascii: ">")) { nextClose += 1 }
                        if nextClose + 1 >= bytes.count { nextClose = bytes.count }
                    }
                    // None closes it: none after it closes either.
                    guard nextClose < bytes.count else { break }
                    index = nextClose + 2
                    continue
                }
                kept.append(bytes[index])
                index += 1
            }
            if index < bytes.count { kept += bytes[index...] }
            return String(decoding: kept, as: UTF8.self)
        }

        /// Whether a `<blockquote>` with this style and type is an indent, as Gmail and
        /// Apple Mail write one (`margin:0 0 0 40px;border:none;padding:0px`): no border (a
        /// quote's line on its left), no padding, and not `type="cite"`.
        static func isIndent(style: String, type: String) -> Bool {
            guard type.lowercased() != "cite" else { return false }
            let style = style.lowercased().filter { !$0.isWhitespace }
            return style.contains("border:none") && style.contains("padding:0") && !style.contains("border-left")
        }

        /// Spark's sections (`<div name="…">`) holding its signature and the quoted message.
        static let sparkSections: Set<String> = ["messageSignatureSection", "messageReplySection"]

        static let blocks: Set<String> = ["p", "div", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "hr", "body", "section", "article"]
    }
}

private extension String {
    /// Runs of HTML whitespace as one space (non-breaking spaces count).
    func replacingWhitespace() -> String {
        var result = ""
        var space = false
        for character in self {
            if character.isWhitespace || character == "\u{00A0}" {
                space = true
            } else {
                if space { result.append(" ") }
                space = false
                result.append(character)
            }
        }
        if space { result.append(" ") }
        return result
    }

    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
