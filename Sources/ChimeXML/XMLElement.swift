internal import CChimeXML2

/// An element of an ``XMLDocument``; it keeps its document alive.
public struct XMLElement {
    public let document: XMLDocument
    let node: xmlNodePtr

    init(document: XMLDocument, node: xmlNodePtr) {
        self.document = document
        self.node = node
    }

    /// The local name, without a namespace prefix.
    public var name: String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// The value of an attribute (without namespace), or nil when it is absent.
    public func attribute(_ name: String) -> String? {
        guard let property = properties.first(where: { $0.pointee.ns == nil && Self.name(of: $0) == name }) else {
            return nil
        }
        return Self.string(xmlNodeListGetString(node.pointee.doc, property.pointee.children, 1))
    }

    /// The names of the attributes present, in document order.
    public var attributeNames: [String] {
        properties.map(Self.name)
    }

    private var properties: [xmlAttrPtr] {
        var result: [xmlAttrPtr] = []
        var property = node.pointee.properties
        while let current = property {
            result.append(current)
            property = current.pointee.next
        }
        return result
    }

    private static func name(of property: xmlAttrPtr) -> String {
        property.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// The child elements, in document order (text and comments left out).
    public var children: [XMLElement] {
        var result: [XMLElement] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE {
                result.append(XMLElement(document: document, node: current))
            }
            child = current.pointee.next
        }
        return result
    }

    /// The child elements with this name.
    public func children(named name: String) -> [XMLElement] {
        children.filter { $0.name == name }
    }

    /// The first child element with this name.
    public func child(named name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// The text of the element and its descendants.
    public var text: String {
        Self.string(xmlNodeGetContent(node)) ?? ""
    }

    /// Takes a string that libxml2 allocated, and frees it.
    private static func string(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        defer { chime_xml_free(pointer) }
        return String(cString: pointer)
    }
}
