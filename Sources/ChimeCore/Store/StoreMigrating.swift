/// A store whose schema is kept by named, forward-only migrations, run when it is opened:
/// once each, even when many processes open a new store at the same moment (the check
/// of what was applied and the migrations are one transaction, or run under a lock).
/// `chime store migrate` opens a store and prints what its opening ran.
public protocol StoreMigrating {
    /// The identifiers of the migrations that opening this store ran, in order; empty when
    /// it was up to date, or another process had just brought it up to date.
    var migrationsRun: [String] { get }
}
