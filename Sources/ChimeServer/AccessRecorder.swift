import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Metrics

/// Records every HTTP request of `chime serve` once it is answered: counted in
/// `chime_http_requests_total{route, method, status}`, timed in
/// `chime_http_request_duration_seconds{route}`, and written as one access log line at
/// info. The route is the route's template (`/a/:token/:action`), never the path, which
/// carries tokens; `unmatched` when no route took it. No header, query or body is read.
public struct AccessRecorder<Context: RequestContext>: RouterMiddleware {
    /// `chime_http_requests_total`.
    public static var requestsMetric: String { "chime_http_requests_total" }
    /// `chime_http_request_duration_seconds`.
    public static var durationMetric: String { "chime_http_request_duration_seconds" }

    let logger: Logger

    public init(logger: Logger = Logger(label: "chime.http")) {
        self.logger = logger
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code, since: started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(request, context, status: status, since: started)
            throw error
        }
    }

    /// A route as it is written in the router, `/a/:token/:action` (Hummingbird describes
    /// it as `/a/{token}/{action}`).
    static func template(_ path: String) -> String {
        // By hand rather than with a regex literal, which is compiled again on every call:
        // that was a tenth of the CPU of a `POST /v1/requests`.
        var template = ""
        var rest = path[...]
        while let open = rest.firstIndex(of: "{") {
            template += rest[..<open]
            let name = rest[rest.index(after: open)...]
            if let close = name.firstIndex(where: { $0 == "}" || $0 == "/" }), name[close] == "}" {
                template += ":" + name[..<close]
                rest = name[name.index(after: close)...]
            } else {
                template += "{"
                rest = name
            }
        }
        return template + rest
    }

    /// The template of the route that took the request, `unmatched` when none did.
    static func route(of context: Context) -> String {
        context.endpointPath.flatMap { $0 == "NotFound" ? nil : template($0) } ?? "unmatched"
    }

    private func record(_ request: Request, _ context: Context, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let route = Self.route(of: context)
        // A HEAD is routed as a GET (``HeadAsGet``), which marks it: named as it was asked.
        let method = request.headers[HeadAsGet<Router<Context>.Responder>.marker] != nil ? "HEAD" : request.method.rawValue
        Counter(label: Self.requestsMetric, dimensions: [("route", route), ("method", method), ("status", String(status))]).increment()
        Timer(label: Self.durationMetric, dimensions: [("route", route)], preferredDisplayUnit: .seconds).recordSeconds(seconds)
        logger.info("request", metadata: [
            "http.route": .string(route), "http.method": .string(method), "http.status": .stringConvertible(status),
            "duration.ms": .string(String(format: "%.1f", seconds * 1_000)),
        ])
    }
}
