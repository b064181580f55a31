import ArgumentParser
import ChimeConfig
import Foundation
import ChimeCurl
import ChimePostgres
import ChimeRuntime
import ChimeSQLite
import ChimeXML

/// `chime`: the command line. Each command parses its arguments and delegates to the
/// libraries; exit codes follow sysexits (docs/requests.md, "Exit codes").
/// Every command names itself (`commandName`): without, swift-argument-parser derives the
/// name from the type's with `String(describing:)`, whose protocol-conformance lookups
/// scan every conformance of this static binary, for each command of the tree: 12% of a
/// `chime run` with nothing due.
@main
struct Chime: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chime",
        abstract: "Reminders with actions, delivered by email and chat, answered by reply.",
        discussion: """
            Exit codes (sysexits): 0 ok, 64 usage, 65 bad input or configuration, \
            66 input file missing, 69 server unreachable, 70 internal error, \
            73 store cannot be created, 75 temporary failure.
            """,
        version: ChimeVersion.text(asked: CommandLine.arguments.dropFirst().contains("--version")),
        subcommands: [
            Check.self, Categories.self, Schedule.self, Pending.self, Cancel.self, Delivered.self,
            RemoveDelivered.self, Next.self, Run.self, Digest.self, Preview.self, Deliveries.self, Failed.self, Retry.self,
            Ingest.self, Fetch.self, Respond.self, Responses.self, Replies.self, Recipients.self, Serve.self, Store.self,
        ]
    )

    /// Declared here too so that global options may come before the command name
    /// (`chime --config x.xml check`); each command reads them from its own group.
    @OptionGroup var options: GlobalOptions

    /// Parses and runs like ArgumentParser's own `main`, except that an error no command
    /// turned into an exit code is an internal error: it is printed and exits 70, as
    /// the documentation has it (ArgumentParser would exit 1).
    static func main() {
        let command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            // `chime ingest` runs in an MTA's pipe, which bounces the reply on 64: an option
            // misspelt in master.cf, or renamed by an upgrade, is the operator's to mend
            // while the MTA keeps the mail (75), as ingest's other setup failures are.
            if exitCode(for: error) != .success, commandName(in: CommandLine.arguments.dropFirst()) == Ingest.configuration.commandName {
                printError(fullMessage(for: error))
                Foundation.exit(Ingest.setupFailureCode(.invalid))
            }
            exit(withError: error)
        }
        if let global = command as? any GlobalCommand {
            LogLines.bootstrap(level: global.options.logLevel ?? type(of: global).defaultLogLevel, format: global.options.logFormat)
            do {
                try global.options.applyEnvironmentFile()
                try global.options.checkTemplatesFolder()
            } catch let error as ConfigurationError {
                printDiagnostics(error.diagnostics)
                Foundation.exit(type(of: global).setupFailureCode(error.kind))
            } catch {
                printError("chime: error: \(error)")
                Foundation.exit(70)
            }
        }
        do {
            var running = command
            try running.run()
        } catch let error as ExitCode {
            exit(withError: error)
        } catch let failure as RuntimeFailure {
            // Said already, on standard error.
            Foundation.exit(failure.exitCode)
        } catch let error as CleanExit {
            exit(withError: error)
        } catch let error as ValidationError {
            exit(withError: error)
        } catch where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // Its own errors (help requested, usage) keep their meaning and codes.
            exit(withError: error)
        } catch {
            // The store's failures say what to do, with the code that fits; others are
            // internal errors.
            if let failure = StoreFailure(error, path: openedStorePath) {
                printError(failure.description)
                Foundation.exit(failure.exitCode)
            }
            if let failure = error as? PostgresStoreFailure {
                printError(failure.description)
                Foundation.exit(failure.exitCode)
            }
            printError("chime: error: \(error)")
            Foundation.exit(70)
        }
    }
}

extension Chime {
    /// No command named (`chime`, `chime --config x.xml`): the help on standard error and
    /// 64, a usage error, where swift-argument-parser would print it and exit 0: a
    /// crontab line missing its `run` did nothing every minute, silently.
    func run() throws {
        try Self.noCommand()
    }

    /// A command group run without one of its commands (`chime`, `chime store`): its help
    /// on standard error, and 64.
    static func noCommand(_ group: any ParsableCommand.Type = Chime.self) throws -> Never {
        printError(group.helpMessage())
        throw ExitCode(64)
    }

    /// The global options that take a value (``GlobalOptions``), as they may come before
    /// a command's name.
    static let valuedGlobalOptions: Set = ["--config", "--store", "--templates", "--env-file", "--state-dir", "--log-level", "--log-format", "--now"]

    /// The command a command line names, for a line swift-argument-parser refused: its
    /// first word that names a command and is not a known global option's value. A value of
    /// an option it does not know (`--env-fil /etc/chime/secrets.env ingest`, misspelt in
    /// master.cf, or renamed by an upgrade) is passed over as any word naming no command.
    static func commandName(in arguments: ArraySlice<String>) -> String? {
        let commands = Set(configuration.subcommands.compactMap { $0.configuration.commandName })
        var arguments = arguments.makeIterator()
        while let argument = arguments.next() {
            if valuedGlobalOptions.contains(argument) {
                _ = arguments.next()
            } else if commands.contains(argument) {
                return argument
            }
        }
        return nil
    }
}

enum ChimeVersion {
    static let number = "0.1.0"

    /// What `--version` prints: Chime's version and the libcurl and libxml2 it runs with.
    /// swift-argument-parser reads a command's configuration at every start, and naming
    /// libcurl means loading it (about 8 ms of ~30 libraries, see `CChimeCurl.h`), so the
    /// libraries are named only when `--version` was `asked` for; other commands get the
    /// number alone, which they never print.
    static func text(asked: Bool) -> String {
        asked ? "chime \(number) (\(Curl.version); libxml2 \(XMLDocument.libraryVersion))" : "chime \(number)"
    }
}
