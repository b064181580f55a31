/// Which part of a configuration a problem is about, by position, so that a loader can
/// point at the element (and attribute) that holds it in its own source.
public enum ConfigurationElement: Hashable, Sendable {
    case category(Int)
    case action(category: Int, action: Int)
    case minimalActions(category: Int)
    case channel(Int)
    case recipient(Int)
    case address(recipient: Int, address: Int)
    case apiKey(Int)
}

/// A rule of the model that a configuration breaks.
public struct ConfigurationProblem: Hashable, Sendable, CustomStringConvertible {
    public var element: ConfigurationElement
    /// The attribute at fault, when there is one (`identifier`, `url`...).
    public var attribute: String?
    public var message: String

    public init(_ element: ConfigurationElement, attribute: String? = nil, _ message: String) {
        self.element = element
        self.attribute = attribute
        self.message = message
    }

    public var description: String { message }
}
