import ChimeTestSupport
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

    /// A `chime` process in `directory`, with this test's environment less `CHIME_CONFIG`.
    private static func make(_ arguments: [String], in directory: URL, environment: [String: String], program: URL? = nil) -> Process {
        let process = Process()
        process.executableURL = program ?? executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "CHIME_CONFIG")
        env.merge(environment) { $1 }
        process.environment = env
        return process
    }

    /// Starts `chime` and returns at once; the caller waits for it (or kills it).
    /// - Parameter withErrors: standard error goes to `output` too, as a service's
    ///   journal has both.
    /// - Parameter environment: set over this test's environment (`CHIME_WORKER_ID`…).
    static func start(_ arguments: [String], in directory: URL, output: URL? = nil, withErrors: Bool = false,
                      environment: [String: String] = [:]) throws -> Process {
        let process = make(arguments, in: directory, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let output {
            let handle = try FileHandle.creatingEmpty(at: output)
            process.standardOutput = handle
            if withErrors { process.standardError = handle }
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs another program (a test driver) as ``run(_:in:environment:input:timeout:program:)`` runs `chime`.
    static func runProgram(_ path: String, _ arguments: [String], timeout: TimeInterval = 60, environment: [String: String] = [:]) throws -> Result {
        try run(arguments, environment: environment, timeout: timeout, program: URL(fileURLWithPath: path))
    }

    /// Runs `chime` (or `program`) with these arguments in `directory`; stops it after `timeout` seconds.
    /// Output goes to temporary files, so no reader thread is needed however much it
    /// prints, and tests running side by side cannot starve each other.
    /// `input`, when given, is the file read as standard input.
    static func run(_ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:], input: URL? = nil,
                    timeout: TimeInterval = 60, program: URL? = nil) throws -> Result {
        let process = make(arguments, in: directory, environment: environment, program: program)
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("chime-out-\(UUID().uuidString)")
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("chime-err-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle.creatingEmpty(at: outURL)
        let err = try FileHandle.creatingEmpty(at: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        try? out.close()
        try? err.close()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }
}
