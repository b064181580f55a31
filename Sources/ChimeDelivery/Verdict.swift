import ChimeCore
import ChimeCurl
import Foundation

/// How one attempt went, as the courier acts on it.
struct Verdict {
    var outcome: DeliveryAttempt.Outcome
    /// The SMTP reply code or HTTP status; 0 when the server never answered.
    var code: Int
    var message: String
    /// Seconds the server asked to wait (429's `Retry-After` and its kin).
    var wait: Double?
    /// Nothing could connect: the channel's other deliveries are not tried this run.
    var unreachable = false

    /// What the body of an HTTP refusal says, on one line and at most this long.
    static let bodyLimit = 300

    /// An HTTP response: 2xx delivered; 429 waits; 5xx, 408, timeouts and resets are
    /// temporary; other statuses permanent, with the start of the body.
    init(_ response: HTTPPool.Response, now: Date = Date()) {
        if let error = response.error {
            outcome = error.isPermanent ? .permanent : .temporary
            code = response.status
            message = error.message
            unreachable = error.isUnreachable
            return
        }
        code = response.status
        let body = Self.excerpt(response.body)
        switch response.status {
        case 200..<300:
            outcome = .delivered
            message = "HTTP \(code)"
            // Discord says when a bucket is empty; wait before the next request.
            if response.headers["x-ratelimit-remaining"] == "0" {
                wait = response.headers["x-ratelimit-reset-after"].flatMap(Self.serverSeconds)
            }
        case 429:
            outcome = .rateLimited
            wait = Self.retryAfter(response.headers, now: now)
            message = "HTTP 429 Too Many Requests" + (wait.map { ", retry after \(Self.seconds($0))" } ?? "")
        case 408, 500..<600:
            outcome = .temporary
            message = "HTTP \(code)" + (body.isEmpty ? "" : ": \(body)")
        default:
            outcome = .permanent
            message = "HTTP \(code)" + (body.isEmpty ? "" : ": \(body)")
        }
    }

    init(outcome: DeliveryAttempt.Outcome, code: Int, message: String, unreachable: Bool = false) {
        self.outcome = outcome
        self.code = code
        self.message = message
        self.unreachable = unreachable
    }

    /// Seconds to wait from `Retry-After` (seconds or an HTTP date), else Discord's
    /// `X-RateLimit-Reset-After`.
    static func retryAfter(_ headers: [String: String], now: Date) -> Double? {
        if let value = headers["retry-after"] {
            if let seconds = serverSeconds(value) { return seconds }
            if let date = httpDate(value) { return min(max(0, date.timeIntervalSince(now)), longestWait) }
        }
        return headers["x-ratelimit-reset-after"].flatMap(serverSeconds)
    }

    /// The longest wait a server's header is taken for: a year. Longer, and every channel's
    /// `maxAge` gives the delivery up all the same.
    static let longestWait: Double = 366 * 86_400

    /// Seconds a server's header asks to wait: a number, not negative, finite (a `1e30` or
    /// an `inf` overflowed the clock and stopped the run), at most ``longestWait``.
    static func serverSeconds(_ text: String) -> Double? {
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else { return nil }
        return min(seconds, longestWait)
    }

    /// An IMF-fixdate (RFC 9110 §5.6.7), the form servers send.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    /// The body on one line, cut at ``bodyLimit`` characters.
    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
            .split(whereSeparator: { $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return text.count > bodyLimit ? String(text.prefix(bodyLimit)) + "…" : text
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }
}
