import Foundation

/// The real `chime` executable, run as a user would run it.
struct ChimeProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The run was stopped because it did not finish in time.
        var timedOut: Bool
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `$CHIME_BIN`, else the `chime` built beside this test binary.
    static let executable: URL = {
        if let path = ProcessInfo.processInfo.environment["CHIME_BIN"] {
            return URL(fileURLWithPath: path)
        }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("chime")
    }()

    /// Runs `chime` with these arguments in `directory`; stops it after `timeout` seconds.
    static func run(_ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:], timeout: TimeInterval = 60) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CHIME_CONFIG")
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            process.waitUntilExit()
            finished.signal()
        }
        // Read both pipes while the process runs, so a full pipe cannot block it.
        let outData = ReadAll(out.fileHandleForReading)
        let errData = ReadAll(err.fileHandleForReading)
        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
        }
        return Result(status: process.terminationStatus, stdout: outData.text(), stderr: errData.text(), timedOut: timedOut)
    }
}

/// Drains a pipe on a background queue.
private final class ReadAll: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            self.data = handle.readDataToEndOfFile()
            self.done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
