import ChimeCore
import Foundation
import Hummingbird

/// An error of the HTTP API as it is answered:
/// `{"error": {"code": "…", "message": "…", "at": "content.title"}}`, `at` only when a
/// field is at fault.
struct APIError: Error, Equatable {
    var status: Int
    var code: String
    var message: String
    var at: String?

    static func unauthorized(_ message: String) -> APIError { .init(status: 401, code: "unauthorized", message: message) }
    static func forbidden(_ message: String) -> APIError { .init(status: 403, code: "forbidden", message: message) }
    static func notFound(_ message: String) -> APIError { .init(status: 404, code: "not_found", message: message) }

    var response: Response {
        var response = ChimeHTTPServer.answer(answer)
        if status == 401 { response.headers[.wwwAuthenticate] = "Bearer" }
        return response
    }

    /// The status and the JSON body, as kept for an `Idempotency-Key`.
    var answer: IdempotentAnswer {
        var error: [String: Any] = ["code": code, "message": message]
        if let at { error["at"] = at }
        let body = (try? JSONSerialization.data(withJSONObject: ["error": error], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return IdempotentAnswer(requestDigest: "", status: status, body: Array(body))
    }
}
