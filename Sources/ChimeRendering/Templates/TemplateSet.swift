import ChimeCore
import Foundation
import Mustache

/// The Mustache templates of messages: the defaults compiled into the binary
/// (`Templates/*.mustache` beside this file), overridden by `templates/mustache/NAME`
/// and, for one category, by `templates/mustache/CATEGORY/NAME`.
public struct TemplateSet: Sendable {
    /// The most of a template file read (``Entry/maximumBytes`` then says how much it may
    /// hold): a device or a file grown huge by mistake is not read whole.
    static let largestFile = 16 << 20

    /// The templates a message is made of.
    public enum Name: String, CaseIterable, Sendable {
        case emailText = "email.text.mustache"
        case emailHTML = "email.html.mustache"
        /// The text of a chat message, as plain text: each platform's payload escapes it
        /// for its own markup.
        case chatText = "chat.text.mustache"
    }

    /// A template that cannot be read or does not parse, with its file (and line and
    /// column where known).
    public struct LoadError: Error, CustomStringConvertible {
        public var path: String
        public var message: String
        public var position: (line: Int, column: Int)?
        public var description: String { "\(path)\(position.map { ":\($0.line):\($0.column)" } ?? ""): error: \(message)" }
    }

    /// A parsed template, and whether its tags apply transforms (which rule out
    /// compiling its shapes; see ``CompiledShape``).
    private struct Entry: Sendable {
        var template: MustacheTemplate
        var usesTransforms: Bool

        /// A template that does not parse: what is wrong, at the file's line and column.
        struct ParseFailure: Error {
            var message: String
            var line: Int
            var column: Int
        }

        /// - Parameter name: the file's name, which gives the content type of a template
        ///   that names none: HTML for `email.html.mustache`, plain text for the others
        ///   (a text part or a chat message shows `&` as `&`, not `&amp;`).
        init(_ text: String, name: String) throws(ParseFailure) {
            _ = ScalarHTML.registered
            // Without a content type named, swift-mustache escapes for HTML with its own
            // escaping, which lets a `<` after a combining mark through: every template starts
            // with Chime's, or plain text's, on a line of its own (a standalone tag, which
            // Mustache leaves out with its line: the template's first line keeps its own
            // standalone tags; a parse error's line is counted back to the file's). A content
            // type the template names itself takes over where it stands, as swift-mustache
            // reads them in order; one named only further down (or inside a comment) had
            // left what came before it to the default escaping.
            try Self.checkBounds(text)
            let pragma = name == Name.emailHTML.rawValue ? "{{% CONTENT_TYPE: HTML}}\n" : "{{% CONTENT_TYPE: TEXT}}\n"
            do {
                template = try MustacheTemplate(string: pragma + text)
            } catch let error as MustacheTemplate.ParserError {
                let context = error.context
                throw ParseFailure(message: Self.describe(error.error), line: max(1, context.lineNumber - 1), column: context.columnNumber)
            } catch {
                throw ParseFailure(message: "not a valid Mustache template", line: 1, column: 1)
            }
            usesTransforms = text.contains(/\{\{[^}]*\(/)
        }

        /// The most bytes and tags a template may hold. swift-mustache's parser measures
        /// what is left of the template at each tag, so that a template's parse takes time
        /// growing with its tags times its size (20,000 tags: 12 s at every `chime run`),
        /// and reads sections recursively (4,000 nested sections ended `chime check` with
        /// a segmentation fault): bounded here, a template's parse takes milliseconds and
        /// nests at most this many sections. Chime's own hold under 50 tags.
        static let maximumBytes = 128 * 1024, maximumTags = 1_000

        /// Refuses a template past ``maximumBytes`` or ``maximumTags`` (`{{` counted in
        /// one pass) before swift-mustache reads it.
        private static func checkBounds(_ text: String) throws(ParseFailure) {
            if text.utf8.count > maximumBytes {
                throw ParseFailure(message: "a template may be at most \(maximumBytes / 1024) KB; this one is \(text.utf8.count) bytes", line: 1, column: 1)
            }
            var tags = 0, previous: UInt8 = 0
            for byte in text.utf8 {
                if byte == UInt8(ascii: "{"), previous == UInt8(ascii: "{") {
                    tags += 1
                    previous = 0
                } else {
                    previous = byte
                }
            }
            if tags > maximumTags {
                throw ParseFailure(message: "a template may hold at most \(maximumTags) tags ({{…}}); this one holds \(tags)", line: 1, column: 1)
            }
        }

        /// swift-mustache's parse errors, as `chime check` words its messages.
        private static func describe(_ error: any Error) -> String {
            guard let error = error as? MustacheTemplate.Error else { return "not a valid Mustache template" }
            return switch error {
            case .sectionCloseNameIncorrect: "this closing tag does not name the section open here ({{/name}} closes {{#name}} or {{^name}})"
            case .unfinishedName: "a tag without its closing }}"
            case .expectedSectionEnd: "a section opened with {{#name}} or {{^name}} is not closed with {{/name}}"
            case .invalidSetDelimiter: "a set-delimiter tag ({{=<% %>=}}) is not well formed"
            case .transformAppliedToInheritanceSection: "a transform applied to an inherited section"
            case .illegalTokenInsideInheritSection, .textInsideInheritSection: "only {{$block}} definitions may go inside {{<partial}}"
            case .invalidConfigVariableSyntax: "a {{% pragma}} tag is not well formed"
            case .unrecognisedConfigVariable: "an unknown pragma (the one known is {{% CONTENT_TYPE: TEXT}} or HTML)"
            }
        }
    }

    private let defaults: [Name: Entry]
    private let overrides: [String: Entry]
    private let shapes = ShapeCache()
    /// Whether messages of a shape reuse its first rendering (see ``CompiledShape``);
    /// off, every message is rendered by swift-mustache from the start — the benchmark's
    /// baseline, and what the tests compare with.
    public var compilesShapes = true

    /// The defaults, with the overrides found under `directory` (its `mustache` folder).
    public init(directory: String? = nil) throws {
        var defaults: [Name: Entry] = [:]
        defaults[.emailText] = try Entry(String(decoding: PackageResources.email_text_mustache, as: UTF8.self), name: Name.emailText.rawValue)
        defaults[.emailHTML] = try Entry(String(decoding: PackageResources.email_html_mustache, as: UTF8.self), name: Name.emailHTML.rawValue)
        defaults[.chatText] = try Entry(String(decoding: PackageResources.chat_text_mustache, as: UTF8.self), name: Name.chatText.rawValue)
        self.defaults = defaults
        var overrides: [String: Entry] = [:]
        if let directory {
            let root = (directory as NSString).appendingPathComponent("mustache")
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".mustache") {
                let path = (root as NSString).appendingPathComponent(file)
                let bytes: [UInt8]
                do {
                    bytes = try BoundedFile.read(path, atMost: Self.largestFile)
                } catch {
                    throw LoadError(path: path, message: error.reason)
                }
                let text: String
                do {
                    text = try TextFile.decode(bytes)
                } catch {
                    throw LoadError(path: path, message: error.message, position: (error.line, error.column))
                }
                do {
                    overrides[file] = try Entry(text, name: (file as NSString).lastPathComponent)
                } catch {
                    throw LoadError(path: path, message: error.message, position: (error.line, error.column))
                }
            }
        }
        self.overrides = overrides
    }

