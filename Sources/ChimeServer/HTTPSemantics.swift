import HTTPTypes
import Hummingbird

/// What Hummingbird's router leaves to its user, part one: a `HEAD` is answered as the
/// `GET` of the same path would be, without the body (RFC 9110 §9.3.2: monitors and link
/// checkers send it). Around the router's responder, since the router picks its route by
/// method before any middleware runs.
struct HeadAsGet<Base: HTTPResponder>: HTTPResponder {
    let base: Base

    func respond(to request: Request, context: Base.Context) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var get = request.head
        get.method = .get
        var response = try await base.respond(to: Request(head: get, body: request.body), context: context)
        // The GET's Content-Length stays: the size a monitor reads, without the bytes.
        let length = response.body.contentLength
        response.body = .init()
        if let length { response.headers[.contentLength] = String(length) }
        return response
    }
}

/// Part two: a path under `/v1/` that no route takes is answered in the API's JSON error
/// shape, as every other API error is, rather than with an empty body.
struct APINotFound<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where request.uri.path.hasPrefix("/v1/") {
            let code = error.status.code
            return APIError(status: code, code: code == 404 ? "not_found" : code == 400 ? "bad_request" : "http_\(code)",
                            message: code == 404 ? "no such resource" : error.status.reasonPhrase).response
        }
    }
}
