import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

/// A request file named on the command line (`-` for standard input), read whole; when it
/// cannot be, why, on standard error, and exit 66 (sysexits' "cannot open input").
func readInputFile(_ path: String) throws -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    if let contents = FileManager.default.contents(atPath: path) { return contents }
    var directory: ObjCBool = false
    let why = !FileManager.default.fileExists(atPath: path, isDirectory: &directory) ? "no such file"
        : directory.boolValue ? "a directory, not a file" : "cannot be read (permissions)"
    printError(printable("\(path): error: \(why)"))
    throw ExitCode(66)
}
