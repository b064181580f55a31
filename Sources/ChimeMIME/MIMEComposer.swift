internal import CChimeGMime

/// Builds RFC 5322 / MIME messages with GMime: `multipart/alternative` (text, then HTML),
/// `multipart/mixed` around it for attachments, RFC 2047 encoded words in headers, and
/// each body in the encoding GMime finds best under a 7-bit constraint
/// (quoted-printable or base64), so every line stays within 78 characters.
public enum MIMEComposer {
    /// `g_mime_init` once per process.
    private static let initialized: Bool = {
        g_mime_init()
        return true
    }()

    /// The message's bytes, with LF line ends (Maildir's convention; SMTP sends CRLF).
    public static func compose(_ message: MailMessage) -> String {
        _ = initialized
        let mime = g_mime_message_new(1)!
        defer { chime_gmime_unref(mime) }
        let object = chime_gmime_object(mime)

        add(message.from, to: g_mime_message_get_from(mime))
        for recipient in message.to { add(recipient, to: g_mime_message_get_to(mime)) }
        if let replyTo = message.replyTo { add(replyTo, to: g_mime_message_get_reply_to(mime)) }
        g_mime_message_set_subject(mime, message.subject, "utf-8")
        g_mime_object_set_header(object, "Date", message.date, nil)
        g_mime_message_set_message_id(mime, message.messageID)
        if let inReplyTo = message.inReplyTo {
            g_mime_object_set_header(object, "In-Reply-To", "<\(inReplyTo)>", nil)
        }
        if !message.references.isEmpty {
            g_mime_object_set_header(object, "References", message.references.map { "<\($0)>" }.joined(separator: " "), nil)
        }
        for header in message.headers {
            g_mime_object_set_header(object, header.name, header.value, "utf-8")
        }

        var body = textPart("plain", message.text)
        if let html = message.html {
            let alternative = g_mime_multipart_new_with_subtype("alternative")!
            g_mime_multipart_add(chime_gmime_multipart(alternative), body)
            chime_gmime_unref(body)
            let htmlPart = textPart("html", html)
            g_mime_multipart_add(chime_gmime_multipart(alternative), htmlPart)
            chime_gmime_unref(htmlPart)
            body = chime_gmime_object(alternative)
        }
        if !message.attachments.isEmpty {
            let mixed = g_mime_multipart_new_with_subtype("mixed")!
            g_mime_multipart_add(chime_gmime_multipart(mixed), body)
            chime_gmime_unref(body)
            for attachment in message.attachments {
                let part = attachmentPart(attachment)
                g_mime_multipart_add(chime_gmime_multipart(mixed), part)
                chime_gmime_unref(part)
            }
            body = chime_gmime_object(mixed)
        }
        g_mime_message_set_mime_part(mime, body)
        chime_gmime_unref(body)

        guard let text = g_mime_object_to_string(object, nil) else { return "" }
        defer { chime_gmime_free(text) }
        return String(cString: text)
    }

    /// Parses `Name <address>` (or several, comma-separated) into an address list.
    private static func add(_ mailbox: String, to list: UnsafeMutablePointer<InternetAddressList>!) {
        guard let parsed = internet_address_list_parse(nil, mailbox) else { return }
        internet_address_list_append(list, parsed)
        chime_gmime_unref(parsed)
    }

    /// A `text/SUBTYPE` part: GMime picks the smallest charset that holds the text (and
    /// labels it), then the best 7-bit-safe transfer encoding.
    private static func textPart(_ subtype: String, _ text: String) -> UnsafeMutablePointer<GMimeObject> {
        let part = g_mime_text_part_new_with_subtype(subtype)!
        g_mime_text_part_set_text(part, text)
        let mimePart = chime_gmime_part(part)
        g_mime_part_set_content_encoding(mimePart, g_mime_part_get_best_content_encoding(mimePart, GMIME_ENCODING_CONSTRAINT_7BIT))
        return chime_gmime_object(part)
    }

    private static func attachmentPart(_ attachment: MailMessage.Attachment) -> UnsafeMutablePointer<GMimeObject> {
        let type = attachment.contentType.split(separator: "/", maxSplits: 1).map(String.init)
        let part = g_mime_part_new_with_type(type.first ?? "application", type.count > 1 ? type[1] : "octet-stream")!
        g_mime_part_set_filename(part, attachment.filename)
        let stream = attachment.data.withUnsafeBufferPointer { buffer in
            g_mime_stream_mem_new_with_buffer(buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, buffer.count)
        }!
        let wrapper = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT)!
        g_mime_part_set_content(part, wrapper)
        chime_gmime_unref(wrapper)
        chime_gmime_unref(stream)
        g_mime_part_set_content_encoding(part, GMIME_CONTENT_ENCODING_BASE64)
        return chime_gmime_object(part)
    }
}
