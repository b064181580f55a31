internal import CChimeCurl

/// Process-wide libcurl facts and set-up.
public enum Curl {
    /// `curl_global_init` is not thread-safe and must run once before any handle exists;
    /// a static let runs it exactly once.
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return true
    }()

    static func initialize() {
        _ = initialized
    }

    /// The libcurl version string, e.g. `libcurl/7.88.1 OpenSSL/3.0.15 …`.
    public static var version: String {
        String(cString: curl_version())
    }
}
