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
