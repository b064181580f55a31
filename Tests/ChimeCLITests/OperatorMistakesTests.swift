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
        // The dry runs and listings an operator scripts to ask "is anything stuck?" among them.
        for arguments in [["failed"], ["pending"], ["delivered"], ["deliveries"], ["responses"], ["cancel", "x"], ["next", "x"],
                          ["run", "--dry-run"], ["digest"], ["digest", "--dry-run"], ["recipients"], ["recipients", "--clear", "carol@example.org"],
                          ["store", "prune", "--dry-run"], ["preview", "--id", "x", "--channel", "log"]] {
            let result = try ws.chime(["--store", "./chme.sqlite"] + arguments)
            #expect(result.status == 66 && result.stderr.contains("no store at ./chme.sqlite"), "\(arguments): \(result.status) \(result.stderr)")
        }
        // A reply into a store that is not there: kept by the MTA (75), not answered from
        // an empty store made for it.
        try ws.write("reply.eml", "From: alice@example.org\nSubject: Re: Tea\nMessage-ID: <r1@example.org>\n\nDone\n")
        let ingest = try ws.chime(["--store", "./chme.sqlite", "ingest"], input: "reply.eml")
        #expect(ingest.status == 75 && ingest.stderr.contains("no store at ./chme.sqlite"), "\(ingest)")
        #expect(!FileManager.default.fileExists(atPath: ws.path("chme.sqlite")), "nothing made")
        try ws.write("one.json", #"{"identifier":"a","recipient":"alice","content":{"title":"Tea"},"trigger":{"type":"timeInterval","seconds":60,"repeats":false}}"#)
        #expect(try ws.chime(["--store", "./chme.sqlite", "schedule", "--json", "one.json"]).status == 0)
        #expect(try ws.chime(["--store", "./chme.sqlite", "pending"]).stdout.contains("a"))
    }

    @Test("no command is a usage error (64, the help on standard error), as cron reads it; chime ingest's unreadable command line is 75, so the MTA keeps the reply; a value that is wrong is 65, not usage")
    func commandLineCodes() throws {
        let ws = try Workspace()
        for arguments in [[], ["--config", "chime.xml"], ["store"]] {
            let result = try ws.chime(arguments)
            #expect(result.status == 64 && result.stdout.isEmpty && result.stderr.contains("USAGE:"), "\(arguments): \(result)")
        }
        try ws.write("reply.eml", "From: alice@example.org\nSubject: Re: Tea\n\nDone\n")
        // Before ingest too, as master.cf writes them: a known option's value that is wrong,
        // and an option misspelt (or renamed) with its value.
        for arguments in [["ingest", "--bogus"], ["--log-level", "loud", "ingest"], ["--store", "chime.sqlite", "ingest", "--now", "soon"],
                          ["--env-fil", "/etc/chime/secrets.env", "ingest"], ["--config", "chime.xml", "--tempaltes", "/usr/share/chime/templates", "ingest"]] {
            let result = try ws.chime(arguments, input: "reply.eml")
            #expect(result.status == 75 && result.stderr.contains("Error:"), "\(arguments): \(result)")
        }
        // "ingest" as another option's value is no ingest.
        #expect(try ws.chime(["schedule", "--id", "ingest", "--bogus"]).status == 64)
        #expect(try ws.chime(["--bogus"]).status == 64)
        #expect(try ws.chime(["--help"]).status == 0)
        #expect(try ws.chime(["ingest", "--help"]).status == 0)
        #expect(try ws.chime(["run"]).status == 0, "the store made")
        // A message that named no delivery: its deliveryID is there, null, as --help lists it.
        #expect(try ws.chime(["ingest"], input: "reply.eml").status == 0)
        let replies = try #require(try JSONSerialization.jsonObject(with: Data(try ws.chime(["replies", "--json"]).stdout.utf8)) as? [[String: Any]])
        #expect(replies.count == 1 && replies[0]["outcome"] as? String == "no-token" && replies[0]["deliveryID"] is NSNull, "\(replies)")
        let digest = try ws.chime(["digest", "--recipient", "zed"])
        #expect(digest.status == 65 && digest.stderr == "no recipient \"zed\" in chime.xml\n", "\(digest)")
    }

    @Test("chime respond refuses a snooze it cannot read, recording nothing, so the operator's next try is not \"already recorded\"")
    func unreadableSnooze() throws {
        let ws = try Workspace()
        try ws.write("one.json", #"{"identifier":"a","recipient":"alice","content":{"title":"Tea","categoryIdentifier":"reminder"},"trigger":{"type":"timeInterval","seconds":60,"repeats":false}}"#)
        #expect(try ws.chime(["schedule", "--json", "one.json"], now: "2026-11-21T09:00:00Z").status == 0)
        #expect(try ws.chime(["run"], now: "2026-11-21T09:05:00Z").status == 0)
        let typo = try ws.chime(["respond", "a", "snooze", "--text", "banana"], now: "2026-11-21T09:06:00Z")
        #expect(typo.status == 65 && typo.stderr.contains("--text \"banana\" names no time to snooze for") && typo.stdout.isEmpty, "\(typo)")
        #expect(try ws.chime(["responses"]).stdout.isEmpty, "nothing recorded")
        let fixed = try ws.chime(["respond", "a", "snooze", "--text", "10m"], now: "2026-11-21T09:07:00Z")
        #expect(fixed.status == 0 && fixed.stdout.contains("a: chime.snooze carried out: a fires at 2026-11-21T10:17:00+01:00"), "\(fixed)")
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
