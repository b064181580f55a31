import ChimeCore
import ChimeXML

extension ConfigurationSchema {
    /// The element and attribute names `chime.xsd` declares.
    struct Names: Sendable {
        var elements: Set<String> = []
        /// Each element's attributes, by the element's name (two declarations of one name,
        /// such as `category` in `<categories>` and in `<recipient>`, are merged).
        var attributes: [String: Set<String>] = [:]
    }

    /// Read once from the schema compiled into chime; empty if it could not be read.
    static let names: Names = {
        guard let schema = try? XMLDocument(bytes: PackageResources.chime_xsd, path: "chime.xsd") else { return Names() }
        let root = schema.root
        var groups: [String: [String]] = [:]
        for group in root.children(named: "attributeGroup") {
            if let name = group.attribute("name") { groups[name] = group.children(named: "attribute").compactMap { $0.attribute("name") } }
        }
        var names = Names()
        /// Visits a declaration's content: its attributes, and the elements declared inside.
        func visit(_ node: XMLElement, declaring element: String?) {
            for child in node.children {
                switch child.name {
                case "element":
                    guard let name = child.attribute("name") else { continue } // a ref: declared at the top
                    names.elements.insert(name)
                    visit(child, declaring: name)
                case "attribute":
                    if let element, let name = child.attribute("name") { names.attributes[element, default: []].insert(name) }
                case "attributeGroup":
                    if let element, let ref = child.attribute("ref") { names.attributes[element, default: []].formUnion(groups[ref] ?? []) }
                default:
                    visit(child, declaring: element)
                }
            }
        }
        visit(root, declaring: nil)
        return names
    }()

    /// The schema error with the name likely meant added: an element that is not expected
    /// gets the nearest of those libxml2 says are expected, else of all the schema's
    /// elements (past a category's actions libxml2 expects only `minimalActions`, where a
    /// misspelt `textInputAction` was meant), an attribute not allowed the nearest of its
    /// element's attributes.
    static func suggesting(_ diagnostic: Diagnostic) -> Diagnostic {
        let message = diagnostic.message
        // A flag written as iOS property lists or people write it: said what to do.
        if message.contains("of the union type 'flag'") {
            return adding("write true or false (or 1 or 0, or ${NAME} / file:PATH)", to: diagnostic)
        }
        let meant: String?
        if let (element, attribute) = quoted(in: message, "Element '", "', attribute '"), message.hasSuffix("is not allowed.") {
            // What an iOS app's categories carry that means nothing in mail or chat.
            if iOSOnly.contains(attribute) { return adding("an iOS option with no meaning in mail or chat: remove it", to: diagnostic) }
            meant = EditDistance.nearest(to: attribute, among: names.attributes[element] ?? [])
        } else if let element = quoted(in: message, "Element '", "': This element is not expected.")?.0 {
            let expected = quoted(in: message, "Expected is ( ", " ).")?.0 ?? quoted(in: message, "Expected is one of ( ", " ).")?.0
            // A name the schema has, misplaced (<channel> among <recipients>), is no typo
            // of another: only what libxml2 expects there is offered.
            meant = expected.flatMap { EditDistance.nearest(to: element, among: $0.components(separatedBy: ", ")) }
                ?? (names.elements.contains(element) ? nil : EditDistance.nearest(to: element, among: names.elements))
        } else {
            meant = nil
        }
        guard let meant else { return diagnostic }
        return adding("did you mean `\(meant)`?", to: diagnostic)
    }

    /// `UNNotificationCategory` and `UNNotificationAction` settings for the phone alone:
    /// CarPlay, Siri's announcements and intents, an action's icon.
    static let iOSOnly: Set<String> = ["allowInCarPlay", "allowAnnouncement", "intentIdentifiers", "icon"]

    /// The diagnostic with `hint` after its message, past its final full stop.
    private static func adding(_ hint: String, to diagnostic: Diagnostic) -> Diagnostic {
        var hinted = diagnostic
        let message = diagnostic.message
        hinted.message = (message.hasSuffix(".") ? String(message.dropLast()) : message) + "; " + hint
        return hinted
    }

    /// The text after `start` up to `end`, and the text after that up to the next `'`:
    /// libxml2 quotes names as `Element 'name', attribute 'name'`.
    private static func quoted(in message: String, _ start: String, _ end: String) -> (String, String)? {
        guard let from = message.range(of: start)?.upperBound, let to = message[from...].range(of: end) else { return nil }
        let rest = message[to.upperBound...]
        return (String(message[from..<to.lowerBound]), String(rest.prefix { $0 != "'" }))
    }
}
