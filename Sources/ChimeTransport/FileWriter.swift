import Foundation

/// Why a local delivery failed, with the system's own words.
public struct TransportError: Error, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    /// The failed operation and `strerror(errno)`, read at once.
    static func system(_ operation: String) -> TransportError {
        TransportError(message: "\(operation): \(String(cString: strerror(errno)))")
    }

    public var description: String { message }
}

/// Plain POSIX writes: whole buffers, retried on short writes and EINTR.
enum FileWriter {
    /// Makes a folder and the folders above it that are missing, as `mkdir -p` does.
    /// Foundation's `createDirectory` failed with `Error Domain=NSCocoaErrorDomain
    /// Code=512 "(null)"` and nothing else, which is what a held reminder then said; this
    /// one names the folder and the system's reason ("Not a directory").
    static func makeFolder(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") where !component.isEmpty {
            built += "/" + component
            if mkdir(built, 0o755) != 0, errno != EEXIST { throw TransportError.system("create the folder \(built)") }
        }
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            errno = ENOTDIR
            throw TransportError.system("create the folder \(path)")
        }
    }

    /// Writes a new file and, unless told otherwise, syncs it to disk before returning;
    /// when that fails (a disk full), the file it made is gone again, not left empty.
    static func write(_ bytes: [UInt8], to path: String, sync: Bool = true) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TransportError.system("create \(path)") }
        defer { close(descriptor) }
        do {
            try writeAll(bytes, to: descriptor, path: path)
            if sync, fsync(descriptor) != 0 { throw TransportError.system("sync \(path)") }
        } catch {
            unlink(path)
            throw error
        }
    }

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw TransportError.system("write to \(path)")
            }
            offset += written
        }
    }
}
