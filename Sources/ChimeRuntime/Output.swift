import ChimeCore
import Foundation

/// Every diagnostic as `path:line:col: error: message`, on standard error, one line
/// each: a value it quotes is ``printable(_:)`` (a configuration's line break, or a
/// request's, shows as `\u{d}\u{a}`).
public func printDiagnostics(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    let text = diagnostics.map { printable($0.description) }.joined(separator: "\n") + "\n"
    FileHandle.standardError.write(Data(text.utf8))
}

public func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// JSON the way every `--json` output is written: sorted keys, unescaped slashes.
public func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
