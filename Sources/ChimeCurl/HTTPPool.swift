internal import CChimeCurl

/// HTTP requests and SMTP messages in flight at once: the caller starts transfers and
/// collects them as they finish, and decides itself how many run together.
///
/// HTTP goes through libcurl's multi interface: easy handles are pooled and reused, and
/// the multi handle keeps one connection cache, so later requests to the same host reuse
/// open connections; over HTTPS, HTTP/2 is asked for and requests to one host share one
/// connection when the server speaks it. Emails go on threads of their own, each keeping
/// its SMTP connection open from one message to the next (``MailSenders``), and their
/// ends wake the multi handle's wait. Not thread-safe: drive it from one task.
public final class HTTPPool {
    public enum Method: Sendable {
        case post
        /// No request body: to read a resource (a chat platform's API).
        case get
        /// No body either way: to see that an endpoint answers.
        case head
    }

    public struct Request: Sendable {
        public var url: String
        public var method: Method
        public var body: [UInt8]
        /// `Name: value` lines.
        public var headers: [String]
        public var timeouts: CurlEasy.Timeouts
        /// A CA bundle to verify the server with, instead of the system's.
        public var caFile: String?
        public var verifyTLS: Bool

        public init(url: String, method: Method = .post, body: [UInt8] = [], headers: [String] = [],
                    timeouts: CurlEasy.Timeouts = .init(), caFile: String? = nil, verifyTLS: Bool = true) {
            self.url = url
            self.method = method
            self.body = body
            self.headers = headers
            self.timeouts = timeouts
            self.caFile = caFile
            self.verifyTLS = verifyTLS
        }
    }

    public struct Response: Sendable {
        /// The HTTP status; 0 when none came (see `error`).
        public var status: Int
        /// Response headers by lower-cased name (the last one of a name wins).
        public var headers: [String: String]
        /// The start of the body, up to the pool's `bodyLimit` bytes.
        public var body: [UInt8]
        /// Why the transfer failed: no connection, TLS refused, timed out, reset.
        public var error: CurlError?
        /// 1 or 2 (HTTP/1.x or HTTP/2), 0 when unknown.
        public var httpVersion: Int

        public init(status: Int, headers: [String: String], body: [UInt8], error: CurlError?, httpVersion: Int) {
            self.status = status
            self.headers = headers
            self.body = body
            self.error = error
            self.httpVersion = httpVersion
        }
    }

    /// How a transfer ended.
    public enum Completion: Sendable {
        case http(Response)
        /// The server took the message for some recipients, or nobody got it.
        case mail(Result<SMTPClient.Sent, SMTPClient.Failure>)
        /// The email was not tried: a message before it found its server could not be
        /// reached.
        case mailNotTried
    }

    private let multi: UnsafeMutableRawPointer
    private var idle: [CurlEasy] = []
    /// Emails in flight, on their senders' threads.
    private var mailInFlight = 0
    /// The threads that send emails, made with the first one.
    private var mailSenders: MailSenders?
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    private let bodyLimit: Int

