import ChimeCore
import Foundation
import GRDB

/// Why the store failed, said for the person running `chime`: what is wrong, what to do,
/// and the exit code that fits (sysexits: 73 cannot create or write, 75 try again later,
/// an input/output error too, 65 not a store), with SQLite's own result code and words
/// kept beside them (as GRDB's `DatabaseError` keeps them).
public struct StoreFailure: Error, CustomStringConvertible {
    /// The store's path.
    public var path: String
    /// The sysexits code.
    public var exitCode: Int32
    /// SQLite's primary result code.
    public var resultCode: Int32
    /// What is wrong and what to do.
    public var explanation: String
    /// SQLite's words.
    public var detail: String

    public var description: String { "\(path): error: \(explanation)" + (detail.isEmpty ? "" : " (SQLite: \(detail))") }

    static let full = "the disk holding the store is full: free some space, then try again (nothing already stored was lost)"

    /// Whether the file system holding `path` has no block left for an unprivileged writer.
    static func isFull(folderOf path: String) -> Bool {
        var folder = (path as NSString).deletingLastPathComponent
        if folder.isEmpty { folder = "." }
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return false }
        // A few blocks may remain, too few for a page and its -shm region (32 KiB).
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 * 1024
    }

    /// Who owns the store's files, when it is not the user running chime: a command run as
    /// root before the service's first run makes the store root's, mode 0600, which the
    /// service's user can then neither read nor write, its folder being fine.
    /// Root is not told to take the files: that makes the same failure for the service.
    static func ownerHint(_ path: String) -> String {
        let runner = geteuid()
        guard runner != 0 else { return "" }
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0, info.st_uid != runner else { continue }
            let owner = Self.userName(info.st_uid), user = Self.userName(runner)
            return "; \((file as NSString).lastPathComponent) belongs to \(owner), and chime runs as \(user): chown \(user) it (and the -wal and -shm files beside it)"
        }
        return ""
    }

    private static func userName(_ uid: uid_t) -> String {
        SystemUser.name(of: uid) ?? "uid \(uid)"
    }

    /// The failure a store error stands for; nil for an error that is not the store's.
    public init?(_ error: any Error, path: String) {
        if let refused = error as? StoreOwnership.Refused {
            (self.path, exitCode, resultCode, explanation, detail) = (path, 65, ResultCode.SQLITE_NOTADB.rawValue, refused.description, "")
            return
        }
        guard let error = error as? DatabaseError else { return nil }
        self.path = path
        resultCode = error.resultCode.primaryResultCode.rawValue
        detail = error.message ?? "\(error.resultCode)"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_READONLY, .SQLITE_PERM:
            (exitCode, explanation) = (73, "the store cannot be written: give the user running chime write access to the file and to its folder (SQLite writes -wal and -shm files beside it)"
                + Self.ownerHint(path))
        case .SQLITE_CANTOPEN, .SQLITE_AUTH:
            (exitCode, explanation) = (73, "the store cannot be opened or created: check that its folder exists and that the user running chime may read and write there"
                + Self.ownerHint(path))
        case .SQLITE_FULL:
            (exitCode, explanation) = (75, Self.full)
        // SQLite reports a disk with no room for its -shm or -wal file (which even a read
        // needs, in WAL mode) as an I/O error: the free space tells them apart.
        case .SQLITE_IOERR where Self.isFull(folderOf: path):
            (exitCode, explanation) = (75, Self.full)
        // Exit 75 rather than sysexits' 74, which CONTRACT.md's list (what cron wrappers
        // and MTAs are told to expect) leaves out: nothing was lost, and a later run may
        // find the disk well again.
        case .SQLITE_IOERR:
            (exitCode, explanation) = (75, "the store could not be read or written (an input/output error: a full or failing disk, or a folder it cannot sync)")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            (exitCode, explanation) = (75, "the store stayed locked by another process for 30 s: try again later")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            (exitCode, explanation) = (65, "this file is not a Chime store, or is damaged: name another with --store, or restore it from a backup")
        default:
            (exitCode, explanation) = (70, "the store failed")
        }
    }
}
