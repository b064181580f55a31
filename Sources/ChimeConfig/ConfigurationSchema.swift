import ChimeXML

/// The XSD of `chime.xml`, compiled into the binary from `chime.xsd` beside this file.
public enum ConfigurationSchema {
    /// The schema's text: the format's reference.
    public static var text: String { String(decoding: PackageResources.chime_xsd, as: UTF8.self) }

    /// Compiled once per process. A compiled libxml2 schema is only read while validating
    /// (each validation has its own context), so sharing it between threads is safe.
    nonisolated(unsafe) private static let compiled: Result<XMLSchema, any Error> = Result {
        try XMLSchema(bytes: PackageResources.chime_xsd, path: "chime.xsd")
    }

    static func schema() throws -> XMLSchema {
        try compiled.get()
    }
}
