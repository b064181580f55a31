import ChimeCore
import ChimeLocalization
import ChimeRendering
import ChimeReply
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging

/// `chime serve`: chat callbacks verified before they are parsed, and signed action
/// links (GET shows a page and never acts; POST acts), over Hummingbird. Each callback is
/// answered at once; carrying the action out (hooks may take seconds) happens after.
public struct ChimeHTTPServer: Sendable {
    /// Where each request finds the desk: replaced whole when the configuration is
    /// reloaded (SIGHUP), while requests under way finish with the one they took.
    public let desks: DeskHolder
    /// The real time: tokens expire, Slack's timestamps age.
    public let clock: @Sendable () -> Instant
    /// `GET /metrics`'s body, Prometheus's text format, made at each scrape; nil serves no
    /// `/metrics` (the registry is the executable's to bootstrap).
    public var metrics: Metrics?

    /// What `/metrics` is made of: the store's gauges, read at each scrape (given up after
    /// ``storeWait``), and the text made with them, or with why they could not be read.
    public struct Metrics: Sendable {
        public var gauges: @Sendable () throws -> StoreGauges
        public var text: @Sendable (Result<StoreGauges, any Error>) -> String

        public init(gauges: @escaping @Sendable () throws -> StoreGauges, text: @escaping @Sendable (Result<StoreGauges, any Error>) -> String) {
            (self.gauges, self.text) = (gauges, text)
        }
    }
    /// How `POST /v1/requests` schedules; nil answers it 503.
    public var scheduling: APIScheduling?
    /// Each API key's `rate`.
    let rateLimiter = APIRateLimiter()

    public init(desk: ClickDesk, clock: @escaping @Sendable () -> Instant = { Instant(Date()) }) {
        self.init(desks: DeskHolder(desk), clock: clock)
    }

    public init(desks: DeskHolder, clock: @escaping @Sendable () -> Instant = { Instant(Date()) }) {
        self.desks = desks
        self.clock = clock
    }

    /// The desk of the configuration in force.
    public var desk: ClickDesk { desks.current }

    var configuration: Configuration { desk.configuration }

    /// How long a connection may stay silent, between requests or within one.
    public static let idleSeconds: Int64 = 30

    /// Serves until SIGTERM or SIGINT; `onRunning` gets the port bound (for port 0).
    public func run(host: String, port: Int, onRunning: @escaping @Sendable (Int) -> Void) async throws {
        try await application(host: host, port: port, onRunning: onRunning).runService()
    }

