internal import CChimeCurl

/// A failed libcurl call: the `CURLcode` and libcurl's own words (`CURLOPT_ERRORBUFFER`
/// when it has something to say, else `curl_easy_strerror`).
public struct CurlError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `CURLcode`, as a plain integer so no C type leaks into the API.
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (curl code \(code))" }
}

extension CurlError {
    /// A failure that trying again will not mend: the certificate refused, TLS required
    /// and not offered, credentials refused, a malformed URL. Lost, refused or timed-out
    /// connections are worth another try.
    public var isPermanent: Bool { Self.permanentCodes.contains(code) }

    private static let permanentCodes: Set<Int> = [
        CURLE_USE_SSL_FAILED, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
        CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL, CURLE_LOGIN_DENIED,
    ].reduce(into: []) { $0.insert(Int($1.rawValue)) }

    /// No connection could be made: the host did not resolve or refused.
    public var isUnreachable: Bool {
        code == Int(CURLE_COULDNT_CONNECT.rawValue) || code == Int(CURLE_COULDNT_RESOLVE_HOST.rawValue)
    }
}
