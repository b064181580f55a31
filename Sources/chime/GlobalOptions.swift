import ArgumentParser
import ChimeConfig
import ChimeCore
import ChimeRuntime
import Foundation
import Logging

/// The options every command accepts (README, "The command line").
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The XML configuration (default: $CHIME_CONFIG, else ./chime.xml).", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("The store: sqlite:PATH or a bare path, or postgres://USER:PASSWORD@HOST:PORT/DB?sslmode=… (default: $CHIME_STORE, else sqlite:./chime.sqlite). Commands that only read or change what is stored refuse a SQLite file that does not exist (66).", valueName: "url"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("Localized templates and strings (default: $CHIME_TEMPLATES, else ./templates, else the installed share/chime/templates). A folder named that does not exist stops every command (66).", valueName: "dir"))
    var templates: String?

    @Option(name: .customLong("env-file"), help: ArgumentHelp("A file of NAME=value lines (systemd's EnvironmentFile format) read into the environment before anything else, where the environment does not set the name: the secrets that ${NAME} in chime.xml and CHIME_SECRET_KEY name (default: $CHIME_ENV_FILE).", valueName: "path"))
    var envFile: String?

    // Not `--state`, which `chime deliveries` filters by.
    @Option(name: .customLong("state-dir"), help: ArgumentHelp("The state folder, where action hooks run: one the service may write (default: $CHIME_STATE_DIR, else the store's folder).", valueName: "dir"))
    var stateDirectory: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("What to log on standard error: trace, debug, info (each notification's route, each reply, with recipient and request), notice, warning, error or critical (default: info for serve, warning otherwise).", valueName: "level"))
    var logLevel: Logger.Level?

    @Option(name: .customLong("log-format"), help: ArgumentHelp("How log records are written: text (one line each) or json (one object per line).", valueName: "format"))
    var logFormat: LogLines.Format = .text

    @Option(name: .long, help: ArgumentHelp("Pretend the current instant is this RFC 3339 instant.", valueName: "instant"))
    var now: String?

    /// One variable of the environment (as `--env-file` left it). `getenv` rather than
    /// Foundation's `environment`, which copies every variable into a dictionary at each
    /// call: five calls had been 2% of an idle cron tick.
    func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    var configPath: String { config ?? variable("CHIME_CONFIG") ?? "chime.xml" }

    /// Where ``configPath`` came from, for a message about it.
    var configSource: String { config != nil ? "--config" : variable("CHIME_CONFIG") != nil ? "$CHIME_CONFIG" : "the default (neither --config nor $CHIME_CONFIG is set)" }

    var storeURL: String { store ?? variable("CHIME_STORE") ?? "sqlite:./chime.sqlite" }

    /// `--state-dir`, else `$CHIME_STATE_DIR`, else the SQLite store's folder (`.` for a bare
    /// file name or a store that is no file): where command hooks run.
    var statePath: String {
        if let named = stateDirectory ?? variable("CHIME_STATE_DIR") { return named }
        let folder = ((Runtime.sqlitePath(of: storeURL) ?? "") as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `--templates`, else `$CHIME_TEMPLATES`, else `./templates`, else the installed
    /// share folder (`../share/chime/templates` beside the running binary's folder, its
    /// symbolic links resolved). Worked out with plain path operations: every command
    /// asks, and Foundation's URL made this a tenth of an idle cron tick's own work.
    var templatesPath: String {
        if let named = templates ?? variable("CHIME_TEMPLATES") { return named }
        if access("templates", F_OK) == 0 { return "templates" }
        guard let binary = realpath("/proc/self/exe", nil) ?? realpath(CommandLine.arguments[0], nil) else { return "templates" }
        defer { free(binary) }
        let prefix = ((String(cString: binary) as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        let installed = prefix + "/share/chime/templates"
        return access(installed, F_OK) == 0 ? installed : "templates"
    }

    /// Whether the templates folder was named rather than defaulted.
    var templatesGiven: Bool { templates != nil || variable("CHIME_TEMPLATES") != nil }

    /// `--now` as an instant, or the clock.
    var instant: Instant {
        now.flatMap(Instant.init(rfc3339:)) ?? Instant(Date())
    }

    /// Chime assembled from what these options name.
    var runtime: Runtime {
        Runtime(configPath: configPath, configSource: configSource, storeURL: storeURL, templatesPath: templatesPath,
                statePath: statePath, now: now.flatMap(Instant.init(rfc3339:)), environmentFile: environmentFilePath)
    }

    func validate() throws {
        if let now, Instant(rfc3339: now) == nil {
            throw ValidationError("--now needs an RFC 3339 instant such as 2026-11-21T09:00:00Z, not \"\(now)\"")
        }
    }

    /// A folder named with --templates or $CHIME_TEMPLATES (the environment file's
    /// included) must exist, for every command: `deploy/crontab` names one, and a typo in
    /// it (or a missed install) had every email go out in the built-in strings, without a
    /// word but from `chime check`. The default ./templates is optional.
    /// - Throws: ``ConfigurationError`` (unreadable) naming the folder.
    func checkTemplatesFolder() throws {
        if templatesGiven, !templatesFolderExists {
            throw ConfigurationError(.unreadable, [Diagnostic(.error, at: SourceLocation(file: templatesPath), "no such templates folder")])
        }
    }

    /// Whether the templates folder is there, as a folder.
    var templatesFolderExists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: templatesPath, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
