import Foundation
import Mustache

/// The Mustache templates of messages: the defaults compiled into the binary
/// (`Templates/*.mustache` beside this file), overridden by `templates/mustache/NAME`
/// and, for one category, by `templates/mustache/CATEGORY/NAME`.
public struct TemplateSet: Sendable {
    /// The templates a message is made of.
    public enum Name: String, CaseIterable, Sendable {
        case emailText = "email.text.mustache"
        case emailHTML = "email.html.mustache"
    }

    /// A template that does not parse, with its file.
    public struct LoadError: Error, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): error: \(message)" }
    }

    private let defaults: [Name: MustacheTemplate]
    private let overrides: [String: MustacheTemplate]

    /// The defaults, with the overrides found under `directory` (its `mustache` folder).
    public init(directory: String? = nil) throws {
        var defaults: [Name: MustacheTemplate] = [:]
        defaults[.emailText] = try MustacheTemplate(string: String(decoding: PackageResources.email_text_mustache, as: UTF8.self))
        defaults[.emailHTML] = try MustacheTemplate(string: String(decoding: PackageResources.email_html_mustache, as: UTF8.self))
        self.defaults = defaults
        var overrides: [String: MustacheTemplate] = [:]
        if let directory {
            let root = (directory as NSString).appendingPathComponent("mustache")
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".mustache") {
                let path = (root as NSString).appendingPathComponent(file)
                let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
                do {
                    overrides[file] = try MustacheTemplate(string: text)
                } catch {
                    throw LoadError(path: path, message: "not a valid Mustache template (\(error))")
                }
            }
        }
        self.overrides = overrides
    }

    /// Renders a template: the category's own, else the folder's, else the default.
    public func render(_ name: Name, category: String?, _ context: [String: Any]) -> String {
        let template = category.flatMap { overrides["\($0)/\(name.rawValue)"] } ?? overrides[name.rawValue] ?? defaults[name]!
        return template.render(context)
    }
}
