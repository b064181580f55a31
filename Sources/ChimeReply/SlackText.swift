/// A Slack message's text as the person typed it. Slack sends what it shows: `&`, `<` and
/// `>` as entities, links as `<https://…|label>`, mentions as `<@U…>`, channels as
/// `<#C…|name>`, `@here` as `<!here>`. A text-input action's text read from a thread was
/// stored so (`milk &amp; eggs`), handed to hooks so, and escaped once more in the answer.
///
/// Written by hand: no Swift package reads Slack's message format. One pass over the text,
/// a control sequence ending at the next `>` (Slack escapes every `>` a person types).
public enum SlackText {
    public static func plain(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            result += entitiesDecoded(rest[..<open])
            guard let close = rest[open...].firstIndex(of: ">") else {
                rest = rest[open...]
                break
            }
            result += shown(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        return result + entitiesDecoded(rest)
    }

    /// One control sequence (without its brackets) as words: `@U123|bob` → `@bob`,
    /// `#C1|general` → `#general`, `!here` → `@here`, `https://a|label` → `label (https://a)`.
    static func shown(_ sequence: Substring) -> String {
        let bar = sequence.firstIndex(of: "|")
        let target = entitiesDecoded(sequence[..<(bar ?? sequence.endIndex)])
        let label = bar.map { entitiesDecoded(sequence[sequence.index(after: $0)...]) }
        switch target.first {
        case "@": return label.map { $0.hasPrefix("@") ? $0 : "@" + $0 } ?? target
        case "#": return label.map { "#" + $0 } ?? target
        case "!":
            let name = target.dropFirst()
            if ["here", "channel", "everyone"].contains(name) { return "@" + name }
            // A user group (`!subteam^ID|@team`), a date (`!date^…|fallback`).
            return label ?? (name.split(separator: "^").last.map { "@" + $0 } ?? "")
        default:
            guard let label, !label.isEmpty else { return target }
            // A label that is the address as typed (`shop.example`, `bob@example.org`).
            if label == target || "mailto:" + label == target || target.hasSuffix("//" + label) || target.hasSuffix("//" + label + "/") {
                return label
            }
            return "\(label) (\(target))"
        }
    }

    /// `&amp;`, `&lt;` and `&gt;` as the characters they stand for, in one pass (so that
    /// `&amp;lt;`, a person's own `&lt;`, stays `&lt;`).
    static func entitiesDecoded(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = "", rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[amp...]
            if let (entity, character) = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")].first(where: { after.hasPrefix($0.0) }) {
                result += character
                rest = after.dropFirst(entity.count)
            } else {
                result += "&"
                rest = after.dropFirst()
            }
        }
        return result + rest
    }
}
