import ChimeConfig
import ChimeCore
import ChimeDelivery
import ChimeRendering
import ChimeReply
import Foundation

/// What `chime check` warns of beside the errors: what would quietly not work once
/// deployed (links that lead nowhere, buttons that cannot come back, secrets others may
/// read, a setting the environment file gives that is not used).
extension Chime.Check {
    func warnings(_ configuration: Configuration) -> [Diagnostic] {
        linkBaseWarnings(configuration) + loopbackLinkWarnings(configuration) + pressWarnings(configuration) + telegramLinkWarnings(configuration)
            + replyToWarnings(configuration) + transportSecurityWarnings(configuration) + environmentFileWarnings() + inlineSecretWarnings(configuration)
            + stateFolderWarnings(configuration)
    }

    /// Command hooks run in the state folder (`--state-dir`, `$CHIME_STATE_DIR`, else the
    /// store's folder), `cd`'d into first: one missing, or that this user may not enter,
    /// fails every hook at its first press; one this user may not write, every hook that
    /// writes a file there. Said for the user running `chime check`, which should be the
    /// service's.
    func stateFolderWarnings(_ configuration: Configuration) -> [Diagnostic] {
        guard configuration.categories.contains(where: { $0.actions.contains { $0.hooks.contains(where: \.runsCommand) } }) else { return [] }
        let path = options.statePath
        var folder: ObjCBool = false
        let problem: String
        if !FileManager.default.fileExists(atPath: path, isDirectory: &folder) {
            problem = "does not exist: every hook would fail"
        } else if !folder.boolValue {
            problem = "is not a folder: every hook would fail"
        } else if access(path, X_OK) != 0 {
            problem = "is not one this user may enter: every hook would fail"
        } else if access(path, W_OK) != 0 {
            problem = "is not one this user may write: a hook writing a file there would fail"
        } else {
            return []
        }
        return [Diagnostic(.warning, at: SourceLocation(file: path),
                           "the state folder, where command hooks run, \(problem) (as the user running chime check); make it, writable by the service, or name another with --state-dir or $CHIME_STATE_DIR")]
    }

    /// An email channel without `replyTo`: its messages' reply links (`mailto:`) and the
    /// Reply-To of its digests and threads' messages are its From address, which carries
    /// no token, so such a reply is matched to nothing (a single email's reply still is,
    /// by its In-Reply-To).
    func replyToWarnings(_ configuration: Configuration) -> [Diagnostic] {
        configuration.channels.filter { $0.url.kind.isEmail && $0.replyTo == nil }.map { channel in
            Diagnostic(.warning, at: SourceLocation(file: options.configPath),
                       "channel \"\(channel.id)\" has no replyTo: its reply links (mailto:) and replies to its digests and threads' messages carry no token, and chime ingest matches them to nothing; set replyTo to a plus-address, as in bot+{token}@reply.example.org")
        }
    }

    /// A file's permission bits in octal (`644`) when every user of the machine may read it.
    static func worldReadableMode(_ path: String) -> String? {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, mode & 0o004 != 0 else { return nil }
        return String(mode & 0o777, radix: 8)
    }

    /// A secret written in a chime.xml that every user of the machine may read (as the
    /// umask makes files), where secrets.env is kept root:chime, mode 0640.
    func inlineSecretWarnings(_ configuration: Configuration) -> [Diagnostic] {
        guard !configuration.inlineSecrets.isEmpty, let mode = Self.worldReadableMode(options.configPath) else { return [] }
        return configuration.inlineSecrets.map { location in
            Diagnostic(.warning, at: location,
                       "a secret is written here, in a file every user of this machine may read (mode \(mode)): give it as ${NAME} from the environment file, or chmod 640 this file")
        }
    }

    /// The environment file holds the secrets: one that every user of the machine may
    /// read is said (the README's install makes it root:chime, mode 0640); so is each of
    /// its names that this run does not take from it.
    func environmentFileWarnings() -> [Diagnostic] {
        guard let path = options.environmentFilePath else { return [] }
        var warnings = overriddenWarnings(path)
        if let mode = Self.worldReadableMode(path) {
            warnings.append(Diagnostic(.warning, at: SourceLocation(file: path),
                                       "every user of this machine may read this file of secrets (mode \(mode)): chmod 640 it, owned by root and chime's group"))
        }
        return warnings
    }

    /// The file sets a name only where the environment does not: a `CHIME_STORE` moved
    /// to PostgreSQL in it is not used by a process whose unit, crontab or container
    /// still sets the SQLite one (which then fires everything a second time), nor by a
    /// command given `--store`. Each such name is said, never its values.
    func overriddenWarnings(_ path: String) -> [Diagnostic] {
        guard let file = try? EnvironmentFile(path: path) else { return [] }
        let flags = ["CHIME_CONFIG": (options.config, "--config"), "CHIME_STORE": (options.store, "--store"), "CHIME_TEMPLATES": (options.templates, "--templates")]
        let last = file.lastValues
        var said: Set<String> = []
        return file.variables.compactMap { name, _ in
            guard said.insert(name).inserted else { return nil }
            let why: String
            if let (given, flag) = flags[name], given != nil {
                why = "\(flag) is given"
            } else if let value = options.variable(name), value != last[name] {
                why = "the environment already sets it (a unit's Environment=, a crontab line, a container's ENV)"
            } else {
                return nil
            }
            return Diagnostic(.warning, at: SourceLocation(file: path),
                              "\(name) here is not used: \(why), and a name the environment sets is not read from this file; set it in one place only")
        }
    }

