/// The CLDR plural categories, as `.stringsdict` names them.
public enum PluralCategory: String, CaseIterable, Hashable, Sendable {
    case zero, one, two, few, many, other
}
