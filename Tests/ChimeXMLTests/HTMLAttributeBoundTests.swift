import CChimeXML2
@testable import ChimeXML
import Foundation
import Testing

/// libxml2 compares each attribute of a tag with every one before it: a start tag is read
/// up to `maximumAttributes` attributes, the rest cut, and the text around it is as before.
/// What counts is what libxml2 itself reads: each page here is read back by libxml2 and
/// its elements' attributes counted.
@Suite("HTML attributes bounded")
struct HTMLAttributeBoundTests {
    func attributes(_ count: Int) -> String { (0..<count).map { " a\($0)=x" }.joined() }

    @Test("a tag of 50,000 attributes gives its text, and a quote container after it is still left out")
    func manyAttributes() {
        let html = "<p" + attributes(50_000) + ">Milk</p><div class=\"gmail_quote\"><blockquote>old text</blockquote></div>"
        #expect(HTMLText.text(of: html) == "Milk")
    }

    @Test("a quote container named by an early attribute of a tag cut short is still one; quoted values holding '>' and spaces stay whole")
    func cutKeepsEarlyAttributes() {
        let html = #"<p title="a > b c d e f g h i j k">Eggs</p><div class="gmail_quote""# + attributes(200) + "><blockquote>old</blockquote></div>"
        #expect(HTMLText.text(of: html) == "Eggs")
        let ordinary = #"<table class="x" border="0" cellspacing="0" cellpadding="0" width="100%" style="a:b"><tr><td>Bread</td></tr></table>"#
        #expect(HTMLText.text(of: ordinary) == "Bread")
    }

    /// Pages whose attributes the first bound (a name after a space outside quotes) did not
    /// count, each with 2,000 attributes as libxml2 reads it; and whether their text
    /// survives the bound (a page rewritten to have one reading may lose it).
    static let unspaced: [(shape: String, html: String, keepsText: Bool)] = {
        let names = (0..<2_000).map { "c\($0)" }
        let spaced = names.joined(separator: " ")
        // 2,000 names of 100 letters, written as one: libxml2 reads a name to 100 letters.
        let longName = (0..<2_000).map { serial in
            "q" + String(repeating: "a", count: 95) + (0..<4).map { String(UnicodeScalar(UInt8(97 + serial >> ($0 * 4) & 15))) }.joined()
        }.joined()
        return [
            ("values run together", "<p a=\"\"" + names.map { $0 + "=\"\"" }.joined() + ">Milk</p>", true),
            ("single-quoted values run together", "<p a=''" + names.map { $0 + "=''" }.joined() + ">Milk</p>", true),
            ("a quote in junk, skipped to the next blank", "<p /b=\" " + spaced + " \">Milk</p>", true),
            ("a quote after a name without value", "<p a\"b " + spaced + ">Milk</p>", true),
            ("a quote in a comment", "<!-- <a title=\" --><p " + spaced + ">Milk</p>\"", true),
            ("a comment closed by --!>", "<!-- <a title=\" --!><p " + spaced + ">Milk</p>\"", true),
            ("a quote in a script", "<script><a title=\"</script><p " + spaced + ">Milk</p>\"", true),
            ("a style's text starting with another element's end tag", "<p><style></p><div " + spaced + ">Milk</div>", false),
            ("a script's text starting with a tag that closes it", "<script><noscript " + spaced + ">Milk</noscript>", false),
            ("a style's text starting with a tag that closes it", "<style><body " + spaced + ">Milk</body>", false),
            ("an end tag longer than the script's inside it", "<script></scripts><a title=\"</script><p " + spaced + ">Milk</p>\"", true),
            ("a DOCTYPE literal holding '>' and a quote", "<!DOCTYPE html SYSTEM \"x><p title=\"><p " + spaced + ">Milk</p>\"", false),
            ("a processing instruction's name, a letter beyond ASCII", "<?é <p title=\"><p " + spaced + ">Milk</p>\"", false),
            ("'<?' and a character beyond ASCII that is no letter", "<?… <p " + spaced + ">Milk</p>", true),
            ("names of more than 100 characters", "<p " + longName + ">Milk</p>", true),
            ("NUL between attributes", "<p a\u{0}" + names.joined(separator: "\u{0} ") + ">Milk</p>", true),
            ("an end tag's junk holding a quote", "</x \"><p " + spaced + ">Milk</p>\"", true),
            // A DOCTYPE taken out must not join what stood on either side of it.
            ("'<' and a tag's name joined across a DOCTYPE", "<<!doctype>p " + spaced + ">Milk</p>", false),
            ("an end tag joined across a DOCTYPE", "</<!doctype>p <b t=\"><p " + spaced + ">Milk</p>\">", false),
            ("a processing instruction joined across a DOCTYPE", "<?<!doctype>x <b t=\"><p " + spaced + ">Milk</p>\">", false),
            ("a comment joined across a DOCTYPE", "<!-<!doctype>- <b t=\"--><p " + spaced + ">Milk</p>\">", false),
            ("a script joined across a DOCTYPE", "<<!doctype>script><b t=\"</script><p " + spaced + ">Milk</p>\">", false),
        ]
    }()

