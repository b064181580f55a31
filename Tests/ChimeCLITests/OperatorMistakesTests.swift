import Foundation
import Testing

/// What an operator mistypes, as a review running `chime` from cron and then on
/// PostgreSQL found it: each said at once, with the documented exit code, never a
/// password shown, never an empty store made where none was meant.
@Suite("An operator's mistakes")
struct OperatorMistakesTests {
    @Test("a mistyped --store is no new empty store for the commands that read or change what is stored (66, naming it); schedule and run still make the first")
    func mistypedStore() throws {
        let ws = try Workspace()
        for arguments in [["failed"], ["pending"], ["delivered"], ["deliveries"], ["responses"], ["cancel", "x"], ["next", "x"]] {
            let result = try ws.chime(["--store", "./chme.sqlite"] + arguments)
            #expect(result.status == 66 && result.stderr.contains("no store at ./chme.sqlite"), "\(arguments): \(result.status) \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: ws.path("chme.sqlite")), "nothing made")
        try ws.write("one.json", #"{"identifier":"a","recipient":"alice","content":{"title":"Tea"},"trigger":{"type":"timeInterval","seconds":60,"repeats":false}}"#)
        #expect(try ws.chime(["--store", "./chme.sqlite", "schedule", "--json", "one.json"]).status == 0)
        #expect(try ws.chime(["--store", "./chme.sqlite", "pending"]).stdout.contains("a"))
    }

    @Test("a PostgreSQL URL missing its // or its colon is refused (64) without showing it, as --store, $CHIME_STORE or store copy's --from, and makes no SQLite file", arguments: [
        "postgres:/chime:Sup3rSecret@db.example.org/chime", "postgresql//chime:Sup3rSecret@db/chime", "postgresql:chime:Sup3rSecret@db/chime",
    ])
    func malformedPostgres(url: String) throws {
        let ws = try Workspace()
        let given = try ws.chime(["--store", url, "pending"])
        let environment = try ws.chime(["pending"], environment: ["CHIME_STORE": url])
        let copy = try ws.chime(["store", "copy", "--from", url, "--to", "copy.sqlite"])
        for result in [given, environment, copy] {
            #expect(result.status == 64 && result.stderr.contains("PostgreSQL URL"), "\(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("Sup3rSecret") && !result.stdout.contains("Sup3rSecret"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: ws.url.path).sorted() == ["chime.xml"])
    }

    @Test("a templates folder named by --templates or $CHIME_TEMPLATES that does not exist stops every command (66; chime ingest 75, so the MTA keeps the reply), not only chime check")
    func missingTemplates() throws {
        let ws = try Workspace()
        for arguments in [["run"], ["check"], ["pending"], ["--templates", "/no/such/templates", "run"]] {
            let result = try ws.chime(arguments, environment: arguments.contains("--templates") ? [:] : ["CHIME_TEMPLATES": "/no/such/templates"])
            #expect(result.status == 66 && result.stderr == "/no/such/templates: error: no such templates folder\n", "\(arguments): \(result.status) \(result.stderr)")
        }
        try ws.write("reply.eml", "From: a@example.org\nSubject: Re: x\n\nOK\n")
        #expect(try ws.chime(["ingest"], input: "reply.eml", environment: ["CHIME_TEMPLATES": "/no/such/templates"]).status == 75)
    }

    @Test("values past any use are refused, not a trap in chime run: a channel's concurrency over 1,000 (chime check, 65, at its attribute); CHIME_LEASE past a week (said, and 600 s kept)")
    func outOfRange() throws {
        let ws = try Workspace(configuration: Workspace.defaultConfiguration.replacingOccurrences(of: "<channels>", with: #"<channels concurrency="9223372036854775807">"#))
        let check = try ws.chime(["check"])
        #expect(check.status == 65 && check.stderr.contains("concurrency must be a whole number from 1 to 1000"), "\(check.stderr)")
        let fine = try Workspace()
        try fine.write("one.json", #"{"identifier":"a","recipient":"alice","content":{"title":"Tea"},"trigger":{"type":"timeInterval","seconds":60,"repeats":false}}"#)
        #expect(try fine.chime(["schedule", "--json", "one.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let run = try fine.chime(["run"], now: "2026-11-21T09:05:00Z", environment: ["CHIME_LEASE": "9223372036854775807"])
        #expect(run.status == 0 && run.stderr.contains("CHIME_LEASE=9223372036854775807 is not a whole number of seconds from 1 to 604800"), "\(run.status) \(run.stderr)")
        #expect(try fine.lines().count == 1)
    }
}
