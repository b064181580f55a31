import ChimeReply
import Testing

/// A Slack message's text read back as the person typed it.
@Suite("Slack message text")
struct SlackTextTests {
    @Test("entities, links, mentions and specials as words; a person's own `&lt;` stays; an unclosed `<` is text; the time is linear in the length",
          arguments: [
              ("milk &amp; eggs", "milk & eggs"),
              ("&amp;lt;3 and &lt;3 &gt;", "&lt;3 and <3 >"),
              ("<https://shop.example/l?a=1&amp;b=2|my list>", "my list (https://shop.example/l?a=1&b=2)"),
              ("<https://shop.example/l>", "https://shop.example/l"),
              ("<https://shop.example|shop.example>", "shop.example"),
              ("<mailto:bob@example.org|bob@example.org>", "bob@example.org"),
              ("for <@U123|bob> and <@U456>", "for @bob and @U456"),
              ("in <#C1|general> or <#C2>", "in #general or #C2"),
              ("<!here> <!channel> <!everyone>", "@here @channel @everyone"),
              ("<!subteam^S1|@oncall> <!date^1700000000^{date}|Nov 14>", "@oncall Nov 14"),
              ("a < b", "a < b"),
              ("", ""),
          ])
    func plain(typed: String, expected: String) {
        #expect(SlackText.plain(typed) == expected)
    }

    @Test("200,000 unclosed brackets and ampersands are read in one pass")
    func hostile() {
        let text = String(repeating: "<&", count: 100_000)
        #expect(SlackText.plain(text).count == text.count)
        let open = String(repeating: "<@U1|", count: 50_000) + ">"
        #expect(SlackText.plain(open).hasPrefix("@<@U1|<@U1|"), "one sequence, up to the only `>`")
    }
}