    @Test("libxml2 reads at most 32 attributes of any tag, however the attributes are written", arguments: 0..<unspaced.count)
    func unspacedAttributes(_ index: Int) throws {
        let (shape, html, keepsText) = Self.unspaced[index]
        var bytes = Array(html.utf8)
        bytes.removeAll { $0 == 0 }
        // The shape is a real one: unbounded, libxml2 reads more than the bound (those
        // joined across a DOCTYPE would, were it only taken out).
        let joined = html.contains("<!doctype>")
        let unbounded = joined ? Array(html.replacingOccurrences(of: "<!doctype>", with: "").utf8) : bytes
        #expect(Self.mostAttributes(unbounded) > HTMLText.maximumAttributes, "\(shape)")
        let bounded = try #require(HTMLAttributeBound.bounded(bytes, maximum: HTMLText.maximumAttributes), "\(shape)")
        #expect(Self.mostAttributes(bounded) <= HTMLText.maximumAttributes, "\(shape)")
        if keepsText { #expect(HTMLText.text(of: html).contains("Milk"), "\(shape)") }
    }

    @Test("pages of random pieces of tags, quotes, comments, scripts and DOCTYPEs: libxml2 reads at most 32 attributes of any tag")
    func randomPages() {
        let inTag = [" ", "=", "\"", "'", "=\"", "\"\"", "''", "/", "\t", "\n", "é", "&", "x", "-", "1"]
        let pieces = [">", "/>", "<p", "<script>", "</script>", "</scripts>", "<style>", "</style>", "<noscript", "<body", "<!--", "-->", "--!>",
                      "<?", "<?x", "<?é", "<?…", "<!DOCTYPE", "<!doctype x SYSTEM \"", "<!doctype>", "</p", "</", "<", "<!-", "<_",
                      "<script/>", "<p/>"]
        var random = SplitMix(seed: 0x5EED)
        var exceeded = 0
        for page in 0..<1_000 {
            var html: [UInt8] = []
            var serial = 0
            for _ in 0..<3_000 {
                let roll = random.next() % 1_000
                if roll < 700 {
                    // A fresh name, after a blank or not: distinct names are what cost.
                    serial += 1
                    html += Array((random.next() % 2 == 0 ? " n\(serial)" : "n\(serial)").utf8)
                } else if roll < 985 {
                    html += Array(inTag[Int(random.next() % UInt64(inTag.count))].utf8)
                } else {
                    html += Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8)
                }
            }
            if Self.mostAttributes(html) > HTMLText.maximumAttributes { exceeded += 1 }
            // At the bound, and at a bound of 2, which more tags reach.
            for maximum in [HTMLText.maximumAttributes, 2] {
                let bounded = HTMLAttributeBound.bounded(html, maximum: maximum) ?? html
                let most = Self.mostAttributes(bounded)
                #expect(most <= maximum, "page \(page): \(most) attributes in one tag, over \(maximum)")
            }
        }
        // The pages put libxml2 past the bound before they were bounded.
        #expect(exceeded > 250)
    }

    @Test("pages without many attributes are left as they are")
    func ordinaryPagesUntouched() {
        let page = #"<!-- x --><html><head><style>p { a: "b" }</style></head><body><p class="a" id='b' title=x>Milk</p><script>if (a</b) { x = "</div>" }</script></body></html>"#
        #expect(HTMLAttributeBound.bounded(Array(page.utf8), maximum: HTMLText.maximumAttributes) == nil)
    }

    /// The most attributes of one element in the tree libxml2 builds of `html`, read as
    /// ``HTMLText`` reads it.
    static func mostAttributes(_ html: [UInt8]) -> Int {
        guard !html.isEmpty else { return 0 }
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        let document = html.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                htmlReadMemory($0, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        guard let document else { return 0 }
        defer { xmlFreeDoc(document) }
        var most = 0
        var pending: [xmlNodePtr] = []
        var top = document.pointee.children
        while let item = top {
            if item.pointee.type == XML_ELEMENT_NODE { pending.append(item) }
            top = item.pointee.next
        }
        while let node = pending.popLast() {
            var count = 0
            var attribute = node.pointee.properties
            while let item = attribute {
                count += 1
                attribute = item.pointee.next
            }
            most = max(most, count)
            var child = node.pointee.children
            while let item = child {
                if item.pointee.type == XML_ELEMENT_NODE { pending.append(item) }
                child = item.pointee.next
            }
        }
        return most
    }
}

/// A small seeded generator (SplitMix64), so a failing page can be made again.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
