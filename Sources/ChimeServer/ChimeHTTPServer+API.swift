import ChimeCore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The HTTP API for apps, under `/v1`: each route needs `Authorization: Bearer SECRET`,
/// the secret of an `<api><key>` whose scope is at least the route's.
extension ChimeHTTPServer {
    /// The largest body `POST /v1/requests` reads: 1 MiB; a larger one is answered 413.
    static let largestAPIBody = 1 << 20

    func addAPI(to router: Router<BasicRequestContext>) {
        router.post("/v1/requests") { request, _ in
            try await api(request, needs: .write) { keyID in
                try await schedule(request, keyID: keyID)
            }
        }
        router.get("/v1/requests/:identifier") { request, context in
            try await api(request, needs: .read) { _ in
                let identifier = Self.segment(context, "identifier")
                guard let pending = try await Self.blocking({ [store = desk.store] in try store.pending(identifier: identifier) }) else {
                    return APIError.notFound("no pending request \"\(identifier)\"").response
                }
                return try Self.encoded(200, PendingJSON(pending))
            }
        }
        router.delete("/v1/requests/:identifier") { request, context in
            try await api(request, needs: .write) { _ in
                let identifier = Self.segment(context, "identifier")
                let cancelled = try await Self.blocking { [store = desk.store] in try store.cancel([identifier]) }
                guard !cancelled.isEmpty else { return APIError.notFound("no pending request \"\(identifier)\"").response }
                return Response(status: .noContent)
            }
        }
    }

    /// `POST /v1/requests`: one request object or an array, decoded as `chime schedule
    /// --json` decodes them (400 pointing at the field), scheduled all or none (422 when
    /// refused), 201 with what was scheduled. With an `Idempotency-Key`, the first answer
    /// for the key (of this API key) is kept and replayed to the same body; another body
    /// is refused (409).
    func schedule(_ request: Request, keyID: String) async throws -> Response {
        guard let scheduling else { return APIError(status: 503, code: "unavailable", message: "this server does not schedule").response }
        let body: [UInt8]
        do {
            body = Array(try await request.body.collect(upTo: Self.largestAPIBody).readableBytesView)
        } catch {
            return APIError(status: 413, code: "too_large", message: "the body is larger than \(Self.largestAPIBody) bytes").response
        }
        guard let key = request.headers[Self.name("Idempotency-Key")] else {
            return Self.answer(try await schedule(body, with: scheduling))
        }
        guard (1...255).contains(key.utf8.count) else {
            return APIError(status: 400, code: "bad_request", message: "an Idempotency-Key has 1 to 255 characters").response
        }
        let digest = SHA256.hash(data: body).map { String(format: "%02x", $0) }.joined()
        let store = desk.store
        if let kept = try await Self.blocking({ try store.idempotentAnswer(owner: keyID, key: key) }) {
            return Self.replay(kept, digest: digest)
        }
        var answer = try await schedule(body, with: scheduling)
        answer.requestDigest = digest
        let now = clock()
        let kept = try await Self.blocking { [answer] in try store.keepIdempotentAnswer(answer, owner: keyID, key: key, at: now) }
        // Another call with the key answered first: its answer is the one.
        return kept == answer ? Self.answer(answer) : Self.replay(kept, digest: digest)
    }

    /// The answer to a body of requests, as it is kept for its `Idempotency-Key`.
    func schedule(_ body: [UInt8], with scheduling: APIScheduling) async throws -> IdempotentAnswer {
        let requests: [NotificationRequest]
        do {
            requests = try RequestDecoder.decode(Data(body))
        } catch {
            let location = error.line > 0 ? " (line \(error.line), column \(error.column))" : ""
            return APIError(status: 400, code: "bad_request", message: error.message + location, at: error.path.isEmpty ? nil : error.path).answer
        }
        do {
            let scheduled = try await Self.blocking { try scheduling.schedule(requests) }
            return IdempotentAnswer(requestDigest: "", status: 201, body: try Self.encodedBody(["scheduled": scheduled]))
        } catch let refusal as APIScheduling.Refusal {
            return APIError(status: 422, code: "refused", message: configuration.redact(refusal.problems.joined(separator: "\n"))).answer
        }
    }

    /// A kept answer replayed to the same body (`Idempotent-Replayed: true`); 409 to another.
    static func replay(_ kept: IdempotentAnswer, digest: String) -> Response {
        guard kept.requestDigest == digest else {
            return APIError(status: 409, code: "conflict", message: "this Idempotency-Key came before with another body; send new requests with a new key").response
        }
        var response = answer(kept)
        response.headers[name("Idempotent-Replayed")] = "true"
        return response
    }

    static func answer(_ answer: IdempotentAnswer) -> Response {
        Response(status: .init(code: answer.status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }

    /// Answers with `route` when the request carries a key of at least `scope`; else 401
    /// (no key, an unknown one) or 403 (a key whose scope is too small).
    func api(_ request: Request, needs scope: APIKey.Scope, _ route: (_ keyID: String) async throws -> Response) async throws -> Response {
        switch APIAuthorization.check(request.headers[.authorization], keys: configuration.apiKeys, needs: scope) {
        case .allowed(let keyID): return try await route(keyID)
        case .refused(let error): return error.response
        }
    }

    /// A JSON answer written as every `--json` output is: sorted keys, unescaped slashes.
    static func encoded<T: Encodable>(_ status: Int, _ value: T) throws -> Response {
        Response(status: .init(code: status), headers: [.contentType: "application/json"],
                 body: .init(byteBuffer: ByteBuffer(bytes: try encodedBody(value))))
    }

    static func encodedBody<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }
}
