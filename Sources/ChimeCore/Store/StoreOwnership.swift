/// Whether a database is one Chime may write to, decided and said the same by both
/// stores: another program's (tables, and no record of Chime's migrations), or one a
/// newer Chime migrated (a migration this one does not know), is refused with nothing
/// added to it.
public enum StoreOwnership {
    /// A database Chime will not write to, and what to do: said as the failure's headline
    /// (exit 65), so that an old worker restarting in a rolling upgrade says to run the
    /// newer version, not to name another database.
    public struct Refused: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// A database holding `table` and no record of Chime's migrations.
    public static func anotherProgram(table: String) -> Refused {
        Refused(description: "this database is not a Chime store: it holds tables (\(table)) but no record of Chime's migrations, another program's, to which nothing was added: name another store")
    }

    /// A database whose recorded migrations (`applied`) are not all among those this Chime
    /// knows (`known`); nil when they are.
    public static func newer(applied: Set<String>, known: [String]) -> Refused? {
        let unknown = applied.subtracting(known).sorted()
        guard !unknown.isEmpty else { return nil }
        return Refused(description: "a newer chime migrated this store (\(unknown.joined(separator: ", "))): run that version, or restore a backup this one made")
    }
}
