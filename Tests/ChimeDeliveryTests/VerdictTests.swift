@testable import ChimeDelivery
import ChimeCore
import ChimeCurl
import Foundation
import Testing

@Suite("What an answer means, and how long to wait")
struct VerdictTests {
    private func response(_ status: Int, _ headers: [String: String] = [:], body: String = "", error: CurlError? = nil) -> HTTPPool.Response {
        HTTPPool.Response(status: status, headers: headers, body: Array(body.utf8), error: error, httpVersion: 1)
    }

    @Test("2xx delivered; 429 rate-limited; 5xx and 408 temporary; other 4xx and 3xx permanent")
    func statuses() {
        #expect(Verdict(response(200)).outcome == .delivered)
        #expect(Verdict(response(204)).outcome == .delivered)
        #expect(Verdict(response(429)).outcome == .rateLimited)
        #expect(Verdict(response(500)).outcome == .temporary)
        #expect(Verdict(response(503)).outcome == .temporary)
        #expect(Verdict(response(408)).outcome == .temporary)
        #expect(Verdict(response(400)).outcome == .permanent)
        #expect(Verdict(response(404)).outcome == .permanent)
        #expect(Verdict(response(301)).outcome == .permanent)
    }

    @Test("no answer: a timeout or reset is temporary, a refused certificate permanent, a refused connection unreachable")
    func transportFailures() {
        let timeout = Verdict(response(0, error: CurlError(code: 28, message: "Operation timed out")))
        #expect(timeout.outcome == .temporary && !timeout.unreachable)
        let reset = Verdict(response(0, error: CurlError(code: 56, message: "Connection reset by peer")))
        #expect(reset.outcome == .temporary)
        let certificate = Verdict(response(0, error: CurlError(code: 60, message: "SSL certificate problem")))
        #expect(certificate.outcome == .permanent)
        let refused = Verdict(response(0, error: CurlError(code: 7, message: "Couldn't connect to server")))
        #expect(refused.outcome == .temporary && refused.unreachable)
    }

    @Test("Retry-After in seconds or as an HTTP date; Discord's X-RateLimit-Reset-After; a drained Discord bucket pauses")
    func waits() {
        let now = Date(timeIntervalSince1970: 1_795_251_900)
        #expect(Verdict(response(429, ["retry-after": "3"]), now: now).wait == 3)
        #expect(Verdict(response(429, ["retry-after": "Sat, 21 Nov 2026 09:05:10 GMT"]), now: now).wait == 10)
        #expect(Verdict(response(429, ["retry-after": "Sat, 21 Nov 2026 09:00:00 GMT"]), now: now).wait == 0, "a date past is no wait")
        #expect(Verdict(response(429, ["x-ratelimit-reset-after": "0.75"]), now: now).wait == 0.75)
        #expect(Verdict(response(429, ["retry-after": "soon"]), now: now).wait == nil)
        #expect(Verdict(response(204, ["x-ratelimit-remaining": "0", "x-ratelimit-reset-after": "1.5"])).wait == 1.5)
        #expect(Verdict(response(204, ["x-ratelimit-remaining": "3", "x-ratelimit-reset-after": "1.5"])).wait == nil)
        // What a server cannot mean: infinite is no wait given, a huge one a year at most.
        for header in ["inf", "nan", "-1", "1e400"] {
            #expect(Verdict(response(429, ["retry-after": header]), now: now).wait == nil, "\(header)")
        }
        #expect(Verdict(response(429, ["retry-after": "1e30"]), now: now).wait == Verdict.longestWait)
        #expect(Verdict(response(204, ["x-ratelimit-remaining": "0", "x-ratelimit-reset-after": "1e30"])).wait == Verdict.longestWait)
    }

    @Test("a refusal's body is kept on one line and cut")
    func excerpt() {
        let verdict = Verdict(response(400, body: "invalid_payload\n" + String(repeating: "é", count: 1000)))
        #expect(verdict.message.hasPrefix("HTTP 400: invalid_payload ééé"))
        #expect(verdict.message.count == "HTTP 400: ".count + Verdict.bodyLimit + 1)
        #expect(!verdict.message.contains("\n"))
    }

    @Test("backoff doubles from its base up to its cap, drawn at random below (full jitter)")
    func backoff() {
        let policy = DeliveryPolicy(backoff: 30, maxBackoff: 600)
        #expect((1...7).map { policy.backoffCeiling(afterAttempt: $0) } == [30, 60, 120, 240, 480, 600, 600])
        #expect(policy.backoffCeiling(afterAttempt: 500) == 600)
        var generator = SystemRandomNumberGenerator()
        let draws = (0..<2000).map { _ in policy.backoff(afterAttempt: 3, using: &generator) }
        #expect(draws.allSatisfy { (0...120).contains($0) })
        #expect(draws.min()! < 20 && draws.max()! > 100, "spread over the whole range")
    }

    @Test("each platform's default rate keeps under its published limit")
    func defaults() {
        #expect(DeliveryPolicy.defaults(for: .msteams).rate == 4)
        #expect(DeliveryPolicy.defaults(for: .slack).rate == 1)
        #expect(DeliveryPolicy.defaults(for: .discord).rate == 2.5)
        #expect(DeliveryPolicy.defaults(for: .telegram).rate == 1)
        #expect(DeliveryPolicy.defaults(for: .json).rate == nil)
        // SMTP: four connections at once, each reused message after message.
        #expect(DeliveryPolicy.defaults(for: .smtp).concurrency == 4)
    }
}
