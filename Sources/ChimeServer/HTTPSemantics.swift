import ChimeCore
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// What Hummingbird's router leaves to its user, part one: a `HEAD` is answered as the
/// `GET` of the same path would be, without the body (RFC 9110 §9.3.2: monitors and link
/// checkers send it). Around the router's responder, since the router picks its route by
/// method before any middleware runs.
struct HeadAsGet<Base: HTTPResponder>: HTTPResponder {
    let base: Base

    /// Set on the GET a HEAD is answered as, so that the access log and the metrics name
    /// the method asked (``AccessRecorder``); taken off any request that comes with it.
    static var marker: HTTPField.Name { HTTPField.Name("chime-answering-head")! }

    func respond(to request: Request, context: Base.Context) async throws -> Response {
        guard request.method == .head else {
            guard request.headers[Self.marker] != nil else { return try await base.respond(to: request, context: context) }
            var head = request.head
            head.headerFields[Self.marker] = nil
            return try await base.respond(to: Request(head: head, body: request.body), context: context)
        }
        var get = request.head
        get.method = .get
        get.headerFields[Self.marker] = "1"
        var response = try await base.respond(to: Request(head: get, body: request.body), context: context)
        // The GET's Content-Length stays: the size a monitor reads, without the bytes.
        let length = response.body.contentLength
        response.body = .init()
        if let length { response.headers[.contentLength] = String(length) }
        return response
    }
}

/// Part two: a path under `/v1/` that no route takes is answered in the API's JSON error
/// shape, as every other API error is, rather than with an empty body; and an error no
/// route meant to answer (the store failing) is logged at `error`, with what it was,
/// and answered 500, in that shape under `/v1/`. (It went unlogged, and the API's 500
/// had an empty body.)
struct ErrorAnswers<Context: RequestContext>: RouterMiddleware {
    let logger = Logger(label: "chime.http")

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where request.uri.path.hasPrefix("/v1/") {
            let code = error.status.code
            return APIError(status: code, code: code == 404 ? "not_found" : code == 400 ? "bad_request" : "http_\(code)",
                            message: code == 404 ? "no such resource" : error.status.reasonPhrase).response
        } catch where !(error is any HTTPResponseError) {
            logger.error("request failed", metadata: ["http.route": .string(AccessRecorder.route(of: context)), "error": .string(printableError(error))])
            guard request.uri.path.hasPrefix("/v1/") else { throw error }
            return APIError(status: 500, code: "internal_error", message: "the request could not be answered now; the server's log says why").response
        }
    }
}

/// Part three: a path that routes take with other methods only is answered `405 Method
/// Not Allowed` with their `Allow` list (RFC 9110 §15.5.6), in the API's JSON error shape
/// under `/v1/`, rather than `404`, which told a script that the resource was not there.
/// The routes are the router's own (``Router/routes``), given once they are all added;
/// checked before any route runs, by path segment, a `:parameter` taking any one.
struct MethodsAllowed<Context: RequestContext>: RouterMiddleware {
    /// Each route's path, with the methods that take it.
    final class Routes: Sendable {
        private let routes = Mutex<[(path: RouterPath, methods: [HTTPRequest.Method])]>([])

        func set(_ described: [Router<Context>.RouteDescription]) {
            var byPath: [(path: RouterPath, methods: [HTTPRequest.Method])] = []
            for route in described {
                if let index = byPath.firstIndex(where: { $0.path == route.path }) {
                    byPath[index].methods.append(route.method)
                } else {
                    byPath.append((route.path, [route.method]))
                }
            }
            routes.withLock { $0 = byPath }
        }

        /// The methods routes take `path` with (`HEAD` with `GET`, ``HeadAsGet``); empty
        /// when none takes it.
        func methods(for path: String) -> [HTTPRequest.Method] {
            // As the router splits it: empty segments (`//`, a trailing `/`) are none.
            let segments = path.split(separator: "/")
            var methods: [HTTPRequest.Method] = routes.withLock { routes in
                routes.filter { route in
                    route.path.components.count == segments.count && zip(route.path.components, segments).allSatisfy { $0 ~= $1 }
                }.flatMap(\.methods)
            }
            if methods.contains(.get) { methods.append(.head) }
            return methods
        }
    }

    let routes: Routes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // A request the router took to a route is that route's.
        guard context.endpointPath == nil else { return try await next(request, context) }
        let allowed = routes.methods(for: request.uri.path)
        guard !allowed.isEmpty, !allowed.contains(request.method) else { return try await next(request, context) }
        let allow = Set(allowed.map(\.rawValue)).sorted().joined(separator: ", ")
        var response = request.uri.path.hasPrefix("/v1/")
            ? APIError(status: 405, code: "method_not_allowed", message: "\(request.method.rawValue) is not one of \(allow) here").response
            : Response(status: .methodNotAllowed, headers: [.contentType: "text/plain; charset=utf-8"],
                       body: .init(byteBuffer: ByteBuffer(string: "\(request.method.rawValue) is not one of \(allow) here\n")))
        response.headers[.allow] = allow
        return response
    }
}
