internal import CChimeCurl

/// Where a mail server is and how to talk to it safely: what SMTP and IMAP share.
///
/// `smtp://` and `imap://` speak STARTTLS when the server offers it (`startTLS:
/// .required` refuses a server that does not); `smtps://` and `imaps://` are TLS from
/// the first byte. Certificates are verified against the system's CA bundle, or
/// `caFile`; only `verifyTLS: false` turns that off.
public struct MailServer: Sendable {
    public enum StartTLS: Sendable {
        /// Upgrade when the server offers STARTTLS, carry on in the clear otherwise.
        case whenOffered
        /// Upgrade or fail.
        case required
    }

    /// `scheme://host[:port]`, without credentials or path.
    public var url: String
    public var username: String?
    public var password: String?
    public var startTLS: StartTLS
    /// A CA bundle to verify the server with, instead of the system's.
    public var caFile: String?
    public var verifyTLS: Bool
    public var timeouts: CurlEasy.Timeouts
    /// SMTP: pipeline commands when the server offers PIPELINING (``SMTPClient``); false
    /// sends one at a time whatever it offers.
    public var pipelining: Bool

    public init(url: String, username: String? = nil, password: String? = nil, startTLS: StartTLS = .whenOffered,
                caFile: String? = nil, verifyTLS: Bool = true, timeouts: CurlEasy.Timeouts = .init(), pipelining: Bool = true) {
        self.url = url
        self.username = username
        self.password = password
        self.startTLS = startTLS
        self.caFile = caFile
        self.verifyTLS = verifyTLS
        self.timeouts = timeouts
        self.pipelining = pipelining
    }
}

extension CurlEasy {
    /// Sets the options every transfer to `server` shares: TLS, credentials, the CA.
    func apply(_ server: MailServer) throws {
        try check(chime_curl_setopt_long(handle, CURLOPT_USE_SSL, Int(server.startTLS == .required ? CURLUSESSL_ALL.rawValue : CURLUSESSL_TRY.rawValue)))
        if let username = server.username { try check(chime_curl_setopt_string(handle, CURLOPT_USERNAME, username)) }
        if let password = server.password { try check(chime_curl_setopt_string(handle, CURLOPT_PASSWORD, password)) }
        if let caFile = server.caFile { try check(chime_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        if !server.verifyTLS {
            try check(chime_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 0))
            try check(chime_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 0))
        }
    }
}
