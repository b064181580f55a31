/// JSON text checked before Foundation parses it: RFC 8259's grammar and a bound on
/// depth (``JSONLocator``), since Foundation's parser on Linux crashes on text nested too
/// deep and says only "not valid" of much it refuses. For any JSON read from outside: a
/// request file, a String Catalog.
public enum JSONSyntax {
    /// The first place the text breaks the grammar or nests too deep: its 1-based line and
    /// column and what is wrong; nil for text Foundation may be given.
    public static func problem(in bytes: [UInt8]) -> (line: Int, column: Int, message: String)? {
        guard let error = JSONLocator.scan(bytes).syntaxError else { return nil }
        let (line, column) = JSONLocator.lineAndColumn(of: error.offset, in: bytes)
        return (line, column, error.described)
    }
}

extension JSONLocator.SyntaxError {
    /// What is wrong, as an error says it.
    var described: String { tooDeep ? message : "not valid JSON: \(message)" }
}
