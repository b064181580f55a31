import ArgumentParser
import ChimeConfig
import ChimeCore
import ChimeDelivery
import ChimeLocalization
import ChimeRendering
import ChimeReply
import ChimeRuntime
import Foundation

extension Chime {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate the configuration; print a summary, or every error (exit 65).",
            discussion: """
                Errors are printed as path:line:col: error: message; a misspelt element or attribute gets the name \
                meant. A missing file exits 66. A channel secret under \
                16 characters and a CHIME_SECRET_KEY under 32 bytes are refused (exit 65), as are a Discord secret that is not \
                the application's public key (64 hexadecimal digits), a Telegram secret setWebhook would refuse, and a locale whose language is \
                not an ISO 639 code; a recipient whose language has no strings (built in or in the templates) is a warning, \
                as are a value written as a key that no locale has, a template override no message uses, and a state \
                folder missing or not writable while an action runs a command hook. \
                A channel's caFile that cannot be read or holds no PEM certificate is an error here (exit 65); other commands \
                load the configuration all the same, and only that channel's deliveries fail while it is so. \
                With --probe, each SMTP and webhook channel is also tried (SMTP: connect, TLS, \
                login, NOOP; webhooks: HTTP HEAD), nothing is sent, and an unreachable one exits 69.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Flag(name: .long, help: "Try connecting to each SMTP and webhook channel.")
        var probe = false

        func run() throws {
            let configuration = try options.runtime.loadConfiguration()
            if let key = ProcessInfo.processInfo.environment["CHIME_SECRET_KEY"], !key.isEmpty, key.utf8.count < SigningKey.shortest {
                printError("chime: error: \(SigningKey.TooShort(length: key.utf8.count))")
                throw ExitCode(65)
            }
            let diagnostics = try configuration.fileProblems + checkLocalization(configuration) + warnings(configuration)
            printDiagnostics(diagnostics)
            if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(65) }
            print("ok: \(configuration.summary)")
            guard probe else { return }
            let results = Probe.run(configuration)
            for result in results {
                print("\(result.channel): \(result.reachable ? "reachable" : "unreachable"): \(result.detail)")
            }
            if results.contains(where: { !$0.reachable }) { throw ExitCode(69) }
        }

        /// The folder's Mustache templates that `chime run` could not use (not UTF-8, not
        /// Mustache: it would hold every message back), and those it would not use (a name
        /// misspelt: the built-in template would stand in without a word).
        private func templateProblems(_ path: String, _ configuration: Configuration) -> [Diagnostic] {
            do {
                let root = (path as NSString).appendingPathComponent("mustache")
                return try TemplateSet(directory: path).unusedOverrides(categories: configuration.categories.map(\.identifier)).map { file, meant in
                    Diagnostic(.warning, at: SourceLocation(file: (root as NSString).appendingPathComponent(file)),
                               "no message uses this template\(meant.map { " (did you mean \($0)?)" } ?? ""): each is \(TemplateSet.Name.allCases.map(\.rawValue).joined(separator: ", ")), in mustache/ or in a folder named for a category of \(options.configPath); the built-in template is used in its place")
                }
            } catch let error as TemplateSet.LoadError {
                let at = SourceLocation(file: error.path, line: error.position?.line ?? 0, column: error.position?.column ?? 0)
                return [Diagnostic(.error, at: at, error.message)]
            } catch {
                return [Diagnostic(.error, at: SourceLocation(file: path), "\(error)")]
            }
        }

        /// Reports recipients whose language has no strings (built in or in the templates
        /// folder), and keys missing for recipients' locales in the templates folder.
        /// The templates folder is checked when there is one (a folder named with
        /// --templates or $CHIME_TEMPLATES that does not exist stops every command before
        /// it starts, ``GlobalOptions/checkTemplatesFolder()``).
        private func checkLocalization(_ configuration: Configuration) throws -> [Diagnostic] {
            let path = options.templatesPath
            let present = options.templatesFolderExists
            do {
                let localizer = try Localizer(directory: path) // without the folder, the built-in strings alone
                return localizer.languageGaps(configuration, templates: path, configurationFile: options.configPath)
                    + localizer.unknownKeys(configuration, configurationFile: options.configPath)
                    + (present ? localizer.check(configuration, templates: path) + templateProblems(path, configuration) : [])
            } catch let error as Localizer.LoadError {
                printDiagnostics(error.diagnostics)
                throw ExitCode(65)
            }
        }
    }
}
