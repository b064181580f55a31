internal import CChimeXML2

/// The text of a parsed document, kept to give columns where libxml2 gives only a line.
///
/// libxml2 records for each element the line on which its start tag *ends*, and no
/// column; schema errors and the configuration's own rules point at elements and
/// attributes, so the start tag is found again in the text. Written by hand: no library
/// maps libxml2 nodes back to columns.
struct SourceText {
    private let scalars: [Unicode.Scalar]
    /// The index in `scalars` where each line starts; `lineStarts[0]` is line 1.
    private let lineStarts: [Int]
    /// Each element's start tag, found once for the whole document (see ``StartTags``).
    private let startTags = StartTags()

    init(_ bytes: [UInt8]) {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var starts = [0]
        for (i, scalar) in scalars.enumerated() where scalar == "\n" {
            starts.append(i + 1)
        }
        self.scalars = scalars
        self.lineStarts = starts
    }

    /// Where each element's start tag stands, by node: the document's elements in
    /// document order are its start tags in the text's order, so both are read once, on
    /// the first element located. Searching the text again for each element (back from
    /// the line libxml2 gives, past its later same-named siblings on that line) took time
    /// growing with the square of the errors: 16,000 misspelt attributes, 9 s; and a
    /// line of many recipients put an error of each one's `<address>` at the last one's.
    private final class StartTags {
        var positions: [xmlNodePtr: Int]?
    }

    /// The index of `element`'s start tag, from ``StartTags``; nil when the text's tags
    /// and the document's elements do not pair up.
    private func indexedStartTag(of element: xmlNodePtr) -> Int? {
        if startTags.positions == nil { startTags.positions = pairTags(in: element.pointee.doc) }
        return startTags.positions?[element]
    }

    /// Pairs the document's elements, in document order, with the text's start tags.
    private func pairTags(in document: xmlDocPtr?) -> [xmlNodePtr: Int] {
        guard let document, let root = xmlDocGetRootElement(document) else { return [:] }
        var elements: [xmlNodePtr] = []
        var stack: [xmlNodePtr] = [root]
        while let node = stack.popLast() {
            elements.append(node)
            var children: [xmlNodePtr] = []
            var child = node.pointee.children
            while let next = child {
                if next.pointee.type == XML_ELEMENT_NODE { children.append(next) }
                child = next.pointee.next
            }
            stack.append(contentsOf: children.reversed())
        }
        let tags = startTagIndices()
        guard tags.count == elements.count else { return [:] }
        return Dictionary(uniqueKeysWithValues: zip(elements, tags))
    }

