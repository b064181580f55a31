/// Whether a database is one Chime may write to, decided and said the same by both
/// stores: another program's (tables, and no record of Chime's migrations), or one a
/// newer Chime migrated (a migration this one does not know), is refused with nothing
/// added to it.
public enum StoreOwnership {
    /// Why a database holding `table` and no record of Chime's migrations is refused.
    public static func anotherProgram(table: String) -> String {
        "it holds tables (\(table)) but no record of Chime's migrations: another program's database, to which nothing is added"
    }

    /// Why a database whose recorded migrations (`applied`) are not all among those this
    /// Chime knows (`known`) is refused; nil when they are.
    public static func newer(applied: Set<String>, known: [String]) -> String? {
        let unknown = applied.subtracting(known).sorted()
        guard !unknown.isEmpty else { return nil }
        return "it was migrated by a newer chime (\(unknown.joined(separator: ", "))): run that version, or restore a backup this one made"
    }
}
