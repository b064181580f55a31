/// An email to compose: addresses, headers and bodies as plain Swift values. Encoding
/// (RFC 2047 words, quoted-printable or base64, line lengths, MIME structure) is
/// ``MIMEComposer``'s job, done by GMime.
public struct MailMessage: Sendable {
    /// A file sent along (`multipart/mixed`).
    public struct Attachment: Sendable {
        public var filename: String
        /// `type/subtype`, e.g. `image/jpeg`.
        public var contentType: String
        public var data: [UInt8]

        public init(filename: String, contentType: String, data: [UInt8]) {
            self.filename = filename
            self.contentType = contentType
            self.data = data
        }
    }

    /// `Display Name <address>` or a bare address.
    public var from: String
    public var to: [String]
    public var replyTo: String?
    public var subject: String
    /// Without angle brackets: `delivery-id@domain`.
    public var messageID: String
    /// RFC 5322 date text, e.g. `Tue, 24 Nov 2026 09:00:00 +0100`.
    public var date: String
    /// The Message-IDs (without brackets) this message answers and follows, for threading.
    public var inReplyTo: String?
    public var references: [String]
    /// Other headers in order, values as UTF-8 text (encoded when needed).
    public var headers: [(name: String, value: String)]
    public var text: String
    /// With an HTML body the message is `multipart/alternative`, text first.
    public var html: String?
    public var attachments: [Attachment]

    public init(from: String, to: [String], replyTo: String? = nil, subject: String, messageID: String, date: String,
                inReplyTo: String? = nil, references: [String] = [], headers: [(name: String, value: String)] = [],
                text: String, html: String? = nil, attachments: [Attachment] = []) {
        self.from = from
        self.to = to
        self.replyTo = replyTo
        self.subject = subject
        self.messageID = messageID
        self.date = date
        self.inReplyTo = inReplyTo
        self.references = references
        self.headers = headers
        self.text = text
        self.html = html
        self.attachments = attachments
    }
}
