import Foundation
import Synchronization

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

    /// The argument as a finite number: itself, or a string holding one (`2.5`).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .string(let value): Double(value.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        }
    }
}

/// `String(format:)` for the specifiers localized iOS strings use — `%@`, `%d`, `%i`,
/// `%u`, `%ld`, `%lld`, `%lu`, `%llu`, `%x`, `%f`, `%e`, `%g`, `%%`, with their flags,
/// width and precision (`%02d`, `%-5@`, `%.2f`), positional (`%1$@`) or not — plus the
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

    /// - Parameter locale: the language the text is in (a BCP 47 tag), whose decimal
    ///   separator (and digits) `%f`, `%e` and `%g` write, as iOS's
    ///   `localizedStringWithFormat` does: 2,5 in French. Without it, C's `2.5`.
    public static func format(
        _ format: String, _ arguments: [FormatArgument], locale: String? = nil,
        variable: ((_ name: String, _ argument: FormatArgument) throws -> String)? = nil
    ) throws -> String {
        if !format.utf8.contains(UInt8(ascii: "%")) { return format }
        // Variables first, by substitution, as Foundation does: the variant's own
        // specifiers then take their arguments like any other.
        let expanded = try substituteVariables(format, arguments, variable: variable)
        return try substituteSpecifiers(expanded, arguments, locale: locale)
    }

    /// How a language writes a decimal number: its separator, and the zero of its digits
    /// (`٠` in Arabic, whose separator `٫` goes with those digits, never with Latin ones).
    struct DecimalStyle: Sendable {
        var separator: String
        var zero: Unicode.Scalar

        /// printf's text of a number (Latin digits, a `.`) in this style.
        func apply(to written: String) -> String {
            let offset = zero.value &- 0x30
            var result = String.UnicodeScalarView()
            var separated = false
            for scalar in written.unicodeScalars {
                if scalar == ".", !separated {
                    result.append(contentsOf: separator.unicodeScalars)
                    separated = true
                } else if offset != 0, ("0"..."9").contains(scalar), let digit = Unicode.Scalar(scalar.value &+ offset) {
                    result.append(digit)
                } else {
                    result.append(scalar)
                }
            }
            return String(result)
        }
    }

    /// Each language's ``DecimalStyle``, made once: only the floating-point specifiers ask,
    /// and it is read from CLDR's data. At most ``stylesKept`` are kept (a request's
    /// language is anyone's to choose); past them one is made for each use.
    private static let styles = Mutex<[String: DecimalStyle]>([:])
    private static let stylesKept = 64

    static func decimalStyle(_ tag: String) -> DecimalStyle {
        styles.withLock { kept in
            if let style = kept[tag] { return style }
            let formatter = NumberFormatter()
            formatter.locale = Locale(identifier: tag)
            let style = DecimalStyle(separator: formatter.decimalSeparator ?? ".",
                                     zero: formatter.string(from: 0)?.unicodeScalars.first ?? "0")
            if kept.count < stylesKept { kept[tag] = style }
            return style
        }
    }

    /// The format with each specifier's argument position written (`%@ has %lld` →
    /// `%1$@ has %2$lld`), `%%` as it is: a string that a variant will stand in whole.
    public static func numbered(_ format: String) -> String {
        (try? rewrite(format, percent: "%%") { specifier, position in "%\(position)$" + specifier.body }) ?? format
    }

    /// The names of the `%#@name@` variables of a format, in order.
    public static func variableNames(in format: String) -> [String] {
        specifiers(of: format).compactMap(\.specifier.variable)
    }

    /// What each argument position of a format takes: true for a number (`%d`, `%.1f`,
    /// a variable's count), false for text (`%@`); a position taken both ways is a number.
    /// With `variants`, those of each `%#@name@` are read in its place, numbered as
    /// ``format(_:_:locale:variable:)`` numbers them: `%#@more@` whose variant is
    /// "%u more messages from %@" takes a number, then text.
    public static func argumentKinds(_ format: String, variants: (String) -> [String] = { _ in [] }) -> [Int: Bool] {
        var kinds: [Int: Bool] = [:]
        // Each variable read once at each position: variants naming each other are read
        // once, not once for each way of reaching them.
        var read = Set<String>()
        func take(_ text: String, at base: Int?) {
            for (specifier, sequential) in specifiers(of: text) {
                let position = base.map { specifier.position ?? $0 + sequential - 1 } ?? sequential
                let number = specifier.variable != nil || !["@", "s"].contains(specifier.conversion)
                kinds[position] = (kinds[position] ?? false) || number
                if let name = specifier.variable, read.insert("\(position) \(name)").inserted {
                    for variant in variants(name) { take(variant, at: position) }
                }
            }
        }
        take(format, at: nil)
        return kinds
    }

    /// A format's specifiers (`%%` aside), each with the argument position it takes.
    private static func specifiers(of format: String) -> [(specifier: Specifier, position: Int)] {
        var found: [(specifier: Specifier, position: Int)] = []
        _ = try? rewrite(format, percent: "") { specifier, position in
            found.append((specifier, position))
            return ""
        }
        return found
    }

    private static func substituteVariables(
        _ format: String, _ arguments: [FormatArgument],
        variable: ((String, FormatArgument) throws -> String)?
    ) throws -> String {
        guard Bytes.contains(format.utf8, Self.variableMark) else { return format }
        // Every specifier comes out with its position written (`%2$@`): a variant may
        // leave its number out ("one more reminder"), and the `%@` after the variable
        // ("%#@more@ from %@") still takes the second argument, not the count.
        var length = 0
        return try rewrite(format, percent: "%%") { specifier, position in
            guard let name = specifier.variable else { return "%\(position)$" + specifier.body }
            return try variant(name, at: position, arguments, variable: variable, depth: 1, length: &length)
        }
    }

    /// The variant of variable `name` for the argument at `position`, its specifiers
    /// numbered as Foundation reads a variant put in the variable's place: the first
    /// without a number takes the variable's own argument and the next ones those after it
    /// ("%u more messages from %@": the count, then the name); a variable of the variant
    /// is expanded in turn ("%d photo and %#@videos@").
    /// - Throws: ``Failure`` past ``deepest`` variables within variables, or when the
    ///   expansion outgrows ``longest`` bytes: a variant naming itself, or each of its
    ///   variables naming many more, would otherwise never end.
    private static func variant(
        _ name: String, at position: Int, _ arguments: [FormatArgument],
        variable: ((String, FormatArgument) throws -> String)?, depth: Int, length: inout Int
    ) throws -> String {
        guard position >= 1, position <= arguments.count else {
            throw Failure(message: "the format needs an argument for %#@\(name)@ at position \(position), and has \(arguments.count)")
        }
        guard let variable else { throw Failure(message: "%#@\(name)@ needs its .stringsdict entry") }
        guard depth <= deepest else {
            throw Failure(message: "%#@\(name)@ is a variable within variables more than \(deepest) deep")
        }
        let text = try variable(name, arguments[position - 1])
        length += text.utf8.count
        guard length <= longest else { throw Failure(message: "the variables' variants come to more than \(longest) bytes") }
        return try rewrite(text, percent: "%%") { inner, sequential in
            let innerPosition = inner.position ?? position + sequential - 1
            guard let innerName = inner.variable else { return "%\(innerPosition)$" + inner.body }
            return try variant(innerName, at: innerPosition, arguments, variable: variable, depth: depth + 1, length: &length)
        }
    }

    /// How deep variables may stand within variants.
    private static let deepest = 4
    /// How long the variants of one format may come to.
    private static let longest = 65_536

    private static func substituteSpecifiers(_ format: String, _ arguments: [FormatArgument], locale: String?) throws -> String {
        try rewrite(format, percent: "%") { specifier, position in
            guard position >= 1, position <= arguments.count else {
                throw Failure(message: "the format needs an argument at position \(position) for %\(specifier.text), and has \(arguments.count)")
            }
            let argument = arguments[position - 1]
            switch specifier.conversion {
            case "@", "s":
                return specifier.padded(argument.textValue)
            case "d", "i", "u", "x", "X", "o":
                guard let value = argument.integerValue else {
                    throw Failure(message: "%\(specifier.text) needs a number, and argument \(position) is \"\(argument.textValue)\"")
                }
                if specifier.isPlain {
                    switch specifier.conversion {
                    case "x": return String(UInt(bitPattern: value), radix: 16)
                    case "X": return String(UInt(bitPattern: value), radix: 16, uppercase: true)
                    case "o": return String(UInt(bitPattern: value), radix: 8)
                    case "u": return String(UInt(bitPattern: value))
                    default: return String(value)
                    }
                }
                // Flags, width and precision as printf applies them, through the C
                // library with a specifier written here, never the file's own text.
                return String(format: specifier.cFormat(length: "ll"), Int64(value))
            case "f", "F", "e", "E", "g", "G":
                guard let value = argument.doubleValue else {
                    throw Failure(message: "%\(specifier.text) needs a number, and argument \(position) is \"\(argument.textValue)\"")
                }
                // printf's flags, width, precision and rounding (`%06.2f`), with the decimal
                // separator (and digits) of the recipient's language put in; through Foundation's
                // formatting with a locale, `%06.2f` had lost its zeros, `%.1f` grouped
                // thousands where `%d` does not, and 2.45 became 2,4.
                let written = String(format: specifier.cFormat(length: ""), value)
                guard let locale else { return written }
                return decimalStyle(locale).apply(to: written)
            default:
                throw Failure(message: "unsupported format specifier %\(specifier.text)")
            }
        }
    }

    /// `#@`, which begins a variable's name after a `%`.
    private static let variableMark: [UInt8] = [0x23, 0x40]

    /// Copies a format, replacing `%%` by `percent` and each other specifier by what
    /// `replace` makes of it and the argument position it takes (explicit, or the next).
    ///
    /// Read as UTF-8, the text between specifiers copied a run at a time: scalar by
    /// scalar, with `String.contains` for the variables, it was 22,000 instructions a
    /// short answer in `chime ingest` (callgrind). Every byte that matters here is ASCII,
    /// and no byte of a longer UTF-8 sequence is.
    private static func rewrite(_ format: String, percent: String, _ replace: (Specifier, Int) throws -> String) throws -> String {
        let bytes = Array(format.utf8)
        var output = ""
        output.reserveCapacity(bytes.count)
        var sequential = 0
        var literal = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                index += 1
                continue
            }
            output += String(decoding: bytes[literal..<index], as: UTF8.self)
            index += 1
            let specifier = Specifier(bytes, from: &index)
            literal = index
            if specifier.conversion == "%" {
                output += percent
                continue
            }
            sequential += 1
            output += try replace(specifier, specifier.position ?? sequential)
        }
        output += String(decoding: bytes[literal...], as: UTF8.self)
        return output
    }

    private struct Specifier {
        var text = ""
        /// The text without its position (`@` of `%2$@`).
        var body = ""
        var position: Int?
        var conversion: Unicode.Scalar = "%"
        var variable: String?
        /// printf's flags (`-+ 0#`), width and precision, as given.
        var flags: [UInt8] = []
        var width = 0
        var precision: Int?

        /// Reads what follows a `%` in `bytes` from `index`:
        /// `[n$][#@name@ | flags width .precision length conversion]`, leaving `index`
        /// after it.
        init(_ bytes: [UInt8], from index: inout Int) {
            let start = index
            var digits = index
            while digits < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[digits]) { digits += 1 }
            if digits > index, digits < bytes.count, bytes[digits] == UInt8(ascii: "$"),
               let position = Int(String(decoding: bytes[index..<digits], as: UTF8.self)) {
                self.position = position
                index = digits + 1
            }
            let afterPosition = index
            defer { body = String(decoding: bytes[afterPosition..<index], as: UTF8.self) }
            if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "#"), bytes[index + 1] == UInt8(ascii: "@") {
                index += 2
                let name = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "@") { index += 1 }
                variable = String(decoding: bytes[name..<index], as: UTF8.self)
                conversion = "@"
                // Past the closing `@`, when there is one.
                index = min(index + 1, bytes.count)
            } else {
                while index < bytes.count, Self.flagBytes.contains(bytes[index]) {
                    flags.append(bytes[index])
                    index += 1
                }
                width = Self.number(bytes, &index)
                if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                    index += 1
                    precision = Self.number(bytes, &index)
                }
                while index < bytes.count, Self.lengths.contains(bytes[index]) { index += 1 }
                if index < bytes.count {
                    // One scalar, however many bytes it takes.
                    let lead = bytes[index]
                    let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                    let end = min(index + length, bytes.count)
                    conversion = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first ?? "%"
                    index = end
                }
            }
            text = String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// printf's flags; `'` (thousands, which the C locale does not group) is read
        /// and left out.
        private static let flagBytes = Set("-+ 0#'".utf8)
        /// Length modifiers: the argument's size in C, which does not matter here.
        private static let lengths = Set("hlqzjtL".utf8)
        /// Widths and precisions past this are a typo, not a layout.
        private static let largest = 1_000

        /// Decimal digits at `index` (none: 0), at most ``largest``.
        private static func number(_ bytes: [UInt8], _ index: inout Int) -> Int {
            var value = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                value = min(value * 10 + Int(bytes[index] - UInt8(ascii: "0")), largest)
                index += 1
            }
            return value
        }

        /// Without flags, width or precision: `%d`, `%ld`.
        var isPlain: Bool { flags.isEmpty && width == 0 && precision == nil }

        /// The C format of this specifier for one argument of `length` (`ll`, or none for
        /// a double), written from what was read.
        func cFormat(length: String) -> String {
            let flagText = String(decoding: flags.filter { $0 != UInt8(ascii: "'") }, as: UTF8.self)
            let widthText = width > 0 ? String(width) : ""
            let precisionText = precision.map { ".\($0)" } ?? ""
            return "%\(flagText)\(widthText)\(precisionText)\(length)\(Character(conversion))"
        }

        /// Text in a field of ``width`` characters: spaces before it, or after it with `-`.
        func padded(_ text: String) -> String {
            guard width > 0 else { return text }
            let room = width - text.count
            guard room > 0 else { return text }
            let padding = String(repeating: " ", count: room)
            return flags.contains(UInt8(ascii: "-")) ? text + padding : padding + text
        }
    }
}
