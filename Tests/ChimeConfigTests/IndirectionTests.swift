import ChimeConfig
import ChimeCore
import Foundation
import Testing

@Suite("${ENV} and file: indirection")
struct IndirectionTests {
    private func configuration(channel url: String, from: String = "bot@example.org") -> String {
        """
        <chime version="1">
          <channels>
            <channel id="mail" url="\(url)" from="\(from)"/>
          </channels>
        </chime>
        """
    }

    private func load(_ text: String, environment: [String: String]) throws -> Configuration {
        try ConfigurationLoader(environment: environment).load(bytes: Array(text.utf8), path: "chime.xml")
    }

    private func messages(_ text: String, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try load(text, environment: environment)
            return []
        } catch let error as ConfigurationError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test("a variable inside a URL supplies the password")
    func variableInsideURL() throws {
        let loaded = try load(configuration(channel: "smtp://bot:${SMTP_PASSWORD}@mail.example.org:587"), environment: ["SMTP_PASSWORD": "s3cr3t"])
        #expect(loaded.channels.first?.url.password == "s3cr3t")
    }

    @Test("a user or password read into a URL keeps @ / : # % and ?: the host stays the host")
    func userInfoEncoded() throws {
        for password in ["k9@TOPSECRET/part", "p@SECRETHOST#x", "p@SECRET:99/x", "50%off?yes", "a b:c", "ünï"] {
            let loaded = try load(configuration(channel: "smtp://${SMTP_USER}:${SMTP_PASSWORD}@mail.example.org:587"),
                                  environment: ["SMTP_USER": "bot@example.org", "SMTP_PASSWORD": password])
            let url = try #require(loaded.channels.first?.url)
            #expect(url.host == "mail.example.org")
            #expect(url.port == 587)
            #expect(url.user == "bot@example.org")
            #expect(url.password == password)
        }
        // Outside the user information a value goes in as it is: a host, a path, a whole URL.
        let host = try load(configuration(channel: "smtp://bot:pw@${HOST}:25"), environment: ["HOST": "relay.example.org"])
        #expect(host.channels.first?.url.host == "relay.example.org")
        let whole = try load(configuration(channel: "${URL}"), environment: ["URL": "smtp://bot:p%40ss@relay.example.org"])
        #expect(whole.channels.first?.url.password == "p@ss")
    }

    @Test("a whole attribute from the environment")
    func wholeVariable() throws {
        let loaded = try load(configuration(channel: "${HOOK}", from: "${FROM}"), environment: ["HOOK": "smtps://mail.example.org", "FROM": "a@example.org"])
        #expect(loaded.channels.first?.url.kind == .smtps)
        #expect(loaded.channels.first?.from == "a@example.org")
    }

