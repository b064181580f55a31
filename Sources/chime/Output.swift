import ChimeCore
import Foundation

/// Every diagnostic as `path:line:col: error: message`, on standard error.
func printDiagnostics(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    let text = diagnostics.map(\.description).joined(separator: "\n") + "\n"
    FileHandle.standardError.write(Data(text.utf8))
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// JSON the way every `--json` output is written: sorted keys, unescaped slashes.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
