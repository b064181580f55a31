import ChimeCore
import ChimeRendering
import ChimeTestSupport
import Foundation
import Testing

/// A shape rendered once and filled must give what swift-mustache gives when it renders
/// each message itself.
@Suite("Templates rendered once per shape")
struct TemplateShapeTests {
    private static let html = """
        {{% CONTENT_TYPE: HTML}}
        <h1 title="{{title}}">{{title}}</h1>{{#flag}}<p>{{{body}}}</p>{{/flag}}{{^flag}}<p>{{&body}}</p>{{/flag}}
        {{#items}}<li data-n="{{number}}">{{label}} {{value}}{{#link}} <a href="{{link}}">{{label}}</a>{{/link}}</li>
        {{/items}}{{#title}}[{{.}}]{{/title}}{{^title}}never{{/title}} {{missing}}.
        """
    private static let text = "{{title}}\n{{#items}}{{value}};{{/items}}\n{{body}}\n"
    private static let transforms = "{{% CONTENT_TYPE: HTML}}{{uppercased(title)}} {{lowercased(body)}} {{title}}\n"

    private func templates() throws -> TemplateSet {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("chime-shapes-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("mustache")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("loud"), withIntermediateDirectories: true)
        try Self.html.write(to: folder.appendingPathComponent("email.html.mustache"), atomically: true, encoding: .utf8)
        try Self.text.write(to: folder.appendingPathComponent("email.text.mustache"), atomically: true, encoding: .utf8)
        try Self.transforms.write(to: folder.appendingPathComponent("loud/email.html.mustache"), atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: root) }
        return try TemplateSet(directory: root.path)
    }

    /// The context of a shape: a flag and a number of items fixed by it, the values given.
    private func context(flag: Bool, items: Int, _ values: [String]) -> [String: Any] {
        var next = values.makeIterator()
        return [
            "title": next.next()!, "body": next.next()!, "flag": flag,
            "items": (0..<items).map { index -> [String: Any] in
                var item: [String: Any] = ["number": index + 1, "label": "Label \(index) <&>", "value": next.next()!]
                if index % 2 == 1 { item["link"] = next.next()! }
                return item
            },
        ]
    }

    @Test("random values, escaped and not, in sections and lists: the same text as rendering directly", arguments: 0..<30)
    func sameAsDirect(seed: UInt64) throws {
        let templates = try templates()
        var random = SplitMix(seed: seed)
        let pieces = ["a", "<", ">", "&", "\"", "'", "<\u{301}", "é", "\u{E000}", "\u{E001}", "\u{E000}<0\u{E001}", "{{title}}", "\n", " ", "😀"]
        for round in 0..<4 {
            let flag = random.next() % 2 == 0
            let items = Int(random.next() % 4)
            let count = 2 + items + items / 2
            let values = (0..<count).map { _ in (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined() }
            for category in [nil, "loud"] as [String?] {
                for name in TemplateSet.Name.allCases {
                    let shaped = templates.render(name, category: category, shape: "\(flag)/\(items)", values: values) { context(flag: flag, items: items, $0) }
                    let direct = templates.render(name, category: category, context(flag: flag, items: items, values))
                    #expect(shaped == direct, "round \(round), \(name), category \(category ?? "none")")
                }
            }
        }
    }

    @Test("a template with transforms is rendered for each message")
    func transformsRenderDirectly() throws {
        let templates = try templates()
        let first = templates.render(.emailHTML, category: "loud", shape: "s", values: ["Milk", "EGGS", "x"]) { context(flag: true, items: 1, $0) }
        let second = templates.render(.emailHTML, category: "loud", shape: "s", values: ["Tea <b>", "BREAD", "y"]) { context(flag: true, items: 1, $0) }
        #expect(first == "MILK eggs Milk\n")
        #expect(second == "TEA &lt;B&gt; bread Tea &lt;b&gt;\n")
    }
}
