import ArgumentParser
import ChimeCore
import ChimeLocalization
import Foundation

extension Chime {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate the configuration; print a summary, or every error (exit 65).",
            discussion: "Errors are printed as path:line:col: error: message. A missing file exits 66."
        )

        @OptionGroup var options: GlobalOptions

        func run() throws {
            let configuration = try loadConfiguration(options)
            let diagnostics = try checkTemplates(configuration)
            printDiagnostics(diagnostics)
            if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(65) }
            print("ok: \(configuration.summary)")
        }

        /// Reads the templates folder and reports keys missing for recipients' locales.
        /// A folder named with --templates or $CHIME_TEMPLATES must exist; the default
        /// ./templates is checked when present.
        private func checkTemplates(_ configuration: Configuration) throws -> [Diagnostic] {
            let path = options.templatesPath
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                guard options.templatesGiven else { return [] }
                printDiagnostics([Diagnostic(.error, at: SourceLocation(file: path), "no such templates folder")])
                throw ExitCode(66)
            }
            do {
                return try Localizer(directory: path).check(configuration, templates: path)
            } catch let error as Localizer.LoadError {
                printDiagnostics(error.diagnostics)
                throw ExitCode(65)
            }
        }
    }
}
