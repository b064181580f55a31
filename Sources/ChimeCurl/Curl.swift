internal import CChimeCurl

/// Process-wide libcurl facts and set-up.
public enum Curl {
    /// Loads libcurl on first use, once per process (see `CChimeCurl.h`: a command that
    /// sends nothing never loads it, which spares every such start the ~30 libraries it
    /// brings); `curl_global_init` runs there, before any handle exists.
    /// - Throws: ``CurlError`` naming why libcurl could not be loaded.
    static func initialize() throws {
        if let failure = chime_curl_start() {
            throw CurlError(code: Int(CURLE_FAILED_INIT.rawValue), message: String(cString: failure))
        }
    }

    /// libcurl's version and the libraries it speaks TLS, compression and HTTP/2 with,
    /// e.g. `libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13 nghttp2/1.52.0`. Read from
    /// `curl_version_info`: `curl_version()` also asks OpenLDAP for its version, which
    /// starts that library (reading its configuration) in every `chime` command, whose
    /// `--version` text is made at start: 4% of a one-message `chime ingest`.
    /// Loads libcurl to read it; when it cannot be loaded, says why instead.
    public static var version: String {
        if let failure = chime_curl_load() { return "libcurl not loaded (\(String(cString: failure)))" }
        guard let info = chime_curl_version_info(CURLVERSION_SIXTH)?.pointee else { return "libcurl" }
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