    @Test("file: reads a secret file without its trailing newline, inside a URL or as a whole value")
    func fromFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-secret-\(UUID().uuidString)")
        try "p@ss\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let loaded = try load(configuration(channel: "smtp://bot:${file:\(file.path)}@mail.example.org", from: "file:\(file.path)"), environment: [:])
        #expect(loaded.channels.first?.url.password == "p@ss")
        #expect(loaded.channels.first?.from == "p@ss")
    }

    @Test("$${ is a literal ${")
    func escape() throws {
        let loaded = try load(configuration(channel: "smtp://mail.example.org", from: "Price $${5} &lt;bot@example.org&gt;"), environment: [:])
        #expect(loaded.channels.first?.from == "Price ${5} <bot@example.org>")
    }

    @Test("a missing variable is named; a secret's value is never printed")
    func secretsStayOut() {
        let missing = messages(configuration(channel: "smtp://bot:${SMTP_PASSWORD}@mail.example.org"))
        #expect(missing == ["chime.xml:3:24: error: channel \"mail\": environment variable SMTP_PASSWORD is not set"])
        // A bad URL built from a secret: the error says what is wrong, never the secret.
        let bad = messages(configuration(channel: "${HOOK}"), environment: ["HOOK": "hunter2:rest-of-secret"])
        #expect(bad.count == 1)
        #expect(!bad[0].contains("hunter2"))
        let noHost = messages(configuration(channel: "smtp://bot:${PW}@"), environment: ["PW": "hunter2"])
        #expect(noHost == ["chime.xml:3:24: error: channel \"mail\": a smtp:// URL needs a host, as in smtp://mail.example.org:587"])
        let flag = messages("""
            <chime version="1"><categories><category identifier="c" customDismissAction="${FLAG}"/></categories></chime>
            """, environment: ["FLAG": "hunter2"])
        #expect(flag == ["chime.xml:1:57: error: customDismissAction must be true or false, not the value given through indirection"])
    }

    @Test("a rule that quotes the value it refuses never quotes a secret")
    func redacted() {
        let found = messages("""
            <chime version="1">
              <channels><channel id="log" url="file:./x.jsonl"/></channels>
              <recipients><recipient id="r" timeZone="${ZONE}"><address channel="${CHANNEL}"/></recipient></recipients>
            </chime>
            """, environment: ["ZONE": "hunter2-zone", "CHANNEL": "hunter2-channel"])
        #expect(found.count == 2)
        #expect(!found.joined().contains("hunter2"))
        #expect(found.allSatisfy { $0.contains("(secret)") })
        // A locale is quoted as BCP 47 writes it (lower case): that form is kept out too.
        let locale = messages("""
            <chime version="1"><recipients><recipient id="r" locale="${LOC}"/></recipients></chime>
            """, environment: ["LOC": "HUNTER-VALUE"])
        #expect(locale.count == 1)
        #expect(!locale.joined().lowercased().contains("hunter"), "\(locale)")
    }

    @Test("a secret refused as too short is not blanked where its letters occur by chance: the message reads whole and does not point at it")
    func shortSecretNotBlanked() {
        for secret in ["short", "mail"] {
            let found = messages("""
                <chime version="1">
                  <channels><channel id="mail" url="slack://hooks.slack.com/services/T1/B2/C3" secret="${HOOK_SECRET}"/></channels>
                </chime>
                """, environment: ["HOOK_SECRET": secret])
            #expect(found == ["chime.xml:2:80: error: channel \"mail\": secret is too short (\(secret.count) characters); it needs at least 16 characters, or remove it"], "\(found)")
        }
    }

    @Test("a Discord secret that is no public key (64 hexadecimal digits) and a Telegram secret setWebhook would refuse are errors at the secret, which is never shown; good ones pass")
    func platformSecrets() {
        func found(_ channel: String, _ secret: String) -> [String] {
            messages("""
                <chime version="1">
                  <channels>\(channel)</channels>
                </chime>
                """, environment: ["S": secret])
        }
        let discord = #"<channel id="app" url="discord://discord.com/api/webhooks/1/x" secret="${S}"/>"#
        let telegram = #"<channel id="tg" url="telegram://api.telegram.org/bot1:AAA/sendMessage?chat_id=42" secret="${S}"/>"#
        let key = String(repeating: "0123456789abcdef", count: 4)
        #expect(found(discord, key).isEmpty)
        #expect(found(discord, key.uppercased()).isEmpty)
        for bad in [String(key.dropLast()), String(key.dropLast()) + "g", "Zm9vYmFyYmF6cXV4cXV1eA=="] {
            let said = found(discord, bad)
            #expect(said.count == 1 && said[0].contains(#"channel "app": secret must be the Discord application's public key: 64 hexadecimal digits"#), "\(said)")
            #expect(!said.joined().contains(bad), "never shown")
        }
        #expect(found(telegram, "my_secret-token_2026").isEmpty)
        for bad in ["c2VjcmV0K3Rva2VuLzIwMjY=", "secret token with spaces", String(repeating: "a", count: 257)] {
            let said = found(telegram, bad)
            #expect(said.count == 1 && said[0].contains(#"channel "tg": secret must be 1 to 256 letters"#), "\(said)")
            #expect(!said.joined().contains(bad), "never shown")
        }
    }

    @Test("an API key's scope, a preference and a quiet-hours mode may come through indirection, and are checked once read")
    func enumeratedThroughIndirection() throws {
        let text = """
            <chime version="1">
              <categories><category identifier="c"/></categories>
              <recipients><recipient id="r" quietHoursMode="${MODE}"><category identifier="c" deliver="${DELIVER}"/></recipient></recipients>
              <api><key id="k" secret="0123456789abcdef0123" scope="${SCOPE}"/></api>
            </chime>
            """
        let loaded = try load(text, environment: ["SCOPE": "write", "MODE": "wait", "DELIVER": "quietly"])
        #expect(loaded.apiKeys.first?.scope == .write)
        #expect(loaded.recipients.first?.quietHoursMode == .wait)
        #expect(loaded.recipients.first?.preferences["c"] == .quietly)
        let wrong = messages(text, environment: ["SCOPE": "root", "MODE": "wait", "DELIVER": "quietly"])
        #expect(wrong == ["chime.xml:4:50: error: scope must be one of read, write, admin, not the value given through indirection"], "\(wrong)")
    }

    @Test("a file that cannot be read is named; one that never ends (a device) is refused past 1 MiB, not read into memory")
    func unreadableFile() {
        let found = messages(configuration(channel: "smtp://mail.example.org", from: "file:/nonexistent/secret"))
        #expect(found == ["chime.xml:3:54: error: cannot read file:/nonexistent/secret: it does not exist"])
        let endless = messages(configuration(channel: "smtp://mail.example.org", from: "file:/dev/zero"))
        #expect(endless == ["chime.xml:3:54: error: cannot read file:/dev/zero: larger than 1 MiB"], "\(endless)")
    }
}
