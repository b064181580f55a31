import Foundation

extension FileHandle {
    /// A new empty file at `url` (an existing one emptied), open for writing: where a
    /// child process's output goes. Throws when the file cannot be made, rather than
    /// failing later on a file that is not there.
    public static func creatingEmpty(at url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return try FileHandle(forWritingTo: url)
    }
}
