internal import CChimeCurl

/// One libcurl easy handle, owned by this object and cleaned up in `deinit`.
///
/// Reusing one handle for several transfers lets libcurl keep the connection open. A
/// handle is not thread-safe: use it from one task at a time.
public final class CurlEasy {
    /// What a transfer returned.
    public struct Response: Sendable {
        /// The HTTP status, or the last SMTP/IMAP reply code.
        public var code: Int
        public var body: [UInt8]
    }

    /// Timeouts in milliseconds.
    public struct Timeouts: Sendable {
        public var connect: Int
        public var total: Int

        public init(connect: Int = 10_000, total: Int = 60_000) {
            self.connect = connect
            self.total = total
        }
    }

    let handle: UnsafeMutableRawPointer
    private let timeouts: Timeouts
    /// libcurl writes its detailed message here (`CURLOPT_ERRORBUFFER`); it must live as
    /// long as the handle.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// Makes a handle with signals off (safe in threads), the error buffer set, and TLS
    /// verification left on, as libcurl has it by default.
    public init(timeouts: Timeouts = Timeouts()) throws {
        try Curl.initialize()
        guard let handle = chime_curl_easy_init() else {
            throw CurlError(code: Int(CURLE_FAILED_INIT.rawValue), message: "curl_easy_init failed")
        }
        self.handle = handle
        self.timeouts = timeouts
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        try applyBaseOptions()
    }

    /// Clears every option a transfer set, keeping the handle's open connections and
    /// caches, and sets the base options again: how a pooled handle starts a new transfer.
    func reset() throws {
        chime_curl_easy_reset(handle)
        try applyBaseOptions()
    }

    private func applyBaseOptions() throws {
        try check(chime_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        try check(chime_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        try check(chime_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeouts.connect))
        try check(chime_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeouts.total))
    }

    deinit {
        chime_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Fetches a URL with GET and returns its status and body.
    /// - Throws: ``CurlError`` when the transfer fails (not for an HTTP error status).
    public func get(_ url: String) throws -> Response {
        try check(chime_curl_setopt_string(handle, CURLOPT_URL, url))
        try check(chime_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        let body = try performCollecting()
        var code = 0
        try check(chime_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code))
        return Response(code: code, body: body)
    }

    /// Performs the transfer set up on the handle and returns the bytes it received.
    func performCollecting() throws -> [UInt8] {
        try performCollecting(limit: .max) ?? []
    }

    /// The transfer's body, or nil once it passes `limit` bytes: the transfer is then cut
    /// there (what a server sends past the size it gave is not kept in memory).
    func performCollecting(limit: Int) throws -> [UInt8]? {
        let sink = ByteSink(limit: limit)
        try check(chime_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            let length = size * count
            let sink = ByteSink.from(context)
            guard sink.bytes.count + length <= sink.limit else {
                sink.overflowed = true
                return 0 // libcurl stops the transfer (CURLE_WRITE_ERROR)
            }
            sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            return length
        })
        defer { _ = chime_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, nil) }
        do {
            try withExtendedLifetime(sink) {
                try check(chime_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, sink.opaque))
                try perform()
            }
        } catch where sink.overflowed {
            return nil
        }
        return sink.bytes
    }

    func perform() throws {
        errorBuffer[0] = 0
        try check(chime_curl_easy_perform(handle))
    }

    /// Empties the error buffer before a transfer the multi interface drives.
    func clearError() {
        errorBuffer[0] = 0
    }

    /// Turns a `CURLcode` into a thrown ``CurlError``, preferring the error buffer's words.
    func check(_ code: CURLcode) throws {
        guard code != CURLE_OK else { return }
        let detail = String(cString: errorBuffer)
        let message = detail.isEmpty ? String(cString: chime_curl_easy_strerror(code)) : detail
        throw CurlError(code: Int(code.rawValue), message: message)
    }
}

/// Collects the bytes a transfer writes; found again from libcurl's context pointer.
final class ByteSink {
    var bytes: [UInt8] = []
    /// Bytes kept at most; past them the transfer is cut and `overflowed` set.
    let limit: Int
    var overflowed = false

    init(limit: Int = .max) {
        self.limit = limit
    }

    var opaque: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static func from(_ pointer: UnsafeMutableRawPointer) -> ByteSink {
        Unmanaged<ByteSink>.fromOpaque(pointer).takeUnretainedValue()
    }
}
