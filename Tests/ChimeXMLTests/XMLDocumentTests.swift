import ChimeCore
import ChimeXML
import Foundation
import Testing

@Suite("XML documents")
struct XMLDocumentTests {
    private func parse(_ text: String, path: String = "test.xml") throws -> XMLDocument {
        try XMLDocument(bytes: Array(text.utf8), path: path)
    }

    private func diagnostics(_ text: String) -> [Diagnostic] {
        do {
            _ = try parse(text)
            return []
        } catch let error as XMLError {
            return error.diagnostics
        } catch {
            return [Diagnostic(at: SourceLocation(file: "?"), "unexpected \(error)")]
        }
    }

    @Test("elements, attributes and text")
    func reading() throws {
        let document = try parse("""
            <root a="1" b="x &amp; y">
              <item>one</item>
              <!-- a comment -->
              <item>two</item>
              <other/>
            </root>
            """)
        let root = document.root
        #expect(root.name == "root")
        #expect(root.attribute("b") == "x & y")
        #expect(root.attribute("missing") == nil)
        #expect(root.attributeNames == ["a", "b"])
        #expect(root.children.map(\.name) == ["item", "item", "other"])
        #expect(root.children(named: "item").map(\.text) == ["one", "two"])
    }

    @Test("a malformed document fails with the line and column of each error")
    func malformed() {
        let found = diagnostics("<a>\n  <b>\n</a>\n")
        #expect(found.first?.description == "test.xml:3:5: error: Opening and ending tag mismatch: b line 2 and a")
    }

    @Test("a password with an &, a < or a \" not escaped, or in Latin-1, gets one error at its place, in words that quote none of it")
    func unescapedSecrets() {
        func said(_ bytes: [UInt8]) -> [String] {
            do {
                _ = try XMLDocument(bytes: bytes, path: "chime.xml")
                return []
            } catch {
                return (error as? XMLError)?.diagnostics.map(\.description) ?? ["\(error)"]
            }
        }
        func channel(_ url: String) -> [UInt8] {
            Array("<chime>\n  <channel id=\"mail\" url=\"\(url)\" from=\"bot@example.org\"/>\n</chime>\n".utf8)
        }
        let cases: [(bytes: [UInt8], secret: String, expected: String)] = [
            (channel("smtp://bot:Pa&ssw0rd;X@mail.example.org"), "ssw0rd",
             "chime.xml:2:40: error: an & that begins none of XML's entities (&amp; &lt; &gt; &quot; &apos; &#…;): write an & as &amp;, in a password or secret too"),
            (channel("smtp://bot:Pa&ssw0rd@mail.example.org"), "ssw0rd",
             "chime.xml:2:40: error: an & that begins none of XML's entities (&amp; &lt; &gt; &quot; &apos; &#…;): write an & as &amp;, in a password or secret too"),
            (channel("smtps://bot:Pa<Hunter2@mail.example.org"), "Hunter2",
             "chime.xml:2:41: error: a < inside an attribute value: write it as &lt;, in a password or secret too"),
            (channel("smtps://bot:Pa\"Hunter2@mail.example.org"), "Hunter2",
             "chime.xml:2:42: error: an attribute without a quoted value: a \" inside a value ends it (write it as &quot;, in a password or secret too)"),
        ]
        for (bytes, secret, expected) in cases {
            let found = said(bytes)
            #expect(found.count == 1 && found[0].hasPrefix(expected), "\(found)")
            #expect(!found.joined().contains(secret), "\(found)")
        }
        // "Pässw0rd" saved as Latin-1: libxml2 quoted the bytes that follow the first bad one.
        var latin1 = channel("smtps://bot:P_sswort@mail.example.org")
        latin1[latin1.firstIndex(of: UInt8(ascii: "_"))!] = 0xE4
        let found = said(latin1)
        #expect(found == ["chime.xml:2:40: error: a byte or character XML does not allow here: the file must be UTF-8 (or name its encoding in <?xml version=\"1.0\" encoding=\"…\"?>), without control characters"], "\(found)")
        #expect(!found.joined().contains("0x73"), "\(found)")
    }

