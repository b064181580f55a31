import ChimeCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs an action's command hook: `/bin/sh -c COMMAND` in the state folder,
/// the response's JSON on its standard input, in a process group of its own so that a
/// command outlasting its timeout is stopped with everything it started.
///
/// Its environment is small: PATH, HOME and LANG, and the variables its `<hook env>`
/// names, never the rest of Chime's (where `CHIME_SECRET_KEY` and `${ENV}` secrets
/// live). Its input is written while its timeout runs, so a command that never reads it
/// cannot hold Chime; Chime's own pipes are closed on exec.
///
/// Written on posix_spawn rather than Foundation's `Process`, which can neither start a
/// process group nor stop one (a shell's children outlived the timeout and held Chime
/// for their whole run).
enum HookCommand {
    /// How one run ended.
    enum Ending: Equatable {
        case exited(Int32, stderr: String)
        case timedOut
        case couldNotStart(String)

        var succeeded: Bool { if case .exited(0, _) = self { true } else { false } }

        /// `exit 0`, `exit 3: the last line it wrote to stderr`, `timed out after 10s`.
        func text(timeout: Double) -> String {
            switch self {
            case .exited(let code, let stderr):
                let last = stderr.split(separator: "\n").last.map { String($0.prefix(200)) } ?? ""
                return last.isEmpty || code == 0 ? "exit \(code)" : "exit \(code): \(last)"
            case .timedOut: return "timed out after \(timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout))s"
            case .couldNotStart(let why): return "could not start: \(why)"
            }
        }
    }

    /// A command that exits without reading its input must not kill Chime with SIGPIPE:
    /// ignored once, the first time a hook runs.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Taken while pipes are made and marked close-on-exec, and while a hook is spawned.
    private static let spawning = NSLock()

    /// The variables every hook gets, when Chime has them.
    static let basicEnvironment = ["PATH", "HOME", "LANG"]

    /// `NAME=VALUE` for the basic variables and `passed`, from `environment`.
    static func environment(passing passed: [String], from environment: [String: String]) -> [String] {
        var names: [String] = []
        for name in basicEnvironment + passed where !names.contains(name) { names.append(name) }
        return names.compactMap { name in environment[name].map { "\(name)=\($0)" } }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's
    /// Glibc module does not declare (it is `_GNU_SOURCE`'s): looked up by name, once.
    nonisolated(unsafe) static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    static func run(_ command: String, input: [UInt8], directory: String, timeout: Double, passing passed: [String] = []) -> Ending {
        _ = ignoreBrokenPipes
        var inPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        // Close-on-exec before any other hook can start (pipe2 is not exposed to Swift,
        // so the pipes are made and marked under the lock every spawn takes): no other
        // hook, nor anything a hook starts, holds them.
        let made: Bool = spawning.withLock {
            guard pipe(&inPipe) == 0 else { return false }
            guard pipe(&errPipe) == 0 else {
                close(inPipe[0])
                close(inPipe[1])
                return false
            }
            for fd in inPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard made else { return .couldNotStart(String(cString: strerror(errno))) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, inPipe[0])
        posix_spawn_file_actions_addclose(&actions, errPipe[1])
        // Nothing else of Chime's: `chime serve`'s listening socket and its connections
        // are not close-on-exec (SwiftNIO's), and a hook held them: the port stayed bound
        // after Chime ended while anything the hook left behind ran, and a health probe
        // during the drain hung rather than being refused.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group; SIGPIPE back to its default; no signal blocked.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t(), mask = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)

        var pid: pid_t = 0
        // The folder by a first shell (glibc's addchdir is not exposed to Swift), which
        // then becomes the command's.
        let words: [String] = ["sh", "-c", #"cd -- "$1" && exec /bin/sh -c "$2""#, "sh", directory, command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { (word: String) in strdup(word) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment(passing: passed, from: ProcessEnvironment.current)
            .map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        let spawned = spawning.withLock { posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp) }
        close(inPipe[0])
        close(errPipe[1])
        defer { close(errPipe[0]) }
        guard spawned == 0 else {
            close(inPipe[1])
            return .couldNotStart(String(cString: strerror(spawned)))
        }

        // Feed its input and read its error output as they go, neither blocking, until it
        // ends or its time is up.
        _ = fcntl(errPipe[0], F_SETFL, fcntl(errPipe[0], F_GETFL) | O_NONBLOCK)
        _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)
        var inputOpen = true, offset = 0
        defer { if inputOpen { close(inPipe[1]) } }
        var stderr: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            var progressed = false
            if inputOpen {
                let written = offset < input.count ? input.withUnsafeBytes { write(inPipe[1], $0.baseAddress! + offset, input.count - offset) } : 0
                if written > 0 {
                    offset += written
                    progressed = true
                }
                // All written, or it stopped reading (what it read is what it gets).
                if offset >= input.count || (written < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    close(inPipe[1])
                    inputOpen = false
                }
            }
            let count = read(errPipe[0], &buffer, buffer.count)
            if count > 0 {
                progressed = true
                if stderr.count < 65_536 { stderr += buffer[..<count] }
            }
            if waitpid(pid, &status, WNOHANG) == pid {
                while case let count = read(errPipe[0], &buffer, buffer.count), count > 0, stderr.count < 65_536 { stderr += buffer[..<count] }
                let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
                return .exited(code, stderr: String(decoding: stderr, as: UTF8.self))
            }
            if Date() >= deadline { break }
            if !progressed { usleep(5_000) }
        }
        // Past its time: the whole group, politely then not.
        kill(-pid, SIGTERM)
        let grace = Date().addingTimeInterval(1)
        while waitpid(pid, &status, WNOHANG) == 0 && Date() < grace { usleep(10_000) }
        kill(-pid, SIGKILL)
        waitpid(pid, &status, 0)
        return .timedOut
    }
}
