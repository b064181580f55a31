import ChimeXML
import Foundation
import Testing

/// libxml2 compares each attribute of a tag with every one before it: a start tag is read
/// up to `maximumAttributes` attributes, the rest cut, and the text around it is as before.
@Suite("HTML attributes bounded")
struct HTMLAttributeBoundTests {
    func attributes(_ count: Int) -> String { (0..<count).map { " a\($0)=x" }.joined() }

    @Test("a tag of 50,000 attributes gives its text, and a quote container after it is still left out")
    func manyAttributes() {
        let html = "<p" + attributes(50_000) + ">Milk</p><div class=\"gmail_quote\"><blockquote>old text</blockquote></div>"
        #expect(HTMLText.text(of: Array(html.utf8)) == "Milk")
    }

    @Test("a quote container named by an early attribute of a tag cut short is still one; quoted values holding '>' and spaces stay whole")
    func cutKeepsEarlyAttributes() {
        let html = #"<p title="a > b c d e f g h i j k">Eggs</p><div class="gmail_quote""# + attributes(200) + "><blockquote>old</blockquote></div>"
        #expect(HTMLText.text(of: Array(html.utf8)) == "Eggs")
        let ordinary = #"<table class="x" border="0" cellspacing="0" cellpadding="0" width="100%" style="a:b"><tr><td>Bread</td></tr></table>"#
        #expect(HTMLText.text(of: Array(ordinary.utf8)) == "Bread")
    }
}
