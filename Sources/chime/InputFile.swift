import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation

/// A request file named on the command line (`-` for standard input), read whole; when it
/// cannot be, why, on standard error, and exit 66 (sysexits' "cannot open input").
/// At most ``largestInputFile`` bytes: more is refused the same way (exit 65, bad data).
func readInputFile(_ path: String) throws -> Data {
    do {
        return Data(try path == "-" ? BoundedFile.read(descriptor: STDIN_FILENO, atMost: largestInputFile)
                        : BoundedFile.read(path, atMost: largestInputFile))
    } catch {
        printError(printable("\(path == "-" ? "standard input" : path): error: \(error.reason)"))
        throw ExitCode(error == .tooLarge(limit: largestInputFile) ? 65 : 66)
    }
}

/// The largest request file read: 256 MiB, some 800,000 requests of 300 bytes. The HTTP
/// API takes far less a call; a file this size is a mistake (a log, a device).
let largestInputFile = 256 << 20
