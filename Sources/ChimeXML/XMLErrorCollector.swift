internal import CChimeXML2
import ChimeCore
import Foundation

/// Gathers libxml2's structured errors during one parse or validation, turning each into
/// a ``Diagnostic`` with the file, line and column.
///
/// libxml2 calls back through C function pointers that cannot capture; they find this
/// object through the context pointer libxml2 hands back (`Unmanaged`, not retained: the
/// collector outlives every call because the caller keeps it alive across the C call).
final class XMLErrorCollector {
    let path: String
    let source: SourceText
    private(set) var diagnostics: [Diagnostic] = []
    /// Set when Chime itself stopped the parser; libxml2's follow-on errors are dropped.
    private(set) var stopped = false

    init(path: String, source: SourceText) {
        self.path = path
        self.source = source
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer) -> XMLErrorCollector {
        Unmanaged<XMLErrorCollector>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Records a refusal of Chime's own of the construct starting with `construct` that
    /// ends at the parser's current position, and drops libxml2's follow-on errors.
    func refuse(_ message: String, construct: String, line: Int, column: Int) {
        let start = source.start(of: construct, before: line, column: column)
        diagnostics.append(Diagnostic(.error, at: SourceLocation(file: path, line: start.line, column: start.column), message))
        stopped = true
    }

    /// Records one libxml2 error. Schema errors carry the node rather than a column; the
    /// column is then found in the source text.
    ///
    /// Of a document that is not well-formed, only the first error is kept, in Chime's
    /// words where libxml2's quote the text at fault: that text may be a password or a
    /// secret (an `&` or a `"` in one, not escaped, made `Entity 'ssw0rd' not defined`),
    /// and libxml2's follow-on errors read the rest of the value as markup, naming its
    /// words as tags and attributes.
    func record(_ error: xmlErrorPtr) {
        guard !stopped else { return }
        let raw = error.pointee
        let severity: Diagnostic.Severity = raw.level == XML_ERR_WARNING ? .warning : .error
        var message = raw.message.map { String(cString: $0) } ?? "unknown libxml2 error \(raw.code)"
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        var line = Int(raw.line)
        var column = Int(raw.int2)
        if raw.domain == Int32(XML_FROM_SCHEMASV.rawValue) {
            if let node = raw.node {
                let located = source.locate(node.assumingMemoryBound(to: xmlNode.self), attribute: Self.attributeName(in: message))
                line = located.line
                column = located.column
            }
        } else {
            guard !notWellFormed else { return }
            notWellFormed = severity == .error
            if Self.isStrayAmpersand(code: Int(raw.code), message) {
                // libxml2 points past an entity's name: the & that began it is the place.
                (line, column) = source.start(of: "&", before: line, column: column)
                message = Self.strayAmpersand
            } else if let words = Self.unquoted(code: Int(raw.code), message) {
                message = words
            }
        }
        diagnostics.append(Diagnostic(severity, at: SourceLocation(file: path, line: line, column: column), message))
    }

    /// Whether a well-formedness error was recorded: libxml2's later ones are dropped.
    private var notWellFormed = false

    static let strayAmpersand = "an & that begins none of XML's entities (&amp; &lt; &gt; &quot; &apos; &#…;): write an & as &amp;, in a password or secret too"

    /// Whether libxml2's error is about an `&` that begins no entity: its message quotes
    /// the name that follows (`Entity 'ssw0rd' not defined`).
    static func isStrayAmpersand(code: Int, _ message: String) -> Bool {
        switch code {
        case Int(XML_ERR_ENTITYREF_SEMICOL_MISSING.rawValue), Int(XML_ERR_UNDECLARED_ENTITY.rawValue),
             Int(XML_WAR_UNDECLARED_ENTITY.rawValue), Int(XML_ERR_ENTITYREF_AT_EOF.rawValue):
            true
        case Int(XML_ERR_NAME_REQUIRED.rawValue):
            message.contains("EntityRef")
        default:
            false
        }
    }

    /// Chime's words for the other libxml2 parser errors that quote the text at fault; nil
    /// for the rest (which name the document's own tags, or nothing).
    static func unquoted(code: Int, _ message: String) -> String? {
        switch code {
        case Int(XML_ERR_INVALID_CHAR.rawValue), Int(XML_ERR_INVALID_ENCODING.rawValue):
            return "a byte or character XML does not allow here: the file must be UTF-8 (or name its encoding in <?xml version=\"1.0\" encoding=\"…\"?>), without control characters"
        case Int(XML_ERR_ATTRIBUTE_NOT_STARTED.rawValue), Int(XML_ERR_ATTRIBUTE_NOT_FINISHED.rawValue),
             Int(XML_ERR_ATTRIBUTE_WITHOUT_VALUE.rawValue),
             // What follows a value's stray " (under XML_ERR_SPACE_REQUIRED): quoting
             // nothing, but saying nothing either.
             _ where message == "attributes construct error":
            return "an attribute without a quoted value: a \" inside a value ends it (write it as &quot;, in a password or secret too)"
        case Int(XML_ERR_ATTRIBUTE_REDEFINED.rawValue):
            return "an attribute given twice in one tag"
        case Int(XML_ERR_LT_IN_ATTRIBUTE.rawValue):
            return "a < inside an attribute value: write it as &lt;, in a password or secret too"
        default:
            return nil
        }
    }

    /// Schema errors about an attribute give the element as their node and name the
    /// attribute in the message: `Element 'item', attribute 'count': …`.
    private static func attributeName(in message: String) -> String? {
        let marker = "', attribute '"
        guard message.hasPrefix("Element '"), let start = message.range(of: marker)?.upperBound,
              let end = message[start...].firstIndex(of: "'") else { return nil }
        return String(message[start..<end])
    }
}

