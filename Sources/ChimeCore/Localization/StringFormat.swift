import Foundation

/// An argument to a localized format: loc-args arrive as strings (as in APNs payloads),
/// counts as integers.
public enum FormatArgument: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case integer(Int)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }

    /// The argument as text.
    public var textValue: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        }
    }

    /// The argument as an integer: itself, or a string holding one.
    public var integerValue: Int? {
        switch self {
        case .integer(let value): value
        case .string(let value): Int(value.trimmingCharacters(in: .whitespaces))
        }
    }
}

/// `String(format:)` for the specifiers localized iOS strings use — `%@`, `%d`, `%i`,
/// `%u`, `%ld`, `%lld`, `%lu`, `%llu`, `%x`, `%%`, positional (`%1$@`) or not — plus the
/// `.stringsdict` variables `%#@name@` and `%1$#@name@`, whose text a `variable` closure
/// supplies for the argument they stand for.
///
/// Written by hand: Foundation's `String(format:)` takes `CVarArg`s, cannot be told to
/// fail on a missing argument, and on Linux crashes on a `%@` given an integer.
public enum StringFormat {
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }

        public init(message: String) {
            self.message = message
        }
    }

    public static func format(
        _ format: String, _ arguments: [FormatArgument],
        variable: ((_ name: String, _ argument: FormatArgument) throws -> String)? = nil
    ) throws -> String {
        if !format.utf8.contains(UInt8(ascii: "%")) { return format }
        // Variables first, by substitution, as Foundation does: the variant's own
        // specifiers then take their arguments like any other.
        let expanded = try substituteVariables(format, arguments, variable: variable)
        return try substituteSpecifiers(expanded, arguments)
    }

    private static func substituteVariables(
        _ format: String, _ arguments: [FormatArgument],
        variable: ((String, FormatArgument) throws -> String)?
    ) throws -> String {
        guard format.contains("#@") else { return format }
        return try rewrite(format, percent: "%%") { specifier, position in
            guard let name = specifier.variable else { return "%" + specifier.text }
            guard position <= arguments.count else {
                throw Failure(message: "the format needs an argument for %#@\(name)@ at position \(position), and has \(arguments.count)")
            }
            guard let variable else { throw Failure(message: "%#@\(name)@ needs its .stringsdict entry") }
            return try variable(name, arguments[position - 1])
        }
    }

    private static func substituteSpecifiers(_ format: String, _ arguments: [FormatArgument]) throws -> String {
        try rewrite(format, percent: "%") { specifier, position in
            guard position >= 1, position <= arguments.count else {
                throw Failure(message: "the format needs an argument at position \(position) for %\(specifier.text), and has \(arguments.count)")
            }
            let argument = arguments[position - 1]
            switch specifier.conversion {
            case "@", "s":
                return argument.textValue
            case "d", "i", "u", "x", "X", "o":
                guard let value = argument.integerValue else {
                    throw Failure(message: "%\(specifier.text) needs a number, and argument \(position) is \"\(argument.textValue)\"")
                }
                switch specifier.conversion {
                case "x": return String(value, radix: 16)
                case "X": return String(value, radix: 16, uppercase: true)
                case "o": return String(value, radix: 8)
                case "u": return String(UInt(bitPattern: value))
                default: return String(value)
                }
            default:
                throw Failure(message: "unsupported format specifier %\(specifier.text)")
            }
        }
    }

    /// Copies a format, replacing `%%` by `percent` and each other specifier by what
    /// `replace` makes of it and the argument position it takes (explicit, or the next).
    private static func rewrite(_ format: String, percent: String, _ replace: (Specifier, Int) throws -> String) throws -> String {
        var output = ""
        var scanner = Scanner(format)
        var sequential = 0
        while let scalar = scanner.next() {
            guard scalar == "%" else {
                output.unicodeScalars.append(scalar)
                continue
            }
            let specifier = scanner.specifier()
            if specifier.conversion == "%" {
                output += percent
                continue
            }
            sequential += 1
            output += try replace(specifier, specifier.position ?? sequential)
        }
        return output
    }

    private struct Specifier {
        var text = ""
        var position: Int?
        var conversion: Unicode.Scalar = "%"
        var variable: String?
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ text: String) {
            scalars = Array(text.unicodeScalars)
        }

        mutating func next() -> Unicode.Scalar? {
            guard index < scalars.count else { return nil }
            defer { index += 1 }
            return scalars[index]
        }

        /// Reads what follows a `%`: `[n$][#@name@ | flags width .precision length conversion]`.
        mutating func specifier() -> Specifier {
            var specifier = Specifier()
            let start = index
            var digits = ""
            while index < scalars.count, ("0"..."9").contains(scalars[index]) {
                digits.unicodeScalars.append(scalars[index])
                index += 1
            }
            if index < scalars.count, scalars[index] == "$", let position = Int(digits) {
                specifier.position = position
                index += 1
            } else {
                index = start
            }
            if index + 1 < scalars.count, scalars[index] == "#", scalars[index + 1] == "@" {
                index += 2
                var name = ""
                while index < scalars.count, scalars[index] != "@" {
                    name.unicodeScalars.append(scalars[index])
                    index += 1
                }
                index += 1
                specifier.variable = name
                specifier.conversion = "@"
            } else {
                while index < scalars.count, "-+ 0#'123456789.hlqzjtL".unicodeScalars.contains(scalars[index]) {
                    index += 1
                }
                if index < scalars.count {
                    specifier.conversion = scalars[index]
                    index += 1
                }
            }
            specifier.text = String(String.UnicodeScalarView(scalars[start..<index]))
            return specifier
        }
    }
}
