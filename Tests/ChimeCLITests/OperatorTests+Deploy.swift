import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Point 2 and 16 of the first week: one environment file for every entry point, and a
/// configuration reloaded by chime serve on SIGHUP.
extension OperatorTests {
    @Test("--env-file and $CHIME_ENV_FILE supply ${NAME} and CHIME_SECRET_KEY to every command; the environment wins over the file; a malformed line is named with its line and column (65), a missing file exits 66")
    func environmentFile() throws {
        let configuration = Self.configuration.replacingOccurrences(of: "from=\"Reminders &lt;bot@example.org&gt;\"", with: "from=\"${CHIME_FROM}\"")
        let ws = try Workspace(configuration: configuration)
        let missing = try ws.chime(["check"])
        #expect(missing.status == 65 && missing.stderr.contains("CHIME_FROM"), "\(missing.stderr)")

        try ws.write("secrets.env", """
            # what the units, cron and the pipe read
            export CHIME_FROM="Reminders <bot@example.org>"
            CHIME_SECRET_KEY='\(String(repeating: "k", count: 40))'

            """)
        // Made as the umask makes files, readable by everyone: chime check says so.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: ws.path("secrets.env"))
        let readable = try ws.chime(["--env-file", "secrets.env", "check"])
        #expect(readable.status == 0)
        #expect(readable.stderr.contains("secrets.env: warning: every user of this machine may read this file of secrets (mode 644): chmod 640 it"), "\(readable.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: ws.path("secrets.env"))
        let viaOption = try ws.chime(["--env-file", "secrets.env", "check"])
        #expect(viaOption.status == 0, "\(viaOption.stderr)")
        #expect(!viaOption.stderr.contains("may read"), "\(viaOption.stderr)")
        let viaVariable = try ws.chime(["check"], environment: ["CHIME_ENV_FILE": ws.path("secrets.env")])
        #expect(viaVariable.status == 0, "\(viaVariable.stderr)")
        // The from address the file gave is the one that goes out.
        try ws.write("r.json", #"{"identifier": "p", "recipient": "alice", "content": {"title": "Shopping", "categoryIdentifier": "shop"}, "trigger": {"type": "timeInterval", "seconds": 60}}"#)
        let shown = try ws.chime(["preview", "--json", "r.json", "--channel", "mail"], environment: ["CHIME_ENV_FILE": ws.path("secrets.env")])
        #expect(shown.stdout.contains("From: Reminders <bot@example.org>"), "\(shown.stdout)")
        // What the environment sets wins over the file.
        let overridden = try ws.chime(["preview", "--json", "r.json", "--channel", "mail"],
                                      environment: ["CHIME_ENV_FILE": ws.path("secrets.env"), "CHIME_FROM": "Ops <ops@example.org>"])
        #expect(overridden.stdout.contains("From: Ops <ops@example.org>"), "\(overridden.stdout)")
        // A key too short in the file is refused as in the environment.
        try ws.write("short.env", "CHIME_FROM=bot@example.org\nCHIME_SECRET_KEY=short\n")
        let short = try ws.chime(["--env-file", "short.env", "check"])
        #expect(short.status == 65 && short.stderr.contains("CHIME_SECRET_KEY is 5 bytes") && !short.stderr.contains("short\n"), "\(short.stderr)")
        // chime run with something due says so at once (65), rather than hold each message
        // for "RuntimeFailure(exitCode: 65)" and exit 75, a timer's "try again".
        #expect(try ws.chime(["--env-file", "secrets.env", "schedule", "--json", "r.json"], now: "2026-11-24T09:00:00Z").status == 0)
        let shortRun = try ws.chime(["--env-file", "short.env", "run"], now: "2026-11-24T09:05:00Z")
        #expect(shortRun.status == 65 && shortRun.stderr.contains("CHIME_SECRET_KEY is 5 bytes") && !shortRun.stdout.contains("held"),
                "\(shortRun.status) \(shortRun.stdout) \(shortRun.stderr)")
        #expect(try ws.chime(["--env-file", "secrets.env", "pending"]).stdout.contains("  p  alice  "), "still pending, to fire once the key is mended")

        try ws.write("bad.env", "CHIME_FROM=bot@example.org\nthis is not a variable\nCHIME_SECRET_KEY=\"open\n")
        let bad = try ws.chime(["--env-file", "bad.env", "pending"])
        #expect(bad.status == 65, "\(bad.stderr)")
        #expect(bad.stderr.contains("bad.env:2:6: error: expected \"=\" here: each line is NAME=value"), "\(bad.stderr)")
        // A value pasted alone, such as a key, is never repeated in the error.
        try ws.write("pasted.env", "sk_live_0123456789abcdef\n")
        let pasted = try ws.chime(["--env-file", "pasted.env", "pending"])
        #expect(pasted.status == 65 && !pasted.stderr.contains("sk_live"), "\(pasted.stderr)")
        #expect(bad.stderr.contains("bad.env:3:18: error: a quoted value of CHIME_SECRET_KEY is never closed"), "\(bad.stderr)")
        let absent = try ws.chime(["--env-file", "nowhere.env", "pending"])
        #expect(absent.status == 66 && absent.stderr.contains("nowhere.env: error: environment file: no such file"), "\(absent.stderr)")
        // A directory where the file should be (Docker makes one for a missing mount) is
        // said so, not read as a file without variables.
        try FileManager.default.createDirectory(atPath: ws.path("dir.env"), withIntermediateDirectories: true)
        let directory = try ws.chime(["--env-file", "dir.env", "pending"])
        #expect(directory.status == 66 && directory.stderr.contains("dir.env: error: environment file: is a directory, not a file"), "\(directory.stderr)")
        // chime ingest, an MTA's pipe, defers rather than bounce: 75.
        try ws.write("reply.eml", "From: a@example.org\r\nSubject: Re: Shopping\r\n\r\nOK\r\n")
        let ingest = try ws.chime(["--env-file", "nowhere.env", "ingest"], input: "reply.eml")
        #expect(ingest.status == 75, "\(ingest.stderr)")
        // So does a message it could not read to its end (here, standard input a folder).
        try FileManager.default.createDirectory(atPath: ws.path("stdin.d"), withIntermediateDirectories: true)
        let unread = try ws.chime(["--env-file", "secrets.env", "ingest"], input: "stdin.d")
        #expect(unread.status == 75 && unread.stderr.contains("stdin: could not be read, try again later"), "\(unread.status) \(unread.stderr)")
        // So does a store it cannot open: a folder missing (73 elsewhere), another
        // program's database (65 elsewhere), each said as everywhere.
        let noFolder = try ws.chime(["--env-file", "secrets.env", "--store", ws.path("missing/chime.sqlite"), "ingest"], input: "reply.eml")
        #expect(noFolder.status == 75 && noFolder.stderr.contains("missing/chime.sqlite"), "\(noFolder.status) \(noFolder.stderr)")
        try ws.write("notes.sqlite", "a text file, not a database: something else lives at that path\n")
        #expect(try ws.chime(["--env-file", "secrets.env", "--store", ws.path("notes.sqlite"), "pending"]).status == 65)
        let foreign = try ws.chime(["--env-file", "secrets.env", "--store", ws.path("notes.sqlite"), "ingest"], input: "reply.eml")
        #expect(foreign.status == 75 && foreign.stderr.contains("not a Chime store"), "\(foreign.status) \(foreign.stderr)")
        let shortKey = try ws.chime(["--env-file", "short.env", "ingest"], input: "reply.eml")
        #expect(shortKey.status == 75 && shortKey.stderr.contains("CHIME_SECRET_KEY is 5 bytes"), "\(shortKey.status) \(shortKey.stderr)")
    }

