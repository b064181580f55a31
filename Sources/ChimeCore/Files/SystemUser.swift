#if canImport(Glibc)
import Glibc
#endif

/// The machine's users, as `/etc/passwd` (or NSS) names them.
public enum SystemUser {
    /// The login name of `uid`, or nil when the system knows none.
    public static func name(of uid: uid_t) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
