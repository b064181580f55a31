internal import CChimeXML2
import ChimeCore

/// A compiled XSD. It owns its libxml2 `xmlSchema`, freed when the schema goes.
public final class XMLSchema {
    private let pointer: xmlSchemaPtr

    /// Compiles a schema held in memory.
    /// - Parameters:
    ///   - bytes: the XSD text.
    ///   - path: the name used in diagnostics.
    /// - Throws: ``XMLError`` when the schema itself is not valid XSD.
    public init(bytes: [UInt8], path: String) throws {
        XMLLibrary.initialize()
        let collector = XMLErrorCollector(path: path, source: SourceText(bytes))
        let schema: xmlSchemaPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { base in
                guard let context = xmlSchemaNewMemParserCtxt(base, Int32(buffer.count)) else { return nil }
                defer { xmlSchemaFreeParserCtxt(context) }
                xmlSchemaSetParserStructuredErrors(context, { owner, error in
                    guard let owner, let error else { return }
                    XMLErrorCollector.from(owner).record(error)
                }, collector.opaque)
                return xmlSchemaParse(context)
            }
        }
        guard let schema, !collector.hasErrors else {
            if let schema { xmlSchemaFree(schema) }
            throw XMLError(collector.diagnostics)
        }
        self.pointer = schema
    }

    deinit {
        xmlSchemaFree(pointer)
    }

    /// Checks a document against this schema.
    /// - Throws: ``XMLError`` with every violation, each at its element's line and column.
    public func validate(_ document: XMLDocument) throws {
        let collector = XMLErrorCollector(path: document.path, source: document.source)
        guard let context = xmlSchemaNewValidCtxt(pointer) else {
            throw XMLError([Diagnostic(.error, at: SourceLocation(file: document.path), "libxml2 could not allocate a validator")])
        }
        defer { xmlSchemaFreeValidCtxt(context) }
        xmlSchemaSetValidStructuredErrors(context, { owner, error in
            guard let owner, let error else { return }
            XMLErrorCollector.from(owner).record(error)
        }, collector.opaque)
        let result = withExtendedLifetime(collector) { xmlSchemaValidateDoc(context, document.pointer) }
        if result != 0 || collector.hasErrors {
            var diagnostics = collector.diagnostics.filter { $0.severity == .error }
            if diagnostics.isEmpty {
                diagnostics = [Diagnostic(.error, at: SourceLocation(file: document.path), "the document does not match the schema (libxml2 code \(result))")]
            }
            throw XMLError(diagnostics)
        }
    }
}
