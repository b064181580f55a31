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
    func record(_ error: xmlErrorPtr) {
        guard !stopped else { return }
        let raw = error.pointee
        let severity: Diagnostic.Severity = raw.level == XML_ERR_WARNING ? .warning : .error
        var message = raw.message.map { String(cString: $0) } ?? "unknown libxml2 error \(raw.code)"
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        var line = Int(raw.line)
        var column = Int(raw.int2)
        if raw.domain == Int32(XML_FROM_SCHEMASV.rawValue), let node = raw.node {
            let located = source.locate(node.assumingMemoryBound(to: xmlNode.self), attribute: Self.attributeName(in: message))
            line = located.line
            column = located.column
        }
        diagnostics.append(Diagnostic(severity, at: SourceLocation(file: path, line: line, column: column), message))
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