    @Test("locations point at the start tag and at attributes, across lines")
    func locations() throws {
        let document = try parse("""
            <root>
              <item id="first"
                    name="a"/>
              <item id="second"/> <item id="third" name="c"/>
            </root>
            """)
        let items = document.root.children
        #expect(document.location(of: items[0]).description == "test.xml:2:3")
        #expect(document.location(of: items[0], attribute: "name").description == "test.xml:3:9")
        #expect(document.location(of: items[1], attribute: "id").description == "test.xml:4:9")
        #expect(document.location(of: items[2]).description == "test.xml:4:23")
        #expect(document.location(of: items[2], attribute: "name").description == "test.xml:4:40")
    }

    @Test("on one line, same-named elements under different parents are each located at their own start tag, past comments and CDATA holding tags")
    func locationsOnOneLine() throws {
        let document = try parse(#"<?xml version="1.0"?><!-- <r> --><root><r id="1"><a x="1"/></r><![CDATA[<a>]]><r id="2"><a x="2"/><a x="3"/></r></root>"#)
        let addresses = document.root.children.flatMap(\.children)
        let columns = addresses.map { document.location(of: $0, attribute: "x").column }
        let text = #"<?xml version="1.0"?><!-- <r> --><root><r id="1"><a x="1"/></r><![CDATA[<a>]]><r id="2"><a x="2"/><a x="3"/></r></root>"#
        let expected = ["x=\"1\"", "x=\"2\"", "x=\"3\""].map { text.distance(from: text.startIndex, to: text.range(of: $0)!.lowerBound) + 1 }
        #expect(columns == expected)
    }

    @Test("an external entity is refused before the file is opened")
    func externalEntity() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent("chime-xxe-\(UUID().uuidString)")
        try "TOP-SECRET-MARKER".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let found = diagnostics("""
            <?xml version="1.0"?>
            <!DOCTYPE root [<!ENTITY x SYSTEM "file://\(secret.path)">]>
            <root>&x;</root>
            """)
        #expect(found.count == 1)
        #expect(found.first?.location.line == 2)
        #expect(found.first?.message.hasPrefix("entity declarations are not allowed") == true)
        #expect(!found.description.contains("TOP-SECRET-MARKER"))
    }

    @Test("a parameter entity is refused too")
    func parameterEntity() {
        let found = diagnostics("""
            <!DOCTYPE root [<!ENTITY % p SYSTEM "http://127.0.0.1:9/evil.dtd"> %p;]>
            <root/>
            """)
        #expect(found.map { String($0.message.prefix(35)) } == ["entity declarations are not allowed"])
    }

    @Test("a DOCTYPE naming an external DTD is not fetched, and the document reads")
    func externalDTDNotFetched() throws {
        // As Apple's .stringsdict files carry; NONET and no DTD loading keep it offline.
        let document = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict/></plist>
            """)
        #expect(document.root.name == "plist")
    }

    @Test("empty, blank and binary inputs get their own message", arguments: [
        ([] as [UInt8], "test.xml:1:1: error: the file is empty"),
        (Array(" \n\t\n".utf8), "test.xml:1:1: error: the file holds only white space"),
        ([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00], "test.xml:1:1: error: this is a binary file, not XML (a NUL byte at offset 7)"),
    ])
    func refusedInputs(bytes: [UInt8], expected: String) {
        #expect(throws: XMLError.self) { try XMLDocument(bytes: bytes, path: "test.xml") }
        do {
            _ = try XMLDocument(bytes: bytes, path: "test.xml")
        } catch let error as XMLError {
            #expect(error.description == expected)
        } catch {}
    }

    @Test("UTF-16 with a byte-order mark is read, not taken for binary")
    func utf16() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<a x=\"é\"/>".utf16 {
            bytes.append(UInt8(unit & 0xFF))
            bytes.append(UInt8(unit >> 8))
        }
        let document = try XMLDocument(bytes: bytes, path: "utf16.xml")
        #expect(document.root.attribute("x") == "é")
    }
}
