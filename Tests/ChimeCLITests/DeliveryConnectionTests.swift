import ChimeTestSupport
import Foundation
import Testing

/// How `chime run` connects: SMTP over STARTTLS and over implicit TLS (`smtps://`), each
/// with AUTH and verified against the test's own CA; one connection per channel for the
/// whole run; webhooks reusing HTTP/1.1 connections and multiplexing over HTTP/2.
@Suite("Delivery connections: TLS, reuse, HTTP/2", .serialized)
struct DeliveryConnectionTests {
    @Test("SMTP: STARTTLS required and smtps:// implicit TLS, with AUTH, verified; one connection per channel for the run")
    func smtpOverTLS() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = try ScriptServer.certificate(in: folder)
        let tls = ["--cert", certificate.cert, "--key", certificate.key, "--user", "bot", "--password", "pw-\(UUID().uuidString.prefix(8))"]
        let starttls = try SMTPServer(tls)
        let implicit = try SMTPServer(tls + ["--implicit-tls"])
        let password = tls.last!
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [
                #"<channel id="upgrade" url="smtp://bot:\#(password)@127.0.0.1:\#(starttls.port)?starttls=required" from="bot@example.org" caFile="\#(certificate.cert)"/>"#,
                #"<channel id="wrapped" url="smtps://bot:\#(password)@127.0.0.1:\#(implicit.port)" from="bot@example.org" caFile="\#(certificate.cert)"/>"#,
            ],
            recipients: [("ann", "upgrade", "ann@example.org"), ("bob", "wrapped", "bob@example.org")]))
        try DeliveryTests.schedule(ws, (1...4).flatMap { [("a\($0)", "ann"), ("b\($0)", "bob")] })
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "fired 8, delivered 8\n")
        for (server, to) in [(starttls, "ann@example.org"), (implicit, "bob@example.org")] {
            let messages = try server.messages()
            #expect(messages.count == 4)
            #expect(messages.allSatisfy { $0["tls"] as? Bool == true && $0["user"] as? String == "bot" }, "over TLS, logged in")
            #expect(messages.allSatisfy { $0["to"] as? [String] == [to] })
            #expect(Set(messages.map { $0["peer"] as! Int }).count == 1, "the 4 messages over one connection")
        }
        // Without the CA, the self-signed certificate is refused, and nothing is sent.
        let unverified = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="wrapped" url="smtps://bot:\#(password)@127.0.0.1:\#(implicit.port)" from="bot@example.org"/>"#],
            recipients: [("bob", "wrapped", "bob@example.org")]))
        try DeliveryTests.schedule(unverified, [("x", "bob")])
        let refused = try unverified.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(refused.status == 69, "a refused certificate is permanent: \(refused.stderr)")
        #expect(refused.stderr.lowercased().contains("certificate"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(password))
        #expect(try implicit.messages().count == 4)
    }

    @Test("webhooks: a plain-HTTP server that answers none in time gets each delivery on a connection of its own at once, each timed out as such (none waits behind the first connection until its timeout runs out in libcurl's queue)")
    func silentPlainHTTP() throws {
        let server = try WebhookServer()
        let people = (1...4).map { "p\($0)" }
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [#"<channel id="hook" url="json://127.0.0.1:\#(server.port)/slow/4" concurrency="4" timeout="2s"/>"#],
            recipients: people.map { ($0, "hook", "") }))
        try DeliveryTests.schedule(ws, people.map { ("m-\($0)", $0) })
        _ = try ws.chime(["run"], now: "2026-11-21T09:05:00Z", timeout: 60)
        // Each was sent and waited its 2 s for an answer; none was kept in libcurl's queue
        // until its timeout ran out there (which libcurl reports as not resolving the host).
        let errors = try DeliveryTests.deliveries(ws).values.map { "\($0)" }
        #expect(errors.count == 4 && errors.allSatisfy { $0.contains("timed out") && !$0.contains("resolve") }, "\(errors)")
    }

    @Test("webhooks: HTTP/1.1 keeps one connection for sequential requests; an HTTP/2 server gets them multiplexed over one")
    func webhookConnections() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-h2-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = try ScriptServer.certificate(in: folder)
        let http1 = try WebhookServer()
        let http2 = try HTTP2Server(certificate: certificate)
        let ws = try Workspace(configuration: DeliveryTests.configuration(
            channels: [
                #"<channel id="one" url="json://127.0.0.1:\#(http1.port)/ok" concurrency="1"/>"#,
                #"<channel id="two" url="jsons://127.0.0.1:\#(http2.port)/hook" concurrency="8" caFile="\#(certificate.cert)"/>"#,
            ],
            recipients: [("o", "one", ""), ("t", "two", "")]))
        try DeliveryTests.schedule(ws, (1...6).map { ("o\($0)", "o") } + (1...24).map { ("t\($0)", "t") })
        let run = try ws.chime(["run"], now: "2026-11-21T09:05:00Z")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "fired 30, delivered 30\n")
        let first = try http1.requests()
        #expect(first.count == 6)
        #expect(Set(first.map { $0["peer"] as! Int }).count == 1, "keep-alive: one connection for the 6")
        let second = try http2.requests()
        #expect(second.count == 24)
        #expect(second.allSatisfy { $0["version"] as? String == "2" }, "HTTP/2, offered by ALPN: \(second.map { $0["version"]! })")
        #expect(Set(second.map { $0["peer"] as! Int }).count == 1, "24 requests, 8 at a time, multiplexed over one connection")
    }
}
