import ArgumentParser
import ChimeCore
import ChimePostgres
import ChimeReply
import ChimeRuntime
import Foundation

extension Chime {
    /// `chime store migrate`, `chime store copy`: the store itself, as an operator moves it.
    struct Store: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store",
            abstract: "Migrate the store, copy a whole deployment from one store to another, or forget old history.",
            subcommands: [Migrate.self, Copy.self, Prune.self]
        )

        /// `chime store` alone: its help on standard error and 64, as `chime` alone.
        func run() throws {
            try Chime.noCommand(Self.self)
        }
    }
}

extension Chime.Store.Migrate: GlobalCommand {}
extension Chime.Store.Copy: GlobalCommand {}
extension Chime.Store.Prune: GlobalCommand {}

extension Chime.Store {
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Bring the store named by --store up to date; print each migration that ran.",
            discussion: """
                Migrations also run on first use, once even when many processes start together; this runs them \
                explicitly (before starting workers after an upgrade, say). Prints one line per migration run, \
                or that the store was up to date.
                """
        )

        @OptionGroup var options: GlobalOptions

        func run() throws {
            let store = try options.runtime.openStore()
            let ran = (store as? any StoreMigrating)?.migrationsRun ?? []
            if ran.isEmpty { print("\(redacted(options.storeURL)): up to date") }
            for migration in ran { print("migrated: \(migration)") }
        }
    }

    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy everything a deployment holds from one store into another, empty one.",
            discussion: """
                Pending requests with their next instants, delivered notifications, the outbox with its attempts, \
                responses and inbound replies, recipients' settings and preferences, undeliverable marks, opt-ins, \
                digests and groups, idempotent API answers and the signing key (so every link and reply token \
                already sent still verifies). Stop every chime process using the source first. The target is \
                created when it does not exist and must hold nothing: a target that is not empty is refused (exit 73) \
                and left as it was. The copy is one transaction on the target, read and written in batches.
                Example: chime store copy --from sqlite:/var/lib/chime/chime.sqlite --to postgres://chime@db/chime
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .long, help: ArgumentHelp("The store to copy: sqlite:PATH, a bare path or postgres://…", valueName: "url"))
        var from: String

        @Option(name: .long, help: ArgumentHelp("The empty store to copy into (created when it does not exist).", valueName: "url"))
        var to: String

        @Option(name: .customLong("batch-size"), help: ArgumentHelp("Rows read and written at a time.", valueName: "n"))
        var batchSize = 1000

        func validate() throws {
            guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1") }
            guard from != to else { throw ValidationError("--from and --to name the same store") }
        }

        func run() throws {
            let started = Date()
            // A SQLite source that does not exist would be created empty and "copied".
            if let path = Runtime.sqlitePath(of: from) {
                guard FileManager.default.fileExists(atPath: path) else {
                    printError("chime store copy: error: --from \(from): no such store (nothing was copied)")
                    throw RuntimeFailure(66)
                }
            }
            let source = try copyable(from)
            let target = try copyable(to)
            // Said before reading anything; checked again in the copy's own transaction.
            guard try target.isEmpty() else { throw refusal() }
            let summary: StoreCopy.Summary
            do {
                summary = try StoreCopy.copy(from: source, to: target, batchSize: batchSize)
            } catch let error as StoreCopyError where error == .targetNotEmpty {
                throw refusal()
            } catch let error as StoreCopyError {
                printError("chime store copy: error: \(error): both stores must be of this version of chime (run chime store migrate on each)")
                throw RuntimeFailure(70)
            }
            for table in summary.tables where table.rows > 0 {
                print("\(table.name): \(table.rows)")
            }
            let seconds = Date().timeIntervalSince(started)
            print("copied \(summary.rows) rows from \(redacted(from)) to \(redacted(to)) in \(String(format: "%.1f", seconds)) s")
        }

        /// The store at `url`, opened (and migrated) as `--store` opens one.
        private func copyable(_ url: String) throws -> any StoreCopying {
            var runtime = options.runtime
            runtime.storeURL = url
            let store: any NotificationStore = try runtime.openStore()
            guard let copyable = store as? any StoreCopying else {
                printError("chime store copy: error: \(redacted(url)): this kind of store cannot be copied")
                throw RuntimeFailure(64)
            }
            return copyable
        }

        private func refusal() -> RuntimeFailure {
            printError("""
                chime store copy: error: the target store \(redacted(to)) is not empty: copy into a new store (a new SQLite path, \
                or a new PostgreSQL database); nothing was written
                """)
            return RuntimeFailure(73)
        }
    }
}

extension Chime.Store {
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Forget the history older than --older-than days: deliveries delivered, inbound messages, responses, chat threads, digests sent.",
            discussion: """
                Every email and webhook sent leaves its delivery and attempts in the store, every reply its inbound \
                record and response, every digest or thread group sent the notifications it held: a store sending \
                thousands a day grows by them for ever. This forgets those older \
                than the days given (a delivery by when it was queued, a digest by when it was sent), once no token can name them: reply, link and \
                chat tokens expire 30 days after their notification fired, so at least 31 days are kept. Kept whatever \
                their age: deliveries queued or failed (chime retry sends a failed one again), digests not yet sent, \
                pending requests, the delivered list (chime remove-delivered takes notifications off it), and the newest delivery, inbound message and \
                response, so that no id is given again. A notification answered stays answered. 1,000 rows a \
                transaction (50 digests; on SQLite with its write lock left free a moment after each), so chime run and chime \
                serve go on beside it. Run it once a day, e.g. chime store prune \
                --older-than 90 (deploy/crontab, chime-prune.timer). Prints what it forgot; --dry-run what it would, \
                forgetting nothing.
                """
        )

        @OptionGroup var options: GlobalOptions

        @Option(name: .customLong("older-than"), help: ArgumentHelp("Days of history kept (at least \(Self.fewestDays)).", valueName: "days"))
        var olderThan = 90

        @Flag(name: .customLong("dry-run"), help: "Count what would be forgotten; forget nothing.")
        var dryRun = false

        @Flag(name: .long, help: "Print one JSON object: cutoff, dryRun, deliveries, inbound, responses, threads, digests.")
        var json = false

        /// A day past the tokens' validity (they expire at the end of the day 30 days after
        /// their notification fired), so nothing a valid token names is forgotten.
        static let fewestDays = Int(ReplyToken.validity / 86_400) + 1

        func validate() throws {
            guard olderThan <= 36_500 else { throw ValidationError("--older-than must be at most 36500 days (a hundred years)") }
            guard olderThan >= Self.fewestDays else {
                throw ValidationError("--older-than must be at least \(Self.fewestDays) days: replies, links and chat presses of the last 30 days still name what it would forget")
            }
        }

        func run() throws {
            let cutoff = Instant(seconds: options.instant.seconds - Int64(olderThan) * 86_400)
            let forgotten = try options.runtime.openStore(existing: true).forgetHistory(before: cutoff, dryRun: dryRun)
            if json {
                try printJSON(Summary(cutoff: cutoff.rfc3339(offset: 0), dryRun: dryRun, forgotten: forgotten))
                return
            }
            let counts = [(forgotten.deliveries, "delivery", "deliveries"), (forgotten.inbound, "inbound message", "inbound messages"),
                          (forgotten.responses, "response", "responses"), (forgotten.threads, "chat thread", "chat threads"),
                          (forgotten.digests, "digest", "digests")]
                .map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }.joined(separator: ", ") + " from before \(cutoff.rfc3339(offset: 0))"
            print((dryRun ? "would forget " : "forgot ") + counts)
        }

        private struct Summary: Encodable {
            var cutoff: String
            var dryRun: Bool
            var forgotten: ForgottenHistory

            func encode(to encoder: any Encoder) throws {
                try forgotten.encode(to: encoder)
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(cutoff, forKey: .cutoff)
                try container.encode(dryRun, forKey: .dryRun)
            }

            private enum Keys: String, CodingKey { case cutoff, dryRun }
        }
    }
}

/// A store URL as it may be shown: a PostgreSQL URL as ``PostgresURL`` describes it
/// (user, server and database: no password, whether in the user information or in
/// `?password=`), any other as given (`sqlite:PATH` holds no secret).
func redacted(_ url: String) -> String {
    if PostgresURL.isMalformedPostgres(url) { return "a malformed PostgreSQL URL (not shown)" }
    guard PostgresURL.isPostgres(url) else { return url }
    return (try? PostgresURL(url).description) ?? "the PostgreSQL store"
}
