import ChimeCore
import ChimeXML
import Foundation

/// Loads `chime.xml`: reads the file, validates it against ``ConfigurationSchema``,
/// resolves `${ENV}` and `file:` indirection, builds the model and checks its rules.
public struct ConfigurationLoader: Sendable {
    /// Where `${NAME}` values come from.
    public var environment: [String: String]

    public init(environment: [String: String] = ProcessEnvironment.current) {
        self.environment = environment
    }

    /// Loads the configuration file at `path`.
    /// - Throws: ``ConfigurationError``: `.unreadable` when the file cannot be opened,
    ///   `.invalid` with every problem found, each with line and column.
    public func load(path: String) throws -> Configuration {
        try load(bytes: Self.read(path: path), path: path)
    }

    /// The bytes of the configuration file at `path`.
    /// - Throws: ``ConfigurationError`` `.unreadable`, saying why.
    ///   `.invalid` when it is larger than ``largestFile``.
    public static func read(path: String) throws -> [UInt8] {
        do {
            return try BoundedFile.read(path, atMost: largestFile)
        } catch .missing {
            throw unreadable(path, "no such file")
        } catch .directory {
            throw unreadable(path, "is a directory, not a configuration file")
        } catch .tooLarge(let limit) {
            throw ConfigurationError(.invalid, [Diagnostic(.error, at: SourceLocation(file: path, line: 1, column: 1),
                                                           "the file is larger than \(limit >> 20) MiB; a configuration is a few KB")])
        } catch {
            throw unreadable(path, error.reason)
        }
    }

    /// The largest configuration file read: the example is 10 KB; a thousand recipients
    /// and their addresses, a few hundred.
    public static let largestFile = 16 << 20

    /// `.unreadable`, at the file `path`, saying `reason`.
    static func unreadable(_ path: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(.unreadable, [Diagnostic(.error, at: SourceLocation(file: path), reason)])
    }

    /// Loads a configuration held in memory; `path` names it in diagnostics.
    public func load(bytes: [UInt8], path: String) throws -> Configuration {
        let document: XMLDocument
        do {
            document = try XMLDocument(bytes: bytes, path: path)
        } catch let error as XMLError {
            throw ConfigurationError(.invalid, error.diagnostics)
        }
        do {
            try ConfigurationSchema.schema().validate(document)
        } catch let error as XMLError {
            throw ConfigurationError(.invalid, error.diagnostics.map(ConfigurationSchema.suggesting))
        }
        var reader = ConfigurationReader(document: document, indirection: Indirection(environment: environment))
        var configuration = reader.read()
        configuration.secrets = reader.secrets
        configuration.recipientsReadIndirectly = reader.recipientsReadIndirectly
        configuration.caFileLocations = reader.caFileLocations
        configuration.inlineSecrets = reader.inlineSecrets
        var diagnostics = reader.diagnostics
        let reported = Set(diagnostics.map(\.location))
        for problem in configuration.problems() {
            guard let element = reader.elements[problem.element] else { continue }
            let location = document.location(of: element, attribute: problem.attribute)
            guard !reported.contains(location) else {
                continue // a consequence of a value already refused there
            }
            if case .address(let r, let a) = problem.element, problem.attribute == "channel",
               reader.refusedChannels.contains(configuration.recipients[r].addresses[a].channel) {
                continue // its channel's URL was already reported
            }
            diagnostics.append(Diagnostic(.error, at: location, problem.message))
        }
        guard diagnostics.isEmpty else {
            // A secret refused as too short is not blanked where its characters occur by
            // chance ("too short", a channel named "mail"): no message shows it, and
            // "(secret)" in their place would garble the message and tell the secret.
            configuration.secrets.subtract(configuration.secretsTooShort)
            let sorted = diagnostics.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
            throw ConfigurationError(.invalid, sorted.map { diagnostic in
                var redacted = diagnostic
                redacted.message = configuration.redact(diagnostic.message)
                return redacted
            })
        }
        return configuration
    }
}
