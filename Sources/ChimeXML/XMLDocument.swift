internal import CChimeXML2
import ChimeCore

/// A parsed XML document. It owns its libxml2 `xmlDoc`, freed when the document goes.
///
/// Parsing is safe on hostile input: no network (`XML_PARSE_NONET`), no DTD loading, no
/// entity substitution, and any entity declaration stops the parse at once, so an
/// external entity (XXE) is never opened and an entity bomb never expands.
public final class XMLDocument {
    /// The path as the caller named it, used in every diagnostic.
    public let path: String
    let pointer: xmlDocPtr
    let source: SourceText
    /// libxml2's warnings, which do not stop the parse.
    public let warnings: [Diagnostic]

    /// Parses a document held in memory.
    /// - Parameters:
    ///   - bytes: the document's bytes, in any encoding libxml2 detects.
    ///   - path: the name used in diagnostics.
    /// - Throws: ``XMLError`` with every error found, each with line and column.
    public init(bytes: [UInt8], path: String) throws {
        XMLLibrary.initialize()
        self.path = path
        let source = SourceText(bytes)
        self.source = source
        if let refusal = Self.refusal(of: bytes) {
            throw XMLError([Diagnostic(.error, at: SourceLocation(file: path, line: 1, column: 1), refusal)])
        }
        let collector = XMLErrorCollector(path: path, source: source)
        guard let context = xmlNewParserCtxt() else {
            throw XMLError([Diagnostic(.error, at: SourceLocation(file: path), "libxml2 could not allocate a parser")])
        }
        defer { xmlFreeParserCtxt(context) }
        context.pointee._private = collector.opaque
        context.pointee.sax.pointee.serror = { userData, error in
            // The parser hands its own context back as userData.
            guard let userData, let error else { return }
            let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            guard let owner = context.pointee._private else { return }
            XMLErrorCollector.from(owner).record(error)
        }
        context.pointee.sax.pointee.entityDecl = { userData, _, _, _, _, _ in
            guard let userData else { return }
            let context = userData.assumingMemoryBound(to: xmlParserCtxt.self)
            if let owner = context.pointee._private, let input = context.pointee.input {
                XMLErrorCollector.from(owner).refuse(
                    "entity declarations are not allowed (no DTD entities are read, so no external file and no expansion)",
                    construct: "<!ENTITY", line: Int(input.pointee.line), column: Int(input.pointee.col))
            }
            xmlStopParser(context)
        }
        let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
        // No URL for the document (diagnostics name `path` themselves): libxml2 2.9
        // searches every element before a schema error's, back to the root, for an
        // XInclude naming its file when the document has one, and 16,000 misspelt
        // attributes took 3 s (4 times as long for twice as many).
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                xmlCtxtReadMemory(context, base, Int32(buffer.count), nil, nil, options)
            }
        }
        guard let document, !collector.hasErrors, xmlDocGetRootElement(document) != nil else {
            if let document { xmlFreeDoc(document) }
            var diagnostics = collector.diagnostics.filter { $0.severity == .error }
            if diagnostics.isEmpty {
                diagnostics = [Diagnostic(.error, at: SourceLocation(file: path, line: 1, column: 1), "not an XML document")]
            }
            throw XMLError(diagnostics)
        }
        self.pointer = document
        self.warnings = collector.diagnostics
    }

    deinit {
        xmlFreeDoc(pointer)
    }

    /// The root element.
    public var root: XMLElement {
        // The initialiser refuses a document without one.
        XMLElement(document: self, node: xmlDocGetRootElement(pointer)!)
    }

    /// Where an element's start tag (or one of its attributes) stands in the source.
    public func location(of element: XMLElement, attribute: String? = nil) -> SourceLocation {
        let found = source.locate(element.node, attribute: attribute)
        return SourceLocation(file: path, line: found.line, column: found.column)
    }

    /// The libxml2 version Chime runs with, for `chime --version`.
    public static var libraryVersion: String { XMLLibrary.version }

    /// Inputs refused before libxml2 sees them, with a clearer message than it would give.
    private static func refusal(of bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            return bytes.isEmpty ? "the file is empty" : "the file holds only white space"
        }
        // UTF-16 and UTF-32 legitimately hold NUL bytes and start with a byte-order mark
        // or a NUL; anything else with a NUL in it is binary.
        let utf16or32 = bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.first == 0
            && bytes.count > 1 && bytes[1] == 0x3C || bytes.count > 1 && bytes[0] == 0x3C && bytes[1] == 0
        if !utf16or32, let nul = bytes.prefix(8192).firstIndex(of: 0) {
            return "this is a binary file, not XML (a NUL byte at offset \(nul))"
        }
        return nil
    }
}
