import ChimeActions
import ChimeCore
import ChimeLocalization
import ChimeReply
import Foundation

// The desks the reply commands (ingest, respond, serve) are built on.

extension Runtime {
    /// The desk that reads replies, with the templates' translations of action titles, of
    /// the built-in snooze and done, and of the "reply above this line" marker; and the desk
    /// that carries out what they ask and answers.
    public func replyDesks(configuration: Configuration, store: any NotificationStore) throws -> (ReplyDesk, ActionDesk) {
        let localizer = try? Localizer(directory: templatesPath)
        let locales = localizer?.locales ?? []
        let titles: (String) -> [String] = { title in
            [title] + locales.compactMap { localizer?.localized(title, locale: $0) }
        }
        var builtIns: [BuiltInAction: [String]] = [:]
        for builtIn in BuiltInAction.allCases {
            builtIns[builtIn] = locales.compactMap { localizer?.word(for: builtIn, locale: $0) }
        }
        let markers = ["Reply above this line to answer."] + locales.compactMap { localizer?.string("ui.replyAbove", locale: $0)?.text }
        let reader = ReplyDesk(configuration: configuration, store: store,
                               key: try signingKey(store),
                               titles: titles, builtIns: builtIns, markers: markers)
        return (reader, ActionDesk(configuration: configuration, store: store, localizer: localizer, stateDirectory: statePath))
    }

    /// The desk that carries responses out, with the templates' strings (none: English),
    /// running hooks in the state folder.
    public func actionDesk(configuration: Configuration, store: any NotificationStore) -> ActionDesk {
        ActionDesk(configuration: configuration, store: store, localizer: try? Localizer(directory: templatesPath),
                   stateDirectory: statePath)
    }

    /// The key that signs tokens and links: `$CHIME_SECRET_KEY`, else the store's.
    /// - Throws: ``RuntimeFailure`` 65, said on standard error, for a key too short to trust.
    public func signingKey(_ store: any CoordinationStore) throws -> SigningKey {
        do {
            return try SigningKey.load(store: store, environment: ProcessInfo.processInfo.environment)
        } catch let error as SigningKey.TooShort {
            printError("chime: error: \(error)")
            throw RuntimeFailure(65)
        }
    }
}
