import ChimeCore
import ChimeXML
import Foundation

/// Apple's `Localizable.stringsdict`: an XML property list whose entries give a
/// `NSStringLocalizedFormatKey` format with `%#@variable@`s, each variable a
/// `NSStringPluralRuleType` set of variants by plural category. Read with libxml2, so an
/// iOS app's file works unchanged (its DOCTYPE names a DTD that is never fetched).
public struct StringsDictFile: Sendable {
    /// One localized, pluralized format.
    public struct Entry: Hashable, Sendable {
        public var format: String
        /// Variable name → variants by category.
        public var variables: [String: [PluralCategory: String]]

        /// The plural category of an argument: a whole number's, a decimal's by CLDR's
        /// operands ("2.5" is "other" in English and Russian, "1.0" "other" in English),
        /// and `zero` for 0 when the entry has one; anything else "other". A decimal read
        /// as 0 chose the variant of 0 before: "2.5 km to go" came out "You have arrived".
        static func category(of argument: FormatArgument, rules: PluralRules, hasZero: Bool) -> PluralCategory {
            if let count = argument.integerValue {
                return count == 0 && hasZero ? .zero : rules.category(for: count)
            }
            guard let operands = PluralOperands(argument.textValue.trimmingCharacters(in: .whitespaces)) else { return .other }
            return argument.doubleValue == 0 && hasZero ? .zero : rules.category(for: operands)
        }

        /// The entry formatted with these arguments, each variable's variant chosen by
        /// `rules` for its argument. As on Apple platforms, a `zero` variant is used for
        /// 0 in every language that has one in the file.
        public func format(_ arguments: [FormatArgument], rules: PluralRules, locale: String? = nil) throws -> String {
            try StringFormat.format(format, arguments, locale: locale) { name, argument in
                guard let variants = variables[name] else {
                    throw StringFormat.Failure(message: "no variable \"\(name)\" in the .stringsdict entry")
                }
                let category = Self.category(of: argument, rules: rules, hasZero: variants[.zero] != nil)
                guard let variant = variants[category] ?? variants[.other] else {
                    throw StringFormat.Failure(message: "variable \"\(name)\" has no \"\(category.rawValue)\" nor \"other\" variant")
                }
                return variant
            }
        }
    }

    public internal(set) var entries: [String: Entry] = [:]
    /// Where each entry's format (its `NSStringLocalizedFormatKey` value) stands.
    public internal(set) var formatLocations: [String: SourceLocation] = [:]
    /// What does not stop the file being read, said by `chime check`: a `%#@name@` of a
    /// format that the entry does not define (an error: the entry cannot be used), a
    /// variable without `other` (a warning: some counts cannot be written).
    public internal(set) var problems: [Diagnostic] = []

    /// Entries read from elsewhere (a String Catalog): no locations.
    init(entries: [String: Entry]) {
        self.entries = entries
    }

    /// Parses a `.stringsdict` file.
    /// - Throws: ``XMLError`` with the line and column of what is wrong.
    public init(bytes: [UInt8], path: String) throws {
        let document = try XMLDocument(bytes: bytes, path: path)
        func fail(_ element: XMLElement, _ message: String) -> XMLError {
            XMLError([Diagnostic(.error, at: document.location(of: element), message)])
        }
        guard document.root.name == "plist", let top = document.root.child(named: "dict") else {
            throw fail(document.root, "a .stringsdict file is a <plist> holding a <dict>")
        }
        for (key, value) in try Self.pairs(top, fail: fail) {
            guard value.name == "dict" else { throw fail(value, "entry \"\(key)\" must be a <dict>") }
            var format: String?
            var variables: [String: [PluralCategory: String]] = [:]
            for (name, item) in try Self.pairs(value, fail: fail) {
                if name == "NSStringLocalizedFormatKey" {
                    format = item.text
                    formatLocations[key] = document.location(of: item)
                    continue
                }
                // Width variants (Xcode's "Vary by Device"), by the width of the screen
                // they fit: a message has no screen, and takes the widest, as
                // NSLocalizedString does when no width is asked for.
                if name == "NSStringVariableWidthRuleType", item.name == "dict" {
                    let widest = try Self.pairs(item, fail: fail).max { (Int($0.0) ?? 0) < (Int($1.0) ?? 0) }?.1
                    format = widest?.text
                    formatLocations[key] = widest.map { document.location(of: $0) }
                    continue
                }
                // Device variants (Xcode's "Vary by Device", keyed `mac`, `iphone`,
                // `ipad`…): a message is read on any device, and takes `other`'s text, else
                // the iPhone's, the device an iOS app's notifications were worded for.
                if name == "NSStringDeviceSpecificRuleType", item.name == "dict" {
                    let devices = try Self.pairs(item, fail: fail)
                    let chosen = (devices.first { $0.0 == "other" } ?? devices.first { $0.0 == "iphone" } ?? devices.first)?.1
                    format = chosen?.text
                    formatLocations[key] = chosen.map { document.location(of: $0) }
                    continue
                }
                guard item.name == "dict" else { continue }
                var variants: [PluralCategory: String] = [:]
                for (field, variant) in try Self.pairs(item, fail: fail) {
                    if field == "NSStringFormatSpecTypeKey", variant.text != "NSStringPluralRuleType" {
                        throw fail(variant, "variable \"\(name)\" of \"\(key)\": only NSStringPluralRuleType is supported, not \(variant.text)")
                    }
                    if let category = PluralCategory(rawValue: field) { variants[category] = variant.text }
                }
                // Translators leave `other` out where a language's whole numbers never
                // need it (Russian, Polish: one, few, many), and iOS takes the file: so
                // does Chime, and `chime check` says which counts then cannot be written.
                // Refusing the file held every message in every language.
                if variants[.other] == nil {
                    problems.append(Diagnostic(.warning, at: document.location(of: item),
                                               "variable \"\(name)\" of \"\(key)\" has no \"other\" variant: a count of a category it lacks (a fraction such as 1.5, in most languages) cannot be written, and its message is held"))
                }
                variables[name] = variants
            }
            guard let format else { throw fail(value, "entry \"\(key)\" has no NSStringLocalizedFormatKey") }
            // The format's variables, and those its variants name in turn.
            let named = ([format] + variables.values.flatMap(\.values)).flatMap(StringFormat.variableNames(in:))
            for name in Set(named).sorted() where variables[name] == nil {
                let known = variables.keys.sorted().joined(separator: ", ")
                problems.append(Diagnostic(.error, at: document.location(of: value),
                                           "entry \"\(key)\": %#@\(name)@ names no variable of the entry\(known.isEmpty ? "" : " (it has \(known))")"))
            }
            entries[key] = Entry(format: format, variables: variables)
        }
    }

    public subscript(key: String) -> Entry? { entries[key] }

    /// A plist `<dict>`'s `<key>`/value pairs, in order.
    private static func pairs(_ dict: XMLElement, fail: (XMLElement, String) -> XMLError) throws -> [(String, XMLElement)] {
        let children = dict.children
        var result: [(String, XMLElement)] = []
        var index = 0
        while index < children.count {
            guard children[index].name == "key", index + 1 < children.count else {
                throw fail(children[index], "a <dict> holds <key> and value pairs")
            }
            result.append((children[index].text, children[index + 1]))
            index += 2
        }
        return result
    }
}
