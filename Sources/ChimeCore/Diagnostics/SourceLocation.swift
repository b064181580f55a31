/// A place in a source file: the file as the user named it, and a 1-based line and column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The path as the user gave it, so messages point where they typed.
    public var file: String
    /// 1-based line; 0 when unknown.
    public var line: Int
    /// 1-based column; 0 when unknown.
    public var column: Int

    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`, leaving out what is unknown.
    public var description: String {
        var text = file
        if line > 0 {
            text += ":\(line)"
            if column > 0 { text += ":\(column)" }
        }
        return text
    }
}