    @Test("a secret written in a chime.xml every user may read is warned of at its line and column; given as ${NAME}, or in a file of mode 0640, it is not")
    func inlineSecrets() throws {
        let written = Self.configuration.replacingOccurrences(of: "</channels>", with: """
            <channel id="relay" url="smtps://bot:hunter2-secret@mail.example.org" from="bot@example.org"/>
                <channel id="team" url="slack://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX" secret="${SLACK_SIGNING}"/>
                <channel id="hook" url="json://127.0.0.1:9/hook"/>
              </channels>
            """)
        let ws = try Workspace(configuration: written)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: ws.path("chime.xml"))
        let check = try ws.chime(["check"], environment: ["SLACK_SIGNING": "0123456789abcdef0123456789abcdef"])
        #expect(check.status == 0, "\(check.stderr)")
        let said = check.stderr.split(separator: "\n").filter { $0.contains("a secret is written here") }
        // The relay's password and Slack's webhook token, each at its url; not the secret
        // given as ${NAME}, nor the generic webhook's path; no secret repeated.
        #expect(said.count == 2, "\(check.stderr)")
        #expect(said.first?.hasPrefix(try Self.place(of: #"url="smtps://"#, in: written, file: "chime.xml")) == true, "\(check.stderr)")
        #expect(said.last?.hasPrefix(try Self.place(of: #"url="slack://"#, in: written, file: "chime.xml")) == true, "\(check.stderr)")
        #expect(!check.stderr.contains("hunter2") && !check.stderr.contains("XXXXXXXX"), "\(check.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: ws.path("chime.xml"))
        let closed = try ws.chime(["check"], environment: ["SLACK_SIGNING": "0123456789abcdef0123456789abcdef"])
        #expect(closed.status == 0 && !closed.stderr.contains("a secret is written here"), "\(closed.stderr)")
    }

    @Test("chime serve reads its configuration again on SIGHUP: a channel added is served; a configuration with errors is refused with its diagnostics and the one before stays in force")
    func reloadOnHangup() throws {
        let ws = try Workspace(configuration: Self.configuration)
        let server = try ServeTests.Server(ws, [])
        defer { server.stop() }
        #expect(try server.request("POST", "/slack/team", body: Array("payload=x".utf8)).status == 404)

        let secret = String(repeating: "s", count: 32)
        try ws.write("chime.xml", Self.configuration.replacingOccurrences(
            of: "</channels>", with: #"<channel id="team" url="slack://hooks.slack.com/services/T0/B0/X" secret="\#(secret)"/></channels>"#))
        kill(server.process.processIdentifier, SIGHUP)
        var status = 0
        for _ in 0..<100 where status != 401 {
            Thread.sleep(forTimeInterval: 0.05)
            status = try server.request("POST", "/slack/team", body: Array("payload=x".utf8)).status
        }
        #expect(status == 401, "the new Slack channel is served (an unsigned press refused) once reloaded")

        try ws.write("chime.xml", "<chime version=\"1\"><categories>")
        let said = try server.reload(ws, until: "not reloaded")
        #expect(said.contains("chime.xml:1:") && said.contains("configuration not reloaded; the one loaded before stays in force"), "\(said)")
        #expect(server.process.isRunning)
        #expect(try server.request("POST", "/slack/team", body: Array("payload=x".utf8)).status == 401, "the channel loaded before is still served")
    }

    @Test("on SIGHUP chime serve reads its environment file again with the configuration: a rotated API key works at once and the old one stops")
    func reloadRotatesSecrets() throws {
        let configuration = Self.configuration.replacingOccurrences(of: "</recipients>", with: #"</recipients><api><key id="k" secret="${READ_KEY}" scope="read"/></api>"#)
        let ws = try Workspace(configuration: configuration)
        let old = String(repeating: "o", count: 24), new = String(repeating: "n", count: 24)
        try ws.write("secrets.env", "READ_KEY=\(old)\n")
        let server = try ServeTests.Server(ws, ["--env-file", ws.path("secrets.env")])
        defer { server.stop() }
        func status(_ key: String) throws -> Int {
            try server.request("GET", "/v1/pending", headers: ["Authorization": "Bearer \(key)"]).status
        }
        #expect(try status(old) == 200)
        #expect(try status(new) == 401)
        try ws.write("secrets.env", "READ_KEY=\(new)\n")
        kill(server.process.processIdentifier, SIGHUP)
        var rotated = 0
        for _ in 0..<100 where rotated != 200 {
            Thread.sleep(forTimeInterval: 0.05)
            rotated = try status(new)
        }
        #expect(rotated == 200, "the new key works once reloaded")
        #expect(try status(old) == 401, "the old key stops")

        // Rotated again with a configuration that is refused: the secret read for it is
        // not put in force either.
        let third = String(repeating: "t", count: 24)
        try ws.write("secrets.env", "READ_KEY=\(third)\n")
        try ws.write("chime.xml", configuration.replacingOccurrences(of: "</chime>", with: "<unknown/></chime>"))
        let said = try server.reload(ws, until: "not reloaded")
        #expect(said.contains("configuration not reloaded"), "\(said)")
        #expect(try status(new) == 200, "the key in force stays")
        #expect(try status(third) == 401, "the environment file's new value is not taken without its configuration")
    }
}
