import Foundation
import ChimeCore

/// Whether an `Authorization` header opens a `/v1` route: the bearer secret compared
/// with every key's in constant time (no early exit on the first that matches, so the
/// time taken does not tell which key, or whether any, was close).
enum APIAuthorization: Equatable {
    case allowed(keyID: String)
    case refused(APIError)

    static func check(_ header: String?, keys: [APIKey], needs scope: APIKey.Scope) -> APIAuthorization {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            return .refused(.unauthorized("send Authorization: Bearer SECRET, the secret of an <api><key> of the configuration"))
        }
        let given = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        var found: APIKey?
        for key in keys where ChatSignature.sameSecret(key.secret, given) {
            found = found ?? key
        }
        guard let key = found else {
            return .refused(.unauthorized("the bearer secret is not that of any <api><key> of the configuration"))
        }
        guard key.scope >= scope else {
            return .refused(.forbidden("API key \"\(key.id)\" has scope \(key.scope.name); this route needs \(scope.name)"))
        }
        return .allowed(keyID: key.id)
    }
}