    /// The index of every start tag in the text, in order: a `<` and a name, outside
    /// comments, CDATA sections, processing instructions and the document type (where
    /// XML allows no other `<`: attribute values and text escape it).
    private func startTagIndices() -> [Int] {
        var indices: [Int] = []
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "<", i + 1 < scalars.count else { i += 1; continue }
            let next = scalars[i + 1]
            if matches(Self.commentStart, at: i) {
                i = end(of: "-->", from: i + 4)
            } else if matches(Self.cdataStart, at: i) {
                i = end(of: "]]>", from: i + 9)
            } else if next == "?" {
                i = end(of: "?>", from: i + 2)
            } else if next == "!" {
                // <!DOCTYPE …>, with an internal subset in brackets.
                var depth = 0
                i += 2
                while i < scalars.count, !(scalars[i] == ">" && depth == 0) {
                    if scalars[i] == "[" { depth += 1 } else if scalars[i] == "]" { depth -= 1 }
                    i += 1
                }
                i += 1
            } else if next != "/" {
                indices.append(i)
                i += 1
            } else {
                i += 1
            }
        }
        return indices
    }

    private static let commentStart = Array("<!--".unicodeScalars), cdataStart = Array("<![CDATA[".unicodeScalars)

    /// The index just past the first `terminator` at or after `start`; the text's end
    /// when there is none.
    private func end(of terminator: String, from start: Int) -> Int {
        let pattern = Array(terminator.unicodeScalars)
        var i = start
        while i < scalars.count {
            if matches(pattern, at: i) { return i + pattern.count }
            i += 1
        }
        return scalars.count
    }

    /// Line and column of an element's start tag (or of an attribute in it).
    func locate(_ node: xmlNodePtr, attribute: String? = nil) -> (line: Int, column: Int) {
        var element = node
        var attributeName = attribute
        if node.pointee.type == XML_ATTRIBUTE_NODE, let parent = node.pointee.parent {
            attributeName = node.pointee.name.map { String(cString: $0) }
            element = parent
        }
        if element.pointee.type == XML_ELEMENT_NODE, let tag = indexedStartTag(of: element) {
            if let attributeName, let found = self.attribute(attributeName, inTagAt: tag) {
                return position(of: found)
            }
            return position(of: tag)
        }
        let line = Int(xmlGetLineNo(element))
        guard line > 0, let name = element.pointee.name.map({ String(cString: $0) }) else {
            return (max(line, 0), 0)
        }
        // Same-named elements whose start tags end on the same line come later in the
        // text: skip that many matches when searching backwards.
        var later = 0
        var sibling = element.pointee.next
        while let next = sibling {
            if next.pointee.type == XML_ELEMENT_NODE, Int(xmlGetLineNo(next)) == line,
               next.pointee.name.map({ String(cString: $0) }) == name {
                later += 1
            }
            sibling = next.pointee.next
        }
        guard let tag = startTag(named: name, endingOnLine: line, skipping: later) else {
            return (line, 0)
        }
        if let attributeName, let found = self.attribute(attributeName, inTagAt: tag) {
            return position(of: found)
        }
        return position(of: tag)
    }

    /// Where the last `text` starting at or before a line and column stands; the given
    /// place itself when there is none. libxml2 reports a declaration at its end.
    func start(of text: String, before line: Int, column: Int) -> (line: Int, column: Int) {
        guard line >= 1, line <= lineStarts.count else { return (line, column) }
        let pattern = Array(text.unicodeScalars)
        var i = min(lineStarts[line - 1] + max(column - 1, 0), scalars.count) - 1
        while i >= 0 {
            if matches(pattern, at: i) { return position(of: i) }
            i -= 1
        }
        return (line, column)
    }

    private func position(of index: Int) -> (line: Int, column: Int) {
        // The last line start at or before index.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return (low + 1, index - lineStarts[low] + 1)
    }

    private func startTag(named name: String, endingOnLine line: Int, skipping: Int) -> Int? {
        guard line <= lineStarts.count else { return nil }
        let pattern = Array(("<" + name).unicodeScalars)
        let end = line < lineStarts.count ? lineStarts[line] : scalars.count
        var remaining = skipping
        var i = end - pattern.count
        while i >= 0 {
            if matches(pattern, at: i) {
                let after = i + pattern.count
                if after == scalars.count || isTagBoundary(scalars[after]) {
                    if remaining == 0 { return i }
                    remaining -= 1
                }
            }
            i -= 1
        }
        return nil
    }

    private func attribute(_ name: String, inTagAt tag: Int) -> Int? {
        let pattern = Array(name.unicodeScalars)
        var quote: Unicode.Scalar?
        var i = tag + 1
        while i < scalars.count {
            let scalar = scalars[i]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == ">" {
                return nil
            } else if isSpace(scalars[i - 1]), matches(pattern, at: i) {
                var after = i + pattern.count
                while after < scalars.count, isSpace(scalars[after]) { after += 1 }
                if after < scalars.count, scalars[after] == "=" { return i }
            }
            i += 1
        }
        return nil
    }

    private func matches(_ pattern: [Unicode.Scalar], at index: Int) -> Bool {
        guard index >= 0, index + pattern.count <= scalars.count else { return false }
        for (offset, scalar) in pattern.enumerated() where scalars[index + offset] != scalar {
            return false
        }
        return true
    }

    private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private func isTagBoundary(_ scalar: Unicode.Scalar) -> Bool {
        isSpace(scalar) || scalar == ">" || scalar == "/"
    }
}