    /// Messages carry links (actions, preferences, unsubscribe): without a linkBase
    /// they lead to https://chime.invalid, nowhere.
    func linkBaseWarnings(_ configuration: Configuration) -> [Diagnostic] {
        guard configuration.replies.linkBase == ReplySettings().linkBase,
              configuration.channels.contains(where: { $0.url.kind.isEmail || $0.url.kind.isWebhook }) else { return [] }
        return [Diagnostic(.warning, at: SourceLocation(file: options.configPath),
                           "<replies linkBase> is not set: the links in messages (actions, preferences, unsubscribe) lead to \(ReplySettings().linkBase), nowhere; set it to where chime serve is reached, e.g. <replies linkBase=\"https://chime.example.org\"/>")]
    }

    /// A linkBase on this machine's loopback (the example's, for trying Chime out) in
    /// messages that leave it: a chat platform's, or mail through a relay elsewhere.
    /// Their recipients' links lead to their own machine.
    func loopbackLinkWarnings(_ configuration: Configuration) -> [Diagnostic] {
        let linkBase = configuration.replies.linkBase
        guard Self.isLoopback(URLComponents(string: linkBase)?.host) else { return [] }
        let away = configuration.channels.filter { ($0.url.kind.isWebhook || $0.url.kind.isEmail) && !$0.url.kind.isLocal && !Self.isLoopback($0.url.host) }
        return away.map { channel in
            Diagnostic(.warning, at: SourceLocation(file: options.configPath),
                       "<replies linkBase=\"\(linkBase)\"> is this machine's own address: the links in channel \"\(channel.id)\"'s messages (actions, View, preferences, unsubscribe) lead nowhere for their recipients; set it to chime serve's public URL, e.g. https://chime.example.org")
        }
    }

    /// Whether a host is this machine's loopback (or a local relay's).
    static func isLoopback(_ host: String?) -> Bool {
        let host = host?.lowercased() ?? ""
        return ["::1", "[::1]", "localhost"].contains(host) || host.hasPrefix("127.")
    }

    /// Telegram refuses a message whose buttons link to a host without a dot: with such a
    /// linkBase, its messages go without their link buttons (View, and every action's
    /// where presses cannot come back).
    func telegramLinkWarnings(_ configuration: Configuration) -> [Diagnostic] {
        let linkBase = configuration.replies.linkBase
        guard !ChatPayload.telegramLinkable(linkBase), let host = URLComponents(string: linkBase)?.host else { return [] }
        return configuration.channels.filter { $0.url.kind == .telegram }.map { channel in
            Diagnostic(.warning, at: SourceLocation(file: options.configPath),
                       "channel \"\(channel.id)\": Telegram refuses buttons that link to a host without a dot (\(host)), so its messages go without their link buttons; set <replies linkBase> to a domain name chime serve is reached at")
        }
    }

    /// A Slack or Telegram channel without its secret cannot verify presses: its
    /// messages carry links, and `chime serve` refuses its callbacks.
    func pressWarnings(_ configuration: Configuration) -> [Diagnostic] {
        configuration.channels.filter { [.slack, .telegram].contains($0.url.kind) && !$0.takesPresses }.map { channel in
            let (platform, secret) = channel.url.kind == .slack
                ? ("Slack", "the Slack app's signing secret")
                : ("Telegram", "the secret_token given to the bot's setWebhook")
            return Diagnostic(.warning, at: SourceLocation(file: options.configPath),
                              "channel \"\(channel.id)\" has no secret: presses on \(platform) buttons cannot be verified, so its messages carry links instead of buttons; set secret to \(secret) to get buttons")
        }
    }

    /// A password sent where TLS is only taken when offered (`smtp://`, `imap://`
    /// without `?starttls=required`: whoever can tamper with the connection strips the
    /// offer and reads it), and TLS certificates not verified (`?insecure=true`, for
    /// tests): both are allowed, and said.
    func transportSecurityWarnings(_ configuration: Configuration) -> [Diagnostic] {
        configuration.channels.flatMap { channel -> [Diagnostic] in
            var warnings: [Diagnostic] = []
            if channel.url.kind.upgradesWithSTARTTLS, channel.url.password != nil, channel.url.startTLS == .opportunistic, !Self.isLoopback(channel.url.host) {
                warnings.append(Diagnostic(.warning, at: SourceLocation(file: options.configPath),
                                           "channel \"\(channel.id)\" sends its password over \(channel.url.kind.rawValue):// upgraded to TLS only when the server offers it, which anyone on the way can stop it doing: use \(channel.url.kind.rawValue)s:// or add ?starttls=required"))
            }
            if channel.url.insecure, channel.url.kind != .json {
                warnings.append(Diagnostic(.warning, at: SourceLocation(file: options.configPath),
                                           "channel \"\(channel.id)\" does not verify TLS certificates (insecure=true): meant for tests against a self-signed server"))
            }
            return warnings
        }
    }
}
