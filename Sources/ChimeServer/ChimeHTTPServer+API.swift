import ChimeCore
import Foundation
import HTTPTypes
import Hummingbird

/// The HTTP API for apps, under `/v1`: each route needs `Authorization: Bearer SECRET`,
/// the secret of an `<api><key>` whose scope is at least the route's.
extension ChimeHTTPServer {
    func addAPI(to router: Router<BasicRequestContext>) {
        router.get("/v1/requests/:identifier") { request, context in
            try await api(request, needs: .read) {
                let identifier = Self.segment(context, "identifier")
                guard let pending = try await Self.blocking({ [store = desk.store] in try store.pending(identifier: identifier) }) else {
                    return APIError.notFound("no pending request \"\(identifier)\"").response
                }
                return try Self.encoded(200, PendingJSON(pending))
            }
        }
        router.delete("/v1/requests/:identifier") { request, context in
            try await api(request, needs: .write) {
                let identifier = Self.segment(context, "identifier")
                let cancelled = try await Self.blocking { [store = desk.store] in try store.cancel([identifier]) }
                guard !cancelled.isEmpty else { return APIError.notFound("no pending request \"\(identifier)\"").response }
                return Response(status: .noContent)
            }
        }
    }

    /// Answers with `route` when the request carries a key of at least `scope`; else 401
    /// (no key, an unknown one) or 403 (a key whose scope is too small).
    func api(_ request: Request, needs scope: APIKey.Scope, _ route: () async throws -> Response) async throws -> Response {
        switch APIAuthorization.check(request.headers[.authorization], keys: configuration.apiKeys, needs: scope) {
        case .allowed: return try await route()
        case .refused(let error): return error.response
        }
    }

    /// A JSON answer written as every `--json` output is: sorted keys, unescaped slashes.
    static func encoded<T: Encodable>(_ status: Int, _ value: T) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: .init(code: status), headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
