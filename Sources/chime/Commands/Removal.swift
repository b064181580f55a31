import ArgumentParser
import ChimeCore
import ChimeRuntime
import ChimeSQLite

extension Chime {
    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Remove pending requests.")

        @OptionGroup var removal: Removal

        func run() throws {
            try removal.run(verb: "cancelled", missing: "not pending", one: { try $0.cancel($1) }, all: { try $0.cancelAll() })
        }
    }

    struct RemoveDelivered: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove-delivered", abstract: "Remove delivered notifications.")

        @OptionGroup var removal: Removal

        func run() throws {
            try removal.run(verb: "removed", missing: "not delivered", one: { try $0.removeDelivered($1) }, all: { try $0.removeAllDelivered() })
        }
    }
}

/// `ID… | --all`, shared by `cancel` and `remove-delivered`.
struct Removal: ParsableArguments {
    @OptionGroup var options: GlobalOptions

    @Argument(help: "Identifiers.")
    var identifiers: [String] = []

    @Flag(name: .long, help: "Remove every one.")
    var all = false

    func validate() throws {
        guard all != !identifiers.isEmpty else { throw ValidationError("give identifiers or --all") }
    }

    /// Prints `VERB N`, and the identifiers that were not there on standard error.
    func run(verb: String, missing: String, one: (any NotificationStore, [String]) throws -> [String], all removeAll: (any NotificationStore) throws -> Int) throws {
        let store = try options.runtime.openStore(existing: true)
        if all {
            print("\(verb) \(try removeAll(store))")
            return
        }
        let removed = try one(store, identifiers)
        print("\(verb) \(removed.count)")
        let absent = identifiers.filter { !removed.contains($0) }
        if !absent.isEmpty { printError(printable("\(missing): \(absent.joined(separator: " "))")) }
    }
}
