internal import CChimeXML2

/// Process-wide libxml2 set-up, done once before any document or schema is made.
enum XMLLibrary {
    /// `xmlInitParser` must run once before threads share libxml2; a static let runs it
    /// exactly once, thread-safely.
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    static func initialize() {
        _ = initialized
    }

    /// The version of the libxml2 in use, e.g. `2.9.14`.
    static var version: String {
        // "20914" → "2.9.14"
        let number = Int(String(cString: chime_xml_parser_version())) ?? 0
        return "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }
}
