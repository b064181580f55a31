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

    /// The OpenAPI 3.1 document of `/v1`, as served at `/v1/openapi.json`: written by
    /// hand, the one source the server is tested against (Schemathesis).
    public static var openAPIDocument: [UInt8] { PackageResources.openapi_json }

    func addAPI(to router: Router<BasicRequestContext>) {
        router.get("/v1/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: Self.openAPIDocument)))
        }
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
        router.get("/v1/pending") { request, _ in
            try await api(request, needs: .read) { _ in
                try await list(request, read: { store, recipient, configuration, after, count in
                    try store.pending(recipient: recipient, limits: configuration.pendingLimits, after: after, count: count)
                }, key: \.listingKey, json: PendingJSON.init)
            }
        }
        router.get("/v1/delivered") { request, _ in
            try await api(request, needs: .read) { _ in
                try await list(request, read: { store, recipient, _, after, count in try store.delivered(recipient: recipient, after: after, count: count) },
                               key: { ListingKey(seconds: $0.deliveredAt.seconds, identifier: $0.request.identifier) }, json: DeliveredJSON.init)
            }
        }
        router.get("/v1/responses") { request, _ in
            try await api(request, needs: .read) { _ in
                try await responses(request)
            }
        }
        router.delete("/v1/delivered/:identifier") { request, context in
            try await api(request, needs: .write) { _ in
                let identifier = Self.segment(context, "identifier")
                let removed = try await Self.blocking { [store = desk.store] in try store.removeDelivered([identifier]) }
                guard !removed.isEmpty else { return APIError.notFound("no delivered notification \"\(identifier)\"").response }
                return Response(status: .noContent)
            }
        }
        router.get("/v1/deliveries") { request, _ in
            try await api(request, needs: .read) { _ in
                let text = request.uri.queryParameters["state"].map(String.init)
                let state = text.flatMap(DeliveryState.init(rawValue:))
                guard text == nil || state != nil else {
                    return APIError(status: 400, code: "bad_request", message: "state is queued, delivered or failed", at: "state").response
                }
                return try await list(request, read: { store, _, _, after, count in try store.deliveries(state: state, after: after?.seconds, count: count) },
                                      key: { ListingKey(seconds: $0.id, identifier: "") }, json: DeliveryJSON.init)
            }
        }
        router.post("/v1/deliveries/:id/retry") { request, context in
            try await api(request, needs: .admin) { _ in
                try await retry(context.parameters.get("id") ?? "")
            }
        }
        router.get("/v1/recipients/:id/settings") { request, context in
            try await api(request, needs: .admin) { _ in
                try await recipientSettings(Self.segment(context, "id"), reset: nil)
            }
        }
        router.put("/v1/recipients/:id/settings") { request, context in
            try await api(request, needs: .admin) { _ in
                guard let body = try? await request.body.collect(upTo: Self.largestAPIBody) else {
                    return APIError(status: 413, code: "too_large", message: "the body is larger than \(Self.largestAPIBody) bytes").response
                }
                return try await recipientSettings(Self.segment(context, "id"), reset: Array(body.readableBytesView))
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
        // Characters as the OpenAPI document's maxLength counts them (JSON Schema's code
        // points), not bytes: a key beyond ASCII of 200 characters is within the limit.
        guard (1...255).contains(key.unicodeScalars.count) else {
            return APIError(status: 400, code: "bad_request", message: "an Idempotency-Key has 1 to 255 characters").response
        }
        let digest = Hex.string(SHA256.hash(data: body))
        let store = desk.store
        // The key is taken before the body is scheduled: of calls with it arriving
        // together (a client's retry after a timeout), one schedules, and the others wait
        // for its answer and replay it.
        // A waiting call reads what is kept every 20 ms and takes the key again (a write)
        // only when the hold is gone, or once a second (a hold abandoned is taken over):
        // taking it every 20 ms was 50 write transactions a second for each call waiting.
        let deadline = ContinuousClock.now + Self.idempotencyWait
        func take() async throws -> IdempotentAnswer? {
            let now = clock()
            return try await Self.blocking { try store.takeIdempotencyKey(owner: keyID, key: key, digest: digest, at: now,
                                                                         abandonedAfter: Self.abandonedIdempotencyKey) }
        }
        var lastTaken = ContinuousClock.now
        var held = try await take()
        while let seen = held {
            if !seen.isPending || seen.requestDigest != digest { return Self.replay(seen, digest: digest) }
            guard ContinuousClock.now < deadline else {
                return APIError(status: 409, code: "conflict", message: "a call with this Idempotency-Key is still being answered; send it again later").response
            }
            try await Task.sleep(for: .milliseconds(20))
            let kept = try await Self.blocking { try store.idempotentAnswer(owner: keyID, key: key) }
            if kept == nil || ContinuousClock.now - lastTaken >= .seconds(1) {
                lastTaken = .now
                held = try await take()
            } else {
                held = kept
            }
        }
        var answer: IdempotentAnswer
        do {
            answer = try await schedule(body, with: scheduling)
        } catch {
            _ = try? await Self.blocking { try store.releaseIdempotencyKey(owner: keyID, key: key, digest: nil) }
            throw error
        }
        answer.requestDigest = digest
        let now = clock()
        let kept = try await Self.blocking { [answer] in try store.keepIdempotentAnswer(answer, owner: keyID, key: key, at: now) }
        // Another call with the key answered first (this one's hold was taken over as
        // abandoned): its answer is the one.
        return kept == answer ? Self.answer(answer) : Self.replay(kept, digest: digest)
    }

    /// How long a call waits for another with its `Idempotency-Key` to be answered, and
    /// after how many seconds a key taken and never answered (its process died) is free.
    static let idempotencyWait = Duration.seconds(30), abandonedIdempotencyKey: Int64 = 60

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
            return APIError(status: 422, code: "refused", message: configuration.redact(refusal.problems.joined(separator: "\n")), at: refusal.field).answer
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

    /// A listing, `?recipient=&limit=&cursor=` → `{"items": […], "next": CURSOR or null}`:
    /// `read` gives at most the count it is given of the items after the key (all, from
    /// the first, for none), all or one recipient's.
    func list<Item: Sendable, JSON: Encodable>(
        _ request: Request,
        read: @escaping @Sendable (any NotificationStore, String?, Configuration, ListingKey?, Int) throws -> [Item],
        key: (Item) -> ListingKey, json: (Item) -> JSON
    ) async throws -> Response {
        let query = request.uri.queryParameters
        do {
            let limit = try APIPage.limit(query["limit"].map(String.init))
            let after = try APIPage.after(query["cursor"].map(String.init))
            let recipient = query["recipient"].map(String.init)
            let (store, configuration) = (desk.store, configuration)
            let items = try await Self.blocking { try read(store, recipient, configuration, after, limit + 1) }
            let page = APIPage.page(items, key: key, limit: limit)
            return try Self.encoded(200, Listing(items: page.items.map(json), next: page.next))
        } catch let error as APIError {
            return error.response
        }
    }

    /// `{"items": […], "next": CURSOR or null}`, `next` written even when null.
    struct Listing<JSON: Encodable>: Encodable {
        var items: [JSON]
        @WrittenNull var next: String?
    }

    /// `GET /v1/responses?after=ID&limit=`: responses recorded after `after` (0 by
    /// default), oldest first, as `chime responses --json` prints them, for apps that poll.
    func responses(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        do {
            let limit = try APIPage.limit(query["limit"].map(String.init))
            var after: Int64 = 0
            if let text = query["after"] {
                guard let id = Int64(String(text)), id >= 0 else {
                    throw APIError(status: 400, code: "bad_request", message: "after is the id of a response, a number from 0", at: "after")
                }
                after = id
            }
            let store = desk.store
            let from = after
            return try Self.encoded(200, try await Self.blocking { try store.responses(after: from, count: limit) })
        } catch let error as APIError {
            return error.response
        }
    }

    /// `POST /v1/deliveries/{id}/retry`, as `chime retry ID`: a failed delivery queued
    /// again with a fresh budget of attempts; 404 for no such delivery, 409 for one not failed.
    func retry(_ text: String) async throws -> Response {
        let (store, now) = (desk.store, clock())
        guard let id = Int64(text) else { return APIError.notFound("no delivery \"\(text)\"").response }
        let (queued, _) = try await Self.blocking { try store.retry([id], now: now) }
        guard queued.isEmpty else { return try Self.encoded(200, ["queued": queued]) }
        // Ids count from 1 (and `id - 1` of the least Int64 would trap).
        let exists = id > 0 ? try await Self.blocking { try store.deliveries(state: nil, after: id - 1, count: 1).first?.id == id } : false
        return exists ? APIError(status: 409, code: "not_failed", message: "delivery \(id) has not failed; only a failed delivery is retried").response
            : APIError.notFound("no delivery \(id)").response
    }

    /// Answers with `route` when the request carries a key of at least `scope`; else 401
    /// (no key, an unknown one) or 403 (a key whose scope is too small).
    func api(_ request: Request, needs scope: APIKey.Scope, _ route: (_ keyID: String) async throws -> Response) async throws -> Response {
        switch APIAuthorization.check(request.headers[.authorization], keys: configuration.apiKeys, needs: scope) {
        case .allowed(let keyID):
            if let rate = configuration.apiKeys.first(where: { $0.id == keyID })?.rate,
               let seconds = rateLimiter.wait(key: keyID, rate: rate) {
                var response = APIError(status: 429, code: "rate_limited", message: "API key \"\(keyID)\" may make \(rate) requests a second").response
                response.headers[.retryAfter] = String(seconds)
                return response
            }
            return try await route(keyID)
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
