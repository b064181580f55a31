import ArgumentParser
import ChimeRuntime
import ChimeScheduler
import ChimeCore
import ChimeLocalization
import ChimeRendering
import Foundation

/// A command that reads requests from `--json FILE|-`: `chime schedule`, and `chime
/// preview`, which checks a request as `chime schedule` would take it.
protocol RequestFileCommand: ParsableCommand {
    var options: GlobalOptions { get }
    /// The `--json` argument: a path, or `-` for standard input.
    var json: String? { get }
}

extension RequestFileCommand {
    /// How errors name the input: its path, `<stdin>`, or the command (`chime schedule`)
    /// for a request made of flags.
    var source: String { json.map { $0 == "-" ? "<stdin>" : $0 } ?? "chime \(Self.configuration.commandName ?? "")" }
}

/// What `chime schedule` (and `chime preview --json`) checks of requests beyond their own
/// validity: files to attach and keys to localize, which live outside the request.
/// `POST /v1/requests` checks the same (``RequestChecks/requestProblems(_:base:templatesPath:)``).
extension RequestFileCommand {
    /// The requests with each attachment's path made absolute — a relative one is
    /// read from the request file's folder, or from the working directory for
    /// standard input — and each file checked: one that is missing, unreadable or too
    /// large refuses the requests before anything is stored.
    func withAttachmentsResolved(_ requests: [NotificationRequest], text: [UInt8]?) throws -> [NotificationRequest] {
        let base = json.flatMap { $0 == "-" ? nil : URL(fileURLWithPath: $0).deletingLastPathComponent().path }
            ?? FileManager.default.currentDirectoryPath
        let (resolved, problems) = RequestChecks.resolvingAttachments(requests, base: base)
        try refuse(problems, of: requests, text: text)
        return resolved
    }

    /// Refuses requests whose `titleLocKey` or `bodyLocKey` the recipient's locales of the
    /// templates do not have (unless the request carries literal text to fall back on), or
    /// whose arguments do not fit the key's format: such a reminder could only be held
    /// when it fires.
    func checkLocalizationKeys(_ requests: [NotificationRequest], configuration: Configuration, text: [UInt8]?) throws {
        let problems = RequestChecks.localizationProblems(requests, templatesPath: options.templatesPath, configuration: configuration)
        try refuse(problems, of: requests, text: text)
    }

    /// Prints each problem at its line and column in `text` and exits 65, when there are any.
    private func refuse(_ problems: [SchedulingError.Problem], of requests: [NotificationRequest], text: [UInt8]?) throws {
        guard !problems.isEmpty else { return }
        printError(SchedulingError(problems, batch: requests.count).lines(in: source, text: text))
        throw ExitCode(65)
    }
}