    /// The override files no message would use (relative to the `mustache` folder), each
    /// with the name most like it that would be used: `email.txt.mustache` for
    /// `email.text.mustache`, a folder named for no category. `chime check` warns of them,
    /// since each leaves the default template in its place without a word.
    public func unusedOverrides(categories: [String]) -> [(file: String, meant: String?)] {
        let names = Name.allCases.map(\.rawValue)
        let used = Set(names + categories.flatMap { category in names.map { "\(category)/\($0)" } })
        return overrides.keys.sorted().filter { !used.contains($0) }.map { file in
            let parts = file.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { return (file, parts.count == 1 ? EditDistance.nearest(to: file, among: names) : nil) }
            let category = categories.contains(parts[0]) ? parts[0] : EditDistance.nearest(to: parts[0], among: categories)
            let name = names.contains(parts[1]) ? parts[1] : EditDistance.nearest(to: parts[1], among: names)
            return (file, category.flatMap { category in name.map { "\(category)/\($0)" } })
        }
    }

    /// Renders a template: the category's own, else the folder's, else the default.
    public func render(_ name: Name, category: String?, _ context: [String: Any]) -> String {
        entry(name, category: category).template.render(context)
    }

    /// Renders a template for one message of a shape (see ``CompiledShape``): the first
    /// message of each shape renders `context(markers)`, later ones only fill in `values`.
    /// - Parameters:
    ///   - shape: names everything about the context other than `values` — the same
    ///     shape must give the same context for the same values.
    ///   - values: what changes from one message to the next.
    ///   - context: the template's context with `values[i]` wherever value `i` goes;
    ///     it must depend on nothing but the shape and the values it is given.
    public func render(_ name: Name, category: String?, shape: String, values: [String],
                       context: ([String]) throws -> [String: Any]) rethrows -> String {
        let entry = entry(name, category: category)
        if compilesShapes, !entry.usesTransforms {
            let compiled = try shapes.shape("\(name.rawValue)\u{0}\(category ?? "")\u{0}\(shape)") {
                CompiledShape(rendered: entry.template.render(try context(values.indices.map(CompiledShape.marker))))
            }
            if let compiled { return compiled.fill(values) }
        }
        return entry.template.render(try context(values))
    }

    private func entry(_ name: Name, category: String?) -> Entry {
        category.flatMap { overrides["\($0)/\(name.rawValue)"] } ?? overrides[name.rawValue] ?? defaults[name]!
    }
}
