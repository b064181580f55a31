import Foundation
import Testing

@Suite("chime preview prints what would be sent")
struct PreviewCommandTests {
    private static let configuration = Workspace.defaultConfiguration
        .replacingOccurrences(of: "<channel id=\"box\" url=\"maildir:./outbox\"/>", with: """
            <channel id="box" url="maildir:./outbox" from="Rappels &lt;bot@example.org&gt;"/>
                <channel id="team" url="slack://hooks.slack.com/services/T000/B000/XXXX"/>
            """)
        .replacingOccurrences(of: "<category identifier=\"reminder\">", with: "<category identifier=\"reminder\" hiddenPreviewsBodyPlaceholder=\"shopping.placeholder\">")

    private func workspace() throws -> Workspace {
        let ws = try Workspace(configuration: Self.configuration)
        try ws.chime(["schedule", "--id", "tea", "--to", "carol", "--category", "reminder", "--title", "Tea time",
                      "--body", "Green tea & biscuits", "--at", "2026-11-24T09:00", "--tz", "Europe/Paris"], now: "2026-11-21T09:00:00Z")
        return ws
    }

    private var templates: String { ChimeProcess.repositoryRoot.appendingPathComponent("templates").path }

    @Test("an email channel: the raw message, in the locale asked, hidden when asked")
    func email() throws {
        let ws = try workspace()
        let always = try ws.chime(["preview", "--id", "tea", "--channel", "box", "--locale", "de", "--templates", templates])
        #expect(always.status == 0)
        #expect(always.stdout.contains("\nSubject: Tea time\n"))
        #expect(always.stdout.contains("Content-Type: multipart/alternative"))
        #expect(always.stdout.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"))
        let never = try ws.chime(["preview", "--id", "tea", "--channel", "box", "--locale", "fr", "--previews", "never", "--templates", templates])
        #expect(never.status == 0)
        #expect(!never.stdout.contains("Tea") && !never.stdout.contains("biscuits"))
        #expect(never.stdout.contains("\nSubject: Rappel de courses\n"))
    }

    @Test("a Slack channel: the HTTP body, as JSON")
    func slack() throws {
        let ws = try workspace()
        let result = try ws.chime(["preview", "--id", "tea", "--channel", "team", "--templates", templates])
        #expect(result.status == 0)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(body["text"] as? String == "Tea time: Green tea &amp; biscuits")
        #expect((body["blocks"] as? [Any])?.isEmpty == false)
    }

    @Test("a request from a file is shown as chime schedule would take it: at its first fire (an interval after now, a weekday's next morning), and refused as schedule refuses it (an unknown category, a date that never comes), at the field's line and column")
    func fromFile() throws {
        let ws = try workspace()
        func preview(_ trigger: String, category: String = "reminder") throws -> ChimeProcess.Result {
            try ws.write("one.json", #"{"identifier": "x", "recipient": "carol", "content": {"title": "Tea", "categoryIdentifier": "\#(category)"}, "trigger": \#(trigger)}"#)
            return try ws.chime(["preview", "--json", "one.json", "--channel", "box", "--templates", templates], now: "2026-03-01T10:00:00Z")
        }
        // 2026-03-01 is a Sunday; carol's zone is UTC.
        let interval = try preview(#"{"type": "timeInterval", "seconds": 600}"#)
        #expect(interval.status == 0 && interval.stdout.contains("10:10"), "\(interval.stdout.prefix(1200))")
        let monday = try preview(#"{"type": "calendar", "dateComponents": {"weekday": 2, "hour": 9}, "repeats": true}"#)
        #expect(monday.status == 0 && monday.stdout.contains("9:00") && monday.stdout.contains("Monday"), "\(monday.stdout.prefix(1200))")
        let unknown = try preview(#"{"type": "timeInterval", "seconds": 600}"#, category: "nope")
        #expect(unknown.status == 65 && unknown.stderr.hasPrefix("one.json:1:93: error: request \"x\": unknown category"), "\(unknown.stderr)")
        let never = try preview(#"{"type": "calendar", "dateComponents": {"month": 2, "day": 30}, "repeats": true}"#)
        #expect(never.status == 65 && never.stderr.hasPrefix("one.json:1:176: error: request \"x\": dateComponents day 30 never occurs"), "\(never.stderr)")
    }

    @Test("unknown channels and requests are refused")
    func refused() throws {
        let ws = try workspace()
        #expect(try ws.chime(["preview", "--id", "tea", "--channel", "nope"]).status == 65)
        #expect(try ws.chime(["preview", "--id", "nope", "--channel", "box"]).status == 65)
        #expect(try ws.chime(["preview", "--channel", "box"]).status == 64)
        let jp = try ws.chime(["preview", "--id", "tea", "--channel", "box", "--locale", "jp"])
        #expect(jp.status == 64 && jp.stderr.contains("did you mean ja?"), "\(jp.stderr)")
    }
}
