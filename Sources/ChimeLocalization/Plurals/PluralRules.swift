/// A language's plural rules: its categories in CLDR's order, `other` last.
public struct PluralRules: Sendable {
    public let rules: [(category: PluralCategory, rule: PluralRule)]

    public init(_ rules: [(category: PluralCategory, rule: PluralRule)]) {
        self.rules = rules
    }

    /// The category of a number: the first whose rule holds, else `other`.
    public func category(for operands: PluralOperands) -> PluralCategory {
        rules.first { $0.category != .other && $0.rule.matches(operands) }?.category ?? .other
    }

    public func category(for value: Int) -> PluralCategory {
        category(for: PluralOperands(value))
    }

    /// Languages without plural distinctions (Japanese, Chinese, …) and the fallback.
    public static let otherOnly = PluralRules([])
}
