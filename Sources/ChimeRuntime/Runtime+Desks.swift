import ChimeActions
import ChimeCore
import ChimeLocalization
import ChimeReply
import Foundation

// The desks the reply commands (ingest, respond, serve) are built on.

extension Runtime {
    /// The desk that reads replies, with the templates' translations of action titles, of
    /// the built-ins' reply words (snooze's "Remind me later" among them) and of the
    /// "reply above this line" marker; and the desk that carries out what they ask and answers.
    /// - Parameters:
    ///   - failureCode: the exit code when the templates folder's strings cannot be read
    ///     (said on standard error, file by file): without them a reply in French would be
    ///     read as no answer at all, so nothing is read until they are mended.
    ///   - environment: where `CHIME_SECRET_KEY` is read (a reload's, before it is in force).
    public func replyDesks(configuration: Configuration, store: any NotificationStore, failureCode: Int32,
                           environment: [String: String] = ProcessEnvironment.current) throws -> (ReplyDesk, ActionDesk) {
        let localizer = try localizer(failureCode: failureCode)
        let locales = localizer.locales
        let titles: @Sendable (String) -> [String] = { title in
            [title] + locales.map { localizer.localized(title, locale: $0) }
        }
        var builtIns: [BuiltInAction: [String]] = [:], otherWords: [BuiltInAction: [String]] = [:]
        for builtIn in BuiltInAction.allCases {
            builtIns[builtIn] = locales.compactMap { localizer.word(for: builtIn, locale: $0) }
            otherWords[builtIn] = locales.flatMap { localizer.otherWords(for: builtIn, locale: $0) }
        }
        /// A string in every locale the templates have.
        func all(_ key: String) -> [String] { locales.compactMap { localizer.string(key, locale: $0)?.text } }
        let markers = ["Reply above this line to answer."] + all("ui.replyAbove")
        let english = ActionMatcher.englishMenuForms
        let menuForms = ActionMatcher.MenuForms(lines: english.lines + all("ui.reply") + all("ui.open"), notes: english.notes + all("ui.destructive"))
        let reader = ReplyDesk(configuration: configuration, store: store,
                               key: try signingKey(store, environment: environment),
                               titles: titles, builtIns: builtIns, otherWords: otherWords, namesTime: { [now] in ActionDesk.snoozeNamesTime($0, now: now ?? Instant(Date())) },
                               markers: markers, menuForms: menuForms)
        return (reader, ActionDesk(configuration: configuration, store: store, localizer: localizer, stateDirectory: statePath))
    }

    /// The desk that carries responses out, with the templates' strings, running hooks in
    /// the state folder.
    /// - Throws: ``RuntimeFailure`` 65 when the templates' strings cannot be read.
    public func actionDesk(configuration: Configuration, store: any NotificationStore) throws -> ActionDesk {
        ActionDesk(configuration: configuration, store: store, localizer: try localizer(failureCode: 65), stateDirectory: statePath)
    }

    /// The templates folder's strings over the built-in ones.
    /// - Throws: ``RuntimeFailure`` with `failureCode` when a file in it is not valid,
    ///   each such file said on standard error with its line and column.
    func localizer(failureCode: Int32) throws -> Localizer {
        do {
            return try Localizer(directory: templatesPath)
        } catch let error as Localizer.LoadError {
            printDiagnostics(error.diagnostics)
            printError("chime: the templates' strings cannot be read; mend them (chime check shows the same)")
            throw RuntimeFailure(failureCode)
        }
    }

    /// The key that signs tokens and links: `$CHIME_SECRET_KEY` of `environment`, else the store's.
    /// - Throws: ``RuntimeFailure`` 65, said on standard error, for a key too short to trust.
    public func signingKey(_ store: any CoordinationStore, environment: [String: String] = ProcessEnvironment.current) throws -> SigningKey {
        try refusingShortKey { try SigningKey.load(store: store, environment: environment) }
    }

    /// 65, said on standard error, when `$CHIME_SECRET_KEY` is set and too short: checked
    /// before firing, where the key is otherwise read with the first message, and each
    /// message was held, one by one, for a reason that read `RuntimeFailure(exitCode: 65)`,
    /// and the run exited 75, which a timer takes for "try again".
    public func checkSigningKey() throws {
        try refusingShortKey { try SigningKey.checkEnvironment(ProcessEnvironment.current) }
    }

    private func refusingShortKey<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SigningKey.TooShort {
            printError("chime: error: \(error)")
            throw RuntimeFailure(65)
        }
    }
}
