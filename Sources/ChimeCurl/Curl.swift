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

    /// libcurl's version and the libraries it speaks TLS, compression and HTTP/2 with,
    /// e.g. `libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13 nghttp2/1.52.0`. Read from
    /// `curl_version_info`: `curl_version()` also asks OpenLDAP for its version, which
    /// starts that library (reading its configuration) in every `chime` command, whose
    /// `--version` text is made at start: 4% of a one-message `chime ingest`.
    public static var version: String {
        guard let info = curl_version_info(CURLVERSION_SIXTH)?.pointee else { return "libcurl" }
        var parts = ["libcurl/" + String(cString: info.version)]
        if let ssl = info.ssl_version { parts.append(String(cString: ssl)) }
        if let zlib = info.libz_version { parts.append("zlib/" + String(cString: zlib)) }
        // The fields a libcurl older than the header's knows nothing of are not read.
        if info.age.rawValue >= CURLVERSION_SIXTH.rawValue {
            if let ssh = info.libssh_version { parts.append(String(cString: ssh)) }
            if let http2 = info.nghttp2_version { parts.append("nghttp2/" + String(cString: http2)) }
        }
        return parts.joined(separator: " ")
    }
}
