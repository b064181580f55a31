internal import CChimeCurl

/// One email for the multi interface (``HTTPPool/start(_:tag:)-(MailRequest,_)``): the
/// server, the envelope and the bytes.
public struct MailRequest: Sendable {
    public var server: MailServer
    public var from: String
    public var recipients: [String]
    /// The message with CRLF line ends (``SMTPClient/crlf(_:)``).
    public var message: [UInt8]

    public init(server: MailServer, from: String, recipients: [String], message: [UInt8]) {
        self.server = server
        self.from = from
        self.recipients = recipients
        self.message = message
    }
}

extension CurlEasy {
    /// The last reply code of the transfer that ended on this handle.
    var responseCode: Int {
        var code = 0
        _ = chime_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }
}
