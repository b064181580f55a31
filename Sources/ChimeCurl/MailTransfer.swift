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

/// The bytes of an upload and how far libcurl has read them.
final class MailUpload {
    let bytes: [UInt8]
    var offset = 0
    init(bytes: [UInt8]) { self.bytes = bytes }
}

extension CurlEasy {
    /// Sets what every message to `server` shares: the URL, TLS, credentials, uploads read
    /// from a ``MailUpload`` (`CURLOPT_READDATA`), each RCPT's reply recorded.
    func setUpMail(_ server: MailServer) throws {
        try check(chime_curl_setopt_string(handle, CURLOPT_URL, server.url))
        try apply(server)
        // Deliver to the recipients the server takes even when it refuses some.
        try check(chime_curl_setopt_long(handle, CURLOPT_MAIL_RCPT_ALLLOWFAILS, 1))
        try check(chime_curl_setopt_long(handle, CURLOPT_UPLOAD, 1))
        try check(chime_curl_setopt_read_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, context in
            guard let buffer, let context else { return 0 }
            let upload = Unmanaged<MailUpload>.fromOpaque(context).takeUnretainedValue()
            let length = min(size * count, upload.bytes.count - upload.offset)
            upload.bytes.withUnsafeBytes { source in
                UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + upload.offset, byteCount: length)
            }
            upload.offset += length
            return length
        })
        // A probe's reply goes to the write callback: nothing to keep.
        try check(chime_curl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { _, size, count, _ in size * count })
        // The protocol lines, to learn each RCPT's reply.
        try recordDialogues()
    }

    /// Sets one message's envelope and size; returns the recipient list, which must live
    /// until the transfer ends (then `curl_slist_free_all`).
    func setEnvelope(from: String, to recipients: [String], size: Int) throws -> UnsafeMutablePointer<curl_slist>? {
        try check(chime_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(from)>"))
        var list: UnsafeMutablePointer<curl_slist>?
        for recipient in recipients { list = chime_curl_slist_append(list, "<\(recipient)>") }
        do {
            try check(chime_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, list))
            try check(chime_curl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(size)))
        } catch {
            chime_curl_slist_free_all(list)
            throw error
        }
        return list
    }

    /// The last reply code of the transfer that ended on this handle.
    var responseCode: Int {
        var code = 0
        _ = chime_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }
}

extension SMTPClient {
    /// What a transfer to `recipients` came to, from its dialogue, its error and its last
    /// reply code: sent when anyone took it, else why not (temporary or not).
    static func outcome(recipients: [String], dialogue: Dialogue, error: CurlError?, responseCode: Int) -> Result<Sent, Failure> {
        // A message to one recipient that went through had no refusal: its last line is
        // all there is to read.
        if error == nil, recipients.count == 1 {
            return .success(Sent(accepted: recipients, refused: [], reply: dialogue.lastReply))
        }
        let (refused, lastReply) = (dialogue.refusals(), dialogue.lastReply)
        guard let error else {
            let accepted = recipients.filter { recipient in !refused.contains { $0.recipient == recipient } }
            return .success(Sent(accepted: accepted, refused: refused, reply: lastReply))
        }
        return .failure(failure(error, responseCode: responseCode, lastReply: lastReply, refused: refused))
    }

    /// A failed transfer, classified: 4xx replies and lost connections are temporary;
    /// 5xx replies and TLS or login refusals are not.
    static func failure(_ error: CurlError, responseCode: Int, lastReply: String, refused: [Refusal]) -> Failure {
        // A 354 (go ahead) or 250 as the last reply: the final answer never came.
        let code = responseCode < 400 ? 0 : responseCode
        let temporary = code >= 500 ? false : code >= 400 ? true : !error.isPermanent
        let reply = lastReply.isEmpty ? "" : " (server: \(lastReply))"
        return Failure(temporary: temporary, code: code, message: error.message + reply, refused: refused, unreachable: error.isUnreachable)
    }
}
