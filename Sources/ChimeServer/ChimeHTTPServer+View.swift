import ChimeCore
import ChimeLocalization
import ChimeRendering
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v/TOKEN`: the reminder whole (title, subtitle, body, attached files' names) in
/// its recipient's language, and its actions as buttons, each a form POSTing to the
/// action's `/a/` link (a foreground action's target, a link). Never indexed nor kept:
/// `noindex` in the page and in `X-Robots-Tag`, `Cache-Control: no-store`.
extension ChimeHTTPServer {
    func view(token: String) throws -> Response {
        let page: String, verdict: ClickDesk.Verdict
        switch try desk.view(token: token, now: clock()) {
        case .refused(let refusal):
            let to = refusal.addressee
            (page, verdict) = (Self.document(locale: to.locale, title: to.reminder ?? "Chime", "<p>\(htmlEscaped(refusal.message))</p>\n"),
                              refusal.verdict)
        case .shown(let reminder):
            (page, verdict) = (Self.document(locale: reminder.addressee.locale, title: reminder.title.isEmpty ? reminder.body : reminder.title,
                                            Self.viewContent(reminder)), .answered)
        }
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", Self.name("X-Robots-Tag"): "noindex",
        ]
        return Response(status: .init(code: verdict.httpStatus), headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The page's body: the content, the files, a form per action.
    static func viewContent(_ reminder: ClickDesk.ReminderView) -> String {
        var html = ""
        if !reminder.title.isEmpty { html += "<h1>\(htmlEscaped(reminder.title))</h1>\n" }
        if !reminder.subtitle.isEmpty { html += "<h2>\(htmlEscaped(reminder.subtitle))</h2>\n" }
        for paragraph in reminder.body.components(separatedBy: "\n\n") where !paragraph.isEmpty {
            html += "<p>\(htmlEscaped(paragraph).replacingOccurrences(of: "\n", with: "<br>"))</p>\n"
        }
        if !reminder.attachments.isEmpty {
            html += "<p>\(htmlEscaped(reminder.attachmentsLabel))</p>\n<ul>\n"
                + reminder.attachments.map { "<li>\(htmlEscaped($0))</li>\n" }.joined() + "</ul>\n"
        }
        for action in reminder.actions {
            let warning = action.warning.map { " <small>(\(htmlEscaped($0)))</small>" } ?? ""
            if action.opensTarget {
                html += "<p><a href=\"\(htmlEscaped(action.url))\">\(htmlEscaped(action.title))</a>\(warning)</p>\n"
                continue
            }
            // A text-input action: its title over its field, its button the action's
            // `textInputButtonTitle`, as on its own page.
            let field = action.prompt.map { "<p>\(htmlEscaped(action.title))</p>" + textField($0) } ?? ""
            html += "<form method=\"post\" action=\"\(htmlEscaped(action.url))\">\(field)"
                + "<button type=\"submit\">\(htmlEscaped(action.prompt?.button ?? action.title))</button>\(warning)</form>\n"
        }
        return html
    }
}
