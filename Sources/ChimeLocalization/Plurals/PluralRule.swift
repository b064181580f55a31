/// One CLDR plural rule condition, such as `v = 0 and i % 10 = 2..4 and i % 100 != 12..14`,
/// parsed once and evaluated against ``PluralOperands``.
///
/// Written by hand: the rule language is small (UTS #35, "Language Plural Rules"), and no
/// well-kept Swift package evaluates it on Linux without ICU's C API.
public struct PluralRule: Hashable, Sendable {
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) {
            self.message = message
        }
    }

    enum Operand: String, Hashable, Sendable {
        case n, i, v, w, f, t, c, e
    }

    struct Relation: Hashable, Sendable {
        var operand: Operand
        var modulus: Int?
        var negated: Bool
        /// `within` also matches non-integers between the bounds; `in` and `=` do not.
        var within: Bool
        var ranges: [ClosedRange<Int>]
    }

    /// Or-of-ands; empty means "always" (the `other` rule).
    let conditions: [[Relation]]

    /// Parses a rule's condition; the samples after `@` are ignored.
    public init(_ text: String) throws {
        let condition = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        var tokens = Tokens(condition)
        var conditions: [[Relation]] = []
        if !tokens.atEnd {
            repeat {
                var relations: [Relation] = []
                repeat {
                    relations.append(try tokens.relation())
                } while tokens.take("and")
                conditions.append(relations)
            } while tokens.take("or")
            guard tokens.atEnd else { throw ParseError(message: "unexpected \"\(tokens.peek ?? "")\" in plural rule \"\(condition)\"") }
        }
        self.conditions = conditions
    }

    /// Whether the rule holds for a number.
    public func matches(_ operands: PluralOperands) -> Bool {
        conditions.isEmpty || conditions.contains { $0.allSatisfy { $0.holds(for: operands) } }
    }
}

extension PluralRule.Relation {
    func holds(for operands: PluralOperands) -> Bool {
        var value: Int
        var integral = true
        switch operand {
        case .n:
            value = operands.i
            integral = operands.isIntegral
        case .i: value = operands.i
        case .v: value = operands.v
        case .w: value = operands.w
        case .f: value = operands.f
        case .t: value = operands.t
        case .c, .e: value = operands.c
        }
        if let modulus { value %= modulus }
        let found: Bool
        if integral {
            found = ranges.contains { $0.contains(value) }
        } else {
            // A fraction lies strictly inside a range's span only; `in` wants integers.
            found = within && ranges.contains { value >= $0.lowerBound && value < $0.upperBound }
        }
        return found != negated
    }
}

/// The tokens of a rule: words, numbers and the symbols `% = != , ..`.
private struct Tokens {
    private var items: [String]
    private var position = 0

    init(_ text: String) {
        var items: [String] = []
        var current = ""
        var characters = Array(text)
        characters.append(" ")
        var index = 0
        func flush() {
            if !current.isEmpty { items.append(current) }
            current = ""
        }
        while index < characters.count {
            let character = characters[index]
            if character == "." && index + 1 < characters.count && characters[index + 1] == "." {
                flush()
                items.append("..")
                index += 2
                continue
            }
            if character == "!" && index + 1 < characters.count && characters[index + 1] == "=" {
                flush()
                items.append("!=")
                index += 2
                continue
            }
            if "%=,".contains(character) {
                flush()
                items.append(String(character))
            } else if character.isWhitespace {
                flush()
            } else {
                current.append(character)
            }
            index += 1
        }
        self.items = items
    }

    var atEnd: Bool { position >= items.count }
    var peek: String? { atEnd ? nil : items[position] }

    mutating func take(_ token: String) -> Bool {
        guard peek == token else { return false }
        position += 1
        return true
    }

    mutating func next() throws -> String {
        guard let token = peek else { throw PluralRule.ParseError(message: "a plural rule ends too early") }
        position += 1
        return token
    }

    mutating func number() throws -> Int {
        let token = try next()
        guard let value = Int(token) else { throw PluralRule.ParseError(message: "expected a number in a plural rule, not \"\(token)\"") }
        return value
    }

    mutating func relation() throws -> PluralRule.Relation {
        let name = try next()
        guard let operand = PluralRule.Operand(rawValue: name) else {
            throw PluralRule.ParseError(message: "unknown plural operand \"\(name)\"")
        }
        var modulus: Int?
        if take("%") || take("mod") { modulus = try number() }
        var negated = false
        var within = false
        if take("is") {
            negated = take("not")
            let value = try number()
            return .init(operand: operand, modulus: modulus, negated: negated, within: false, ranges: [value...value])
        } else if take("=") {
        } else if take("!=") {
            negated = true
        } else {
            negated = take("not")
            if take("within") {
                within = true
            } else if !take("in") {
                throw PluralRule.ParseError(message: "expected = != in within or is after \"\(name)\"")
            }
        }
        var ranges: [ClosedRange<Int>] = []
        repeat {
            let low = try number()
            let high = take("..") ? try number() : low
            guard low <= high else { throw PluralRule.ParseError(message: "empty range \(low)..\(high) in a plural rule") }
            ranges.append(low...high)
        } while take(",")
        return .init(operand: operand, modulus: modulus, negated: negated, within: within, ranges: ranges)
    }
}
