#if canImport(Glibc)
import Glibc
#endif

/// Lines written to standard output or standard error with `write(2)`, a failure dropped:
/// Foundation's `FileHandle.write` traps on any error (`try!` inside), so `chime serve`
/// with its standard error closed, or a log reader gone (a broken pipe), died at its next
/// log line (SIGILL, exit 132), its hooks in flight with it. A log line that cannot be
/// written is lost; the daemon goes on.
public enum StandardStreams {
    public static func output(_ text: String) { write(text, to: STDOUT_FILENO) }

    public static func error(_ text: String) { write(text, to: STDERR_FILENO) }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    // A descriptor left non-blocking by whoever shares it: waited for
                    // (a second at most), so that a line is not cut and the next glued to it.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    guard poll(&ready, 1, 1_000) > 0 else { return }
                } else {
                    return
                }
            }
        }
    }
}
