import Foundation

/// A file a user names (the configuration, a secret behind `file:`, a template, a
/// strings file, an attachment, a request file), read with a bound: a path that is a
/// device (`/dev/zero`) or a file gone huge by mistake is refused once past the bound,
/// rather than read into memory until the process is killed.
public enum BoundedFile {
    /// What stopped a read.
    public enum Failure: Error, Equatable {
        /// Nothing at the path.
        case missing
        /// A directory, not a file.
        case directory
        /// It could not be opened or read: the system's words.
        case unreadable(String)
        /// More than the bound.
        case tooLarge(limit: Int)

        /// The reason, for an error message after the path.
        public var reason: String {
            switch self {
            case .missing: "no such file"
            case .directory: "a directory, not a file"
            case .unreadable(let why): "cannot be read (\(why))"
            case .tooLarge(let limit): "larger than \(Self.size(limit))"
            }
        }

        /// `limit` in the largest unit that holds it whole: 16 MiB, 64 KiB, 1,000 bytes.
        static func size(_ limit: Int) -> String {
            if limit >= 1 << 20 && limit % (1 << 20) == 0 { return "\(limit >> 20) MiB" }
            if limit >= 1 << 10 && limit % (1 << 10) == 0 { return "\(limit >> 10) KiB" }
            return "\(limit) bytes"
        }
    }

    /// At most `limit` bytes of the file at `path` (a pipe or standard input's path too).
    public static func read(_ path: String, atMost limit: Int) throws(Failure) -> [UInt8] {
        var descriptor: Int32
        repeat { descriptor = open(path, O_RDONLY | O_CLOEXEC) } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let why = errno
            throw why == ENOENT ? .missing : .unreadable(String(cString: strerror(why)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return try read(descriptor: descriptor, atMost: limit) }
        if status.st_mode & S_IFMT == S_IFDIR { throw .directory }
        // A regular file's size, as far as the bound, is made room for at once.
        let expected = status.st_mode & S_IFMT == S_IFREG ? min(Int(status.st_size), limit) : 0
        return try read(descriptor: descriptor, atMost: limit, expecting: expected)
    }

    /// At most `limit` bytes from an open descriptor, until its end; room is made for
    /// `expected` at once.
    public static func read(descriptor: Int32, atMost limit: Int, expecting expected: Int = 0) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expected)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(limit: limit) }
            bytes += chunk[..<count]
        }
    }
}
