import ChimeXML
import Testing

@Suite("XSD validation")
struct XMLSchemaTests {
    private let schema = """
        <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
          <xs:element name="list">
            <xs:complexType>
              <xs:sequence>
                <xs:element name="item" maxOccurs="unbounded">
                  <xs:complexType>
                    <xs:attribute name="count" type="xs:positiveInteger" use="required"/>
                  </xs:complexType>
                </xs:element>
              </xs:sequence>
            </xs:complexType>
          </xs:element>
        </xs:schema>
        """

    @Test("a valid document passes")
    func valid() throws {
        let compiled = try XMLSchema(bytes: Array(schema.utf8), path: "list.xsd")
        try compiled.validate(XMLDocument(bytes: Array(#"<list><item count="2"/></list>"#.utf8), path: "ok.xml"))
    }

    @Test("every violation is reported at its element or attribute")
    func violations() throws {
        let compiled = try XMLSchema(bytes: Array(schema.utf8), path: "list.xsd")
        let document = try XMLDocument(bytes: Array("""
            <list>
              <item count="0"/>
              <thing/>
            </list>
            """.utf8), path: "bad.xml")
        do {
            try compiled.validate(document)
            Issue.record("validation passed")
        } catch let error as XMLError {
            #expect(error.diagnostics.map(\.location.description) == ["bad.xml:2:9", "bad.xml:3:3"])
            #expect(error.diagnostics[0].message.contains("'0' is not a valid value of the atomic type 'xs:positiveInteger'"))
            #expect(error.diagnostics[1].message == "Element 'thing': This element is not expected. Expected is ( item ).")
        }
    }

    @Test("a broken schema is an error, not a crash")
    func brokenSchema() {
        #expect(throws: XMLError.self) {
            try XMLSchema(bytes: Array("<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><xs:element/></xs:schema>".utf8), path: "broken.xsd")
        }
    }
}