    /// - Parameter bodyLimit: how much of each response body is kept.
    public init(bodyLimit: Int = 4_096) throws {
        try Curl.initialize()
        guard let multi = chime_curl_multi_init() else {
            throw CurlError(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_multi_init failed")
        }
        self.multi = multi
        self.bodyLimit = bodyLimit
        _ = chime_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
    }

    deinit {
        mailSenders?.close()
        for transfer in running.values { chime_curl_multi_remove_handle(multi, transfer.easy.handle) }
        running.removeAll()
        idle.removeAll()
        chime_curl_multi_cleanup(multi)
    }

    /// Transfers started and not yet collected.
    public var inFlight: Int { running.count + mailInFlight }

    /// Starts sending an email on a thread of its own (``MailSenders`` says why), over at
    /// most `connections` at once among the emails of its `queue` (one channel's, all to
    /// its one server): beyond them it waits for one to be done with the email before
    /// (``Completion/mailNotTried`` if the server turned out unreachable meanwhile). How it
    /// went comes back from ``collectCompletions(waitingUpTo:)`` with `tag`.
    public func start(_ mail: MailRequest, tag: Int, connections: Int, queue: String) {
        if mailSenders == nil {
            nonisolated(unsafe) let multi = multi
            // Thread-safe: ends the pool's `curl_multi_poll` at once.
            mailSenders = MailSenders { chime_curl_multi_wakeup(multi) }
        }
        mailSenders!.submit(mail, tag: tag, connections: connections, queue: queue)
        mailInFlight += 1
    }

    /// Takes back the emails waiting for one of their queue's connections, none of them
    /// begun: their tags, which ``collectCompletions(waitingUpTo:)`` will not return.
    public func withdrawWaitingMail() -> [Int] {
        let tags = mailSenders?.withdrawWaiting() ?? []
        mailInFlight -= tags.count
        return tags
    }

    /// Starts a request; its response comes back from ``collect(waitingUpTo:)`` with `tag`.
    public func start(_ request: Request, tag: Int) throws {
        let easy = try idle.popLast() ?? CurlEasy(timeouts: request.timeouts)
        try easy.reset()
        let transfer = Transfer(easy: easy, tag: tag, bodyLimit: bodyLimit)
        let handle = easy.handle
        try easy.check(chime_curl_setopt_string(handle, CURLOPT_URL, request.url))
        try easy.check(chime_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, request.timeouts.connect))
        try easy.check(chime_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, request.timeouts.total))
        try easy.check(chime_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
        // Over TLS, wait for a connection that can multiplex (HTTP/2) rather than open
        // another at once. Plain HTTP is HTTP/1.1 here and never multiplexes: waiting
        // there held every other transfer to the host behind a first connection that a
        // silent server never answered, until their own timeouts ran out in the queue
        // (reported by libcurl as a failure to resolve the host).
        if request.url.utf8.prefix(6).lazy.map({ $0 | 0x20 }).elementsEqual("https:".utf8) {
            try easy.check(chime_curl_setopt_long(handle, CURLOPT_PIPEWAIT, 1))
        }
        if let caFile = request.caFile { try easy.check(chime_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        if !request.verifyTLS {
            try easy.check(chime_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0))
            try easy.check(chime_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0))
        }
        switch request.method {
        case .post:
            try easy.check(chime_curl_setopt_long(handle, CURLOPT_POST, 1))
            try easy.check(chime_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
            // libcurl copies the body, so the request may go before the transfer ends.
            try request.body.withUnsafeBytes { bytes in
                try easy.check(chime_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)))
            }
        case .get:
            try easy.check(chime_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case .head:
            try easy.check(chime_curl_setopt_long(handle, CURLOPT_NOBODY, 1))
        }
        // An empty `Expect:` stops libcurl waiting for `100 Continue` before a body.
        for line in request.headers + ["Expect:"] { transfer.headerList = chime_curl_slist_append(transfer.headerList, line) }
        try easy.check(chime_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, transfer.headerList))
        try easy.check(chime_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let length = size * count
            let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
            let room = max(0, transfer.bodyLimit - transfer.body.count)
            transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(length, room)))
            return length
        })
        try easy.check(chime_curl_setopt_write_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let length = size * count
            Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                .header(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
            return length
        })
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        try easy.check(chime_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        try easy.check(chime_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        try add(transfer)
    }

    private func add(_ transfer: Transfer) throws {
        transfer.easy.clearError()
        guard chime_curl_multi_add_handle(multi, transfer.easy.handle) == CURLM_OK else {
            transfer.release()
            idle.append(transfer.easy)
            throw CurlError(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_multi_add_handle failed")
        }
        running[transfer.easy.handle] = transfer
    }

    /// Moves the transfers on, waiting up to `milliseconds` for something to happen, and
    /// returns the HTTP requests that finished. Only for a pool that sends no email
    /// (``collectCompletions(waitingUpTo:)`` returns both).
    public func collect(waitingUpTo milliseconds: Int) -> [(tag: Int, response: Response)] {
        collectCompletions(waitingUpTo: milliseconds).map { tag, completion in
            guard case .http(let response) = completion else { preconditionFailure("an email collected as an HTTP response") }
            return (tag, response)
        }
    }

    /// Moves the transfers on, waiting up to `milliseconds` for something to happen, and
    /// returns those that finished, HTTP requests and emails.
    public func collectCompletions(waitingUpTo milliseconds: Int) -> [(tag: Int, completion: Completion)] {
        var active: Int32 = 0
        chime_curl_multi_perform(multi, &active)
        var finished = drain() + drainMail()
        // A mail sender done once the wait is prepared wakes it (curl_multi_wakeup), even
        // before it starts.
        if finished.isEmpty && inFlight > 0 && (mailInFlight == 0 || mailSenders!.prepareToWait()) {
            chime_curl_multi_poll(multi, nil, 0, Int32(max(0, milliseconds)), nil)
            if mailInFlight > 0 { mailSenders!.doneWaiting() }
            chime_curl_multi_perform(multi, &active)
            finished = drain() + drainMail()
        }
        return finished
    }

    /// One request, start to end.
    public func perform(_ request: Request) throws -> Response {
        let tag = -1 - running.count
        try start(request, tag: tag)
        while true {
            if let done = collect(waitingUpTo: 1_000).first(where: { $0.tag == tag }) { return done.response }
        }
    }

    private func drainMail() -> [(tag: Int, completion: Completion)] {
        guard mailInFlight > 0 else { return [] }
        let done = mailSenders!.takeFinished()
        mailInFlight -= done.count
        return done.map { ($0.tag, $0.outcome.map { .mail($0) } ?? .mailNotTried) }
    }

    private func drain() -> [(tag: Int, completion: Completion)] {
        var finished: [(tag: Int, completion: Completion)] = []
        var left: Int32 = 0
        while let message = chime_curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let transfer = running.removeValue(forKey: handle) else { continue }
            let result = message.pointee.data.result
            chime_curl_multi_remove_handle(multi, handle)
            var error: CurlError?
            do { try transfer.easy.check(result) } catch let failure as CurlError { error = failure } catch {}
            var status = 0
            _ = chime_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            var version = 0
            _ = chime_curl_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
            finished.append((transfer.tag, .http(Response(
                status: status, headers: transfer.headers, body: transfer.body, error: error,
                httpVersion: version == Int(CURL_HTTP_VERSION_2_0) ? 2 : version == 0 ? 0 : 1))))
            transfer.release()
            idle.append(transfer.easy)
        }
        return finished
    }
}

/// One request in flight: its handle, what came back so far, and the header list that
/// must live until it ends.
private final class Transfer {
    let easy: CurlEasy
    let tag: Int
    let bodyLimit: Int
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var headerList: UnsafeMutablePointer<curl_slist>?

    init(easy: CurlEasy, tag: Int, bodyLimit: Int) {
        self.easy = easy
        self.tag = tag
        self.bodyLimit = bodyLimit
    }

    /// One header line; a status line starts the headers over (after `100 Continue` or
    /// an interim response).
    func header(_ line: String) {
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        var value = line[line.index(after: colon)...].drop(while: blank)
        while let last = value.last, blank(last) { value = value.dropLast() }
        headers[name] = String(value)
    }

    func release() {
        _ = chime_curl_setopt_slist(easy.handle, CURLOPT_HTTPHEADER, nil)
        chime_curl_slist_free_all(headerList)
        headerList = nil
    }
}