    /// The HTTP server as a service, for a service group with others; `onRunning` gets
    /// the port bound (for port 0). Stopped gracefully, it finishes the requests under way.
    /// A connection that sends nothing for ``idleSeconds`` is closed: without it, a client
    /// opening sockets and leaving them silent held one file descriptor each for good, and
    /// a thousand of them kept everyone else out (and could crash the process when it ran
    /// out of descriptors). A request whose body has not arrived whole within as long of
    /// its headers is closed too (``ConnectionDeadlines``), and one whose client has read
    /// none of its responses for as long.
    /// No more than ``connectionLimit()`` connections are open at once: past it, new ones
    /// wait in the kernel's listen queue until one closes.
    public func application(host: String, port: Int, onRunning: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
        var logger = Logger(label: "chime.serve")
        logger.logLevel = .warning
        return Application(
            responder: HeadAsGet(base: router().buildResponder()),
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionDeadlines()], idleTimeout: .seconds(Self.idleSeconds))),
            configuration: .init(address: .hostname(host, port: port), serverName: "chime",
                                 availableConnectionsDelegate: MaximumAvailableConnections(Self.connectionLimit(), logger: logger)),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? port) }, logger: logger)
    }

    /// Descriptors kept for everything but HTTP connections: the store, the scheduler's
    /// SMTP and webhook connections, Maildir files, hooks' pipes.
    static let reservedDescriptors = 256

    /// How many HTTP connections may be open at once: the open-file limit less
    /// ``reservedDescriptors`` (half the limit when that is less). A flood of connections
    /// used every descriptor: the scheduler could no longer write a Maildir file or open a
    /// connection to a relay, and Dispatch ends the process when it cannot read `/proc`.
    public static func connectionLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1 << 16 }
        // No limit (RLIM_INFINITY) is as good as a million.
        let open = Int(min(limit.rlim_cur, 1 << 20))
        return max(open - reservedDescriptors, open / 2, 1)
    }

    /// How long `/health` and `/metrics` wait for the store before they say it cannot be
    /// read: less than the 5 s of the container's HEALTHCHECK.
    static let storeWait = 3.0

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        // First, so that it sees every route added after it, and requests no route takes.
        router.add(middleware: AccessRecorder())
        router.add(middleware: ErrorAnswers())
        let routes = MethodsAllowed<BasicRequestContext>.Routes()
        router.add(middleware: MethodsAllowed(routes: routes))
        // Alive and able to answer: the store read as any request reads it (a store that
        // cannot be read answered 200 while every API call failed, and a container's
        // HEALTHCHECK called it healthy). A store that does not answer (a PostgreSQL
        // server down, which a call waits up to 120 s for) is unhealthy within
        // `storeWait`, before a probe's own timeout.
        let healthRead = SharedRead<Void>(), gaugesRead = SharedRead<StoreGauges>()
        router.get("/health") { _, _ in
            let (store, now) = (desk.actions.store, clock())
            if case .failure(let error) = await healthRead.result(within: Self.storeWait, { _ = try store.runOutlook(now: now) }) {
                Logger(label: "chime.http").error("health: the store cannot be read", metadata: ["error": .string(printableError(error))])
                return Self.text(503, "the store cannot be read")
            }
            return Self.text(200, "ok")
        }
        if let metrics {
            router.get("/metrics") { _, _ in
                let gauges = await gaugesRead.result(within: Self.storeWait, metrics.gauges)
                // No store call: made here, even while the threads of `blocking` are all
                // taken by calls to a store that does not answer.
                return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: metrics.text(gauges))))
            }
        }
        router.get("/a/:token/:action") { _, context in
            let (token, action) = (context.parameters.get("token") ?? "", Self.segment(context, "action"))
            // A form, not a link: scanners follow GETs, and a GET never acts.
            let (desk, now) = (desk, clock())
            let (page, button) = try await Self.blocking { try desk.describe(token: token, action: action, now: now) }
            return Self.page(page, button: button)
        }
        router.post("/a/:token/:action") { request, context in
            let (token, action) = (context.parameters.get("token") ?? "", Self.segment(context, "action"))
            let (desk, now) = (desk, clock())
            // A link that can do nothing (forged, expired, naming no action) is refused, and
            // recorded as such, before its body is read: a body sent a byte at a time held
            // the connection open past the idle timeout for anyone, with any token.
            let (page, _) = try await Self.blocking { try desk.describe(token: token, action: action, now: now, counting: false) }
            let text = page.verdict == .answered ? await Self.typedText(request) : .none
            let outcome = try await Self.blocking {
                try desk.press(token: token, action: action, channel: "link", responder: "link", text: text, now: now)
            }
            // No platform waits here: the page says how it went, once it is carried out
            // (counted as a chat press's is, off the server's shared threads, as hooks may
            // take their whole timeout): what a reply would have been answered ("… could not
            // be carried out. Please try again later.": pressing again tries again).
            var answer: String?
            if let then = outcome.then { answer = await ActionsInFlight.carryOut(then) }
            // A text-input action's text refused: its field again.
            return Self.page(outcome, then: answer, button: outcome.wantsText?.button)
        }
        // The reminder whole, for whoever holds the view link of its message.
        router.get("/v/:token") { _, context in
            let token = context.parameters.get("token") ?? ""
            return try await Self.blocking { try view(token: token) }
        }
        // One-click unsubscribe (RFC 8058): the List-Unsubscribe-Post POST turns the
        // category off; a GET (a person, or a scanner) shows the button and changes nothing.
        // A digest's link lists its categories in its query (MessageLinks.unsubscribe(from:)).
        router.get("/u/:token") { request, context in
            let token = context.parameters.get("token") ?? "", query = request.uri.query
            return try await Self.blocking { try unsubscribe(token: token, query: query, apply: false) }
        }
        router.post("/u/:token") { request, context in
            let token = context.parameters.get("token") ?? "", query = request.uri.query
            return try await Self.blocking { try unsubscribe(token: token, query: query, apply: true) }
        }
        // The preferences page: GET shows the form, POST saves it.
        router.get("/p/:token") { request, context in
            try await preferencesPage(request, token: context.parameters.get("token") ?? "")
        }
        router.post("/p/:token") { request, context in
            try await savePreferences(request, token: context.parameters.get("token") ?? "")
        }
        addAPI(to: router)
        // A channel's id as written in chime.xml, in any script: the callback URLs Chime
        // gives the platforms write it percent-encoded.
        router.post("/slack/:channel") { request, context in
            try await slack(request, channel: Self.segment(context, "channel"))
        }
        router.post("/discord/:channel") { request, context in
            try await discord(request, channel: Self.segment(context, "channel"))
        }
        router.post("/mattermost/:channel") { request, context in
            try await mattermost(request, channel: Self.segment(context, "channel"))
        }
        router.post("/telegram/:channel") { request, context in
            try await telegram(request, channel: Self.segment(context, "channel"))
        }
        routes.set(router.routes)
        return router
    }

    /// The unsubscribe page: on GET the button (a form that POSTs), on POST what was done.
    func unsubscribe(token: String, query: String?, apply: Bool) throws -> Response {
        let categories = MessageLinks.categories(unsubscribeQuery: query.map { Substring($0) })
        let (page, button) = try desk.unsubscribe(token: token, categories: categories, apply: apply, now: clock())
        return Self.page(page, button: button, field: #"<input type="hidden" name="List-Unsubscribe" value="One-Click">"#)
    }

    // MARK: HTTP helpers

    static func name(_ text: String) -> HTTPField.Name { HTTPField.Name(text)! }

    static func body(_ request: Request) async throws -> [UInt8] {
        Array(try await request.body.collect(upTo: 1 << 20).readableBytesView)
    }

    /// A path segment as it was written before percent-encoding: the router gives it
    /// encoded, and an action identifier in any script is written encoded
    /// (``MessageLinks/actionURL(base:token:identifier:)``).
    static func segment(_ context: BasicRequestContext, _ name: String) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    static func form(_ text: String) -> [String: String] {
        ChatCallback.form(Array(text.utf8))
    }

    /// The `text` field of an action page's form (`application/x-www-form-urlencoded`),
    /// read up to what a field of ``ClickDesk/maximumTextBytes`` sends (percent-encoding
    /// triples a byte); empty when the POST sends no form.
    static func typedText(_ request: Request) async -> ClickDesk.TextSource {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else { return .typed("") }
        guard let body = try? await request.body.collect(upTo: 3 * ClickDesk.maximumTextBytes + 64) else { return .tooLong }
        return .typed(ChatCallback.form(Array(body.readableBytesView))["text"] ?? "")
    }

    static func json(_ status: Int, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A 200 with no body: what acknowledges a callback whose answer goes another way.
    static var acknowledged: Response { Response(status: .ok) }

    static func text(_ status: Int, _ text: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    /// A person's page is never kept by a cache on the way: an action's and an unsubscribe
    /// page's forms carry their signed tokens, and a POST's answer may repeat the text
    /// typed (the view and preferences pages say the same, with more headers of theirs).
    static let pageHeaders: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]

    static func page(_ status: Int, _ title: String, _ content: String) -> Response {
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>\(htmlEscaped(title))</title></head>
            <body>\(content)</body></html>

            """
        return Response(status: .init(code: status), headers: pageHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A page for a person: in their language (`lang`, `dir`), headed by the reminder it
    /// is about, saying `page`'s message and `then` (how carrying out went); with
    /// `button`, a form that POSTs back (with `field`, and the text field of the text
    /// `page` asks for).
    static func page(_ page: ClickDesk.Outcome, then: String? = nil, button: String? = nil, field: String = "") -> Response {
        let to = page.addressee
        var content = to.reminder.map { "<h1>\(htmlEscaped($0))</h1>\n" } ?? ""
        content += ([page.message] + (then.map { [$0] } ?? [])).map { "<p>\(htmlEscaped($0))</p>\n" }.joined()
        if let button {
            let text = page.wantsText.map(textField) ?? ""
            content += "<form method=\"post\">\(field)\(text)<button type=\"submit\">\(htmlEscaped(button))</button></form>\n"
        }
        return Response(status: .init(code: page.verdict.httpStatus), headers: pageHeaders,
                        body: .init(byteBuffer: ByteBuffer(string: document(locale: to.locale, title: to.reminder ?? "Chime", content))))
    }

    /// A whole page in a language, never indexed.
    static func document(locale: String, title: String, _ content: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(htmlEscaped(LocaleFallback.language(of: locale)))" dir="\(LocaleFallback.direction(of: locale))">
        <head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="viewport" content="width=device-width">
        <title>\(htmlEscaped(title))</title></head>
        <body>
        \(content)</body></html>

        """
    }

    /// A text-input action's field: its placeholder, at most ``ClickDesk/maximumTextBytes``
    /// (a UTF-16 unit, what `maxlength` counts, is at most three bytes of UTF-8).
    static func textField(_ prompt: ClickDesk.TextPrompt) -> String {
        #"<p><textarea name="text" rows="4" cols="40" maxlength="\#(ClickDesk.maximumTextBytes / 3)" required autofocus "#
            + #"aria-label="\#(htmlEscaped(prompt.title))" placeholder="\#(htmlEscaped(prompt.placeholder))"></textarea></p>"#
    }

    static func refusal(_ verdict: ClickDesk.Verdict) -> String {
        "<p>\(ClickDesk.refusalText(verdict))</p>"
    }
}

extension ClickDesk.Verdict {
    /// The HTTP status a link's page or a callback's answer carries for this verdict.
    var httpStatus: Int {
        switch self {
        case .answered: 200
        case .malformed: 400
        case .forged: 403
        case .noSuchAction, .unknownRecipient: 404
        case .gone: 410
        case .tooLong: 413
        }
    }
}
