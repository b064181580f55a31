import ChimeCore
import Mustache
import Synchronization

/// A template rendered once for one *shape* of message — the same category, locale and
/// section flags — with a marker where each value that changes from message to message
/// goes, then filled for every message by plain concatenation.
///
/// swift-mustache interprets the template (sections, inverted sections, escaping by
/// content type); this only remembers its answer. Rendering a template walks every token
/// through dynamic casts, which cost more than the rest of an email together; a shape is
/// rendered once per run instead.
///
/// Equivalence with rendering directly holds because a marker behaves as any string in
/// Mustache (truthy, no children) and the library's escaping is applied to values here
/// exactly as it would have been. A template whose tags use transforms
/// (`{{uppercased(title)}}`) would change a value in ways a marker cannot show, so such a
/// template is always rendered directly, as is any shape whose output holds marker
/// characters it did not get from a marker.
struct CompiledShape: Sendable {
    private enum Piece: Sendable {
        case literal(String)
        case value(Int, escaped: Bool)
    }

    private let pieces: [Piece]

    /// Private-use characters, so that no text a template or a strings file carries is
    /// taken for a marker by accident (and if it is, ``init(rendered:)`` notices).
    private static let open: Unicode.Scalar = "\u{E000}"
    private static let close: Unicode.Scalar = "\u{E001}"

    /// The marker standing for value `index`. Its `<` shows whether the template escaped
    /// it for HTML (`&lt;`) or not.
    static func marker(_ index: Int) -> String {
        "\u{E000}<\(index)\u{E001}"
    }

    /// Splits a rendering made with markers into literal text and values; nil when the
    /// text holds marker characters that do not form a marker.
    init?(rendered: String) {
        var pieces: [Piece] = []
        var literal = ""
        var scalars = rendered.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            if scalar == Self.close { return nil }
            guard scalar == Self.open else {
                literal.unicodeScalars.append(scalar)
                continue
            }
            guard let end = scalars.firstIndex(of: Self.close) else { return nil }
            let inside = String(scalars[..<end])
            scalars = scalars[scalars.index(after: end)...]
            let escaped = inside.hasPrefix("&lt;")
            guard let index = Int(inside.dropFirst(escaped ? 4 : 1)), escaped || inside.hasPrefix("<") else { return nil }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.value(index, escaped: escaped))
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// The message: the literal text with `values` in place of the markers.
    func fill(_ values: [String]) -> String {
        var result = ""
        result.reserveCapacity(pieces.count * 48)
        for piece in pieces {
            switch piece {
            case .literal(let text): result += text
            case .value(let index, let escaped): result += escaped ? Self.htmlEscaped(values[index]) : values[index]
            }
        }
        return result
    }

    /// A value made safe inside HTML: `< > & " '` as entities, byte by byte. Every one
    /// of them is found, a `<` that begins a character with marks joined to it (`<` and
    /// U+0338, or U+0605 and `<`) included: swift-mustache's own escaping compares whole
    /// `Character`s and let those through as markup, so Chime's takes its place
    /// (``ScalarHTML``) in templates too.
    ///
    /// Bytes are read from the string's own storage: through `utf8` as a collection, the
    /// search for a character to escape was 10,000 instructions an email (callgrind).
    static func htmlEscaped(_ text: String) -> String {
        text.withStoredUTF8 { utf8 in
            guard utf8.contains(where: { entity($0) != nil }) else { return text }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(utf8.count + 16)
            // In UTF-8 these five bytes are only ever those five characters.
            for byte in utf8 {
                if let entity = entity(byte) { bytes += entity.utf8 } else { bytes.append(byte) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func entity(_ byte: UInt8) -> String? {
        switch byte {
        case 0x3C: "&lt;"
        case 0x3E: "&gt;"
        case 0x26: "&amp;"
        case 0x22: "&quot;"
        case 0x27: "&#39;"
        default: nil
        }
    }
}

/// The shapes a ``TemplateSet`` has compiled, shared by every copy of it. A shape that
/// cannot be compiled is remembered as such (nil) and rendered directly each time.
final class ShapeCache: Sendable {
    private let shapes = Mutex<[String: CompiledShape?]>([:])

    func shape(_ key: String, compile: () throws -> CompiledShape?) rethrows -> CompiledShape? {
        if let known = shapes.withLock({ $0[key] }) { return known }
        let compiled = try compile()
        shapes.withLock { $0[key] = .some(compiled) }
        return compiled
    }
}

/// Text made safe inside HTML: the escaping of the email templates, for pages served.
public func htmlEscaped(_ text: String) -> String {
    CompiledShape.htmlEscaped(text)
}

/// The `HTML` content type of Chime's templates (`{{% CONTENT_TYPE: HTML}}`, and what a
/// template without the pragma is given): ``CompiledShape/htmlEscaped(_:)`` in place of
/// swift-mustache's own, which leaves a `<` with a mark joined to it unescaped.
struct ScalarHTML: MustacheContentType {
    func escapeText(_ text: String) -> String {
        CompiledShape.htmlEscaped(text)
    }

    /// Put in swift-mustache's registry of content types, where its parser looks the
    /// pragma's name up, before the first template is parsed.
    static let registered: Void = MustacheContentTypes.register(ScalarHTML(), named: "HTML")
}
