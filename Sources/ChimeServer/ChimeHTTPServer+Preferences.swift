import ChimeCore
import ChimeLocalization
import ChimeRendering
import Foundation
import HTTPTypes
import Hummingbird

/// `/p/TOKEN`: the preferences page, plain HTML forms without JavaScript, in the
/// recipient's language. GET shows the form; POST saves it and sends the browser back to
/// the page (`?saved=1`). The form carries a random value also set as a SameSite=Strict,
/// HttpOnly cookie (double-submit): a POST from another site has neither, and a POST
/// whose two do not match changes nothing (403).
extension ChimeHTTPServer {
    static let csrfCookie = "chime_csrf"

    func preferencesPage(_ request: Request, token: String) async throws -> Response {
        let (desk, now) = (desk, clock())
        let (verdict, found) = try await Self.blocking { try desk.preferences(token: token, now: now) }
        guard let preferences = found else { return Self.page(verdict.httpStatus, "Chime", Self.refusal(verdict)) }
        let saved = request.uri.queryParameters["saved"] == "1"
        return preferencesForm(preferences, status: ClickDesk.Verdict.answered.httpStatus, notice: saved ? "prefs.saved" : nil, problems: [])
    }

    func savePreferences(_ request: Request, token: String) async throws -> Response {
        // What needs no body is checked before it is read (the cookie, the token): a body
        // sent a byte at a time holds the connection open past the idle timeout.
        let expired = Self.page(403, "Chime", "<p>\(htmlEscaped(localized("prefs.expired", fallback: "This form has expired: open the page again from your reminder.")))</p>")
        let cookie = Self.cookies(request.headers[.cookie] ?? "")[Self.csrfCookie] ?? ""
        guard !cookie.isEmpty, request.headers[Self.name("Sec-Fetch-Site")] != "cross-site" else { return expired }
        let (desk, now) = (desk, clock())
        let verdict = try await Self.blocking { try desk.preferencesLink(token, now: now).verdict }
        guard verdict == .answered else { return Self.page(verdict.httpStatus, "Chime", Self.refusal(verdict)) }
        // A body over the bound is answered with a page, as every refusal here is (an
        // empty 413 had been all a browser showed).
        guard let body = try? await Self.body(request) else {
            return Self.page(413, "Chime", "<p>\(htmlEscaped(localized("prefs.tooLarge", fallback: "This form is too large to save: open the page again from your reminder.")))</p>")
        }
        let fields = Self.form(String(decoding: body, as: UTF8.self))
        guard ChatSignature.sameSecret(cookie, fields["csrf"] ?? "") else { return expired }
        var form = ClickDesk.PreferencesForm(quietHours: fields["quietHours"], showPreviews: fields["showPreviews"], locale: fields["locale"])
        for (name, value) in fields where name.hasPrefix("deliver.") { form.deliver[String(name.dropFirst(8))] = value }
        // The time read again: the body may have taken a while to come.
        let then = clock()
        let (saved, problems, preferences) = try await Self.blocking { [form] in try desk.savePreferences(token: token, form: form, now: then) }
        guard let preferences else { return Self.page(saved.httpStatus, "Chime", Self.refusal(saved)) }
        guard problems.isEmpty else { return preferencesForm(preferences, status: saved.httpStatus, notice: nil, problems: problems) }
        // Back to the page it was posted from, wherever a proxy serves it (a linkBase
        // with a path): a reference relative to the page's folder (the token holds no
        // colon). A reference of the query alone is RFC 3986's too, but Foundation's
        // URLSession took it to another path.
        return Response(status: .seeOther, headers: [.location: "\(token)?saved=1"])
    }

    /// The form, every field showing the recipient's current setting.
    private func preferencesForm(_ preferences: ClickDesk.Preferences, status: Int, notice: String?,
                                 problems: [ClickDesk.FormProblem]) -> Response {
        // Written in the language the recipient reads (``ClickDesk/Preferences/shownLocale``):
        // a `pt-BR` reader of templates without Portuguese reads English, marked `lang="en"`.
        let recipient = preferences.recipient, locale = preferences.shownLocale
        func text(_ key: String, _ fallback: String) -> String { htmlEscaped(localized(key, locale: locale, fallback: fallback)) }
        let nonce = Self.nonce()
        var body = "<h1>\(text("ui.preferences", "Notification preferences"))</h1>\n"
        if let notice { body += "<p role=\"status\" id=\"notice\">\(text(notice, "Saved: your next reminders follow these settings."))</p>\n" }
        for problem in problems {
            body += "<p role=\"alert\" class=\"problem\">\(text(problem.key, "This value is not valid.")) (\(htmlEscaped(problem.field)))</p>\n"
        }
        // Posted to the page's own address (no action), as the /a/ and /u/ pages are: a
        // path from the server's root would leave a proxy's prefix behind.
        body += "<form method=\"post\">\n<input type=\"hidden\" name=\"csrf\" value=\"\(nonce)\">\n"
        let choices: [(DeliveryPreference, String, String)] = [
            (.prominently, "prefs.prominently", "Deliver prominently"), (.quietly, "prefs.quietly", "Deliver quietly"), (.off, "prefs.off", "Turn off"),
        ]
        body += "<table>\n<tr><th>\(text("prefs.category", "Reminders"))</th>"
        body += choices.map { "<th>\(text($0.1, $0.2))</th>" }.joined() + "</tr>\n"
        for (identifier, deliver) in preferences.categories {
            let id = htmlEscaped(identifier)
            let name = desk.actions.categoryName(identifier, locale: locale)
            body += "<tr><td>\(htmlEscaped(name))</td>"
            for (choice, key, fallback) in choices {
                body += "<td><input type=\"radio\" name=\"deliver.\(id)\" id=\"deliver-\(id)-\(choice.rawValue)\" value=\"\(choice.rawValue)\""
                    + (deliver == choice ? " checked" : "") + " aria-label=\"\(htmlEscaped(name)): \(text(key, fallback))\"></td>"
            }
            body += "</tr>\n"
        }
        body += "</table>\n"
        let quiet = recipient.quietHours?.text ?? ""
        body += "<p><label for=\"quietHours\">\(text("prefs.quietHours", "Quiet hours (such as 22:00-07:00; empty for none)"))</label>\n"
            + "<input type=\"text\" name=\"quietHours\" id=\"quietHours\" value=\"\(quiet)\" placeholder=\"22:00-07:00\" pattern=\"([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]\"></p>\n"
        body += "<p><label for=\"showPreviews\">\(text("prefs.previews", "Show previews"))</label>\n<select name=\"showPreviews\" id=\"showPreviews\">"
        for option in Recipient.ShowPreviews.allCases {
            body += "<option value=\"\(option.rawValue)\"" + (option == recipient.showPreviews ? " selected" : "") + ">"
                + text("prefs.previews.\(option.rawValue)", option.rawValue) + "</option>"
        }
        body += "</select></p>\n"
        body += "<p><label for=\"locale\">\(text("prefs.language", "Language"))</label>\n<select name=\"locale\" id=\"locale\">"
        let current = preferences.shownLocale
        for code in preferences.locales {
            let name = Locale(identifier: code).localizedString(forIdentifier: code) ?? code
            body += "<option value=\"\(htmlEscaped(code))\"" + (code == current ? " selected" : "") + ">\(htmlEscaped(name))</option>"
        }
        body += "</select></p>\n<p><button type=\"submit\" id=\"save\">\(text("prefs.save", "Save"))</button></p>\n</form>\n"
        let html = """
            <!DOCTYPE html>
            <html lang="\(htmlEscaped(LocaleFallback.language(of: locale)))" dir="\(LocaleFallback.direction(of: locale))">
            <head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="viewport" content="width=device-width">
            <title>\(text("ui.preferences", "Notification preferences"))</title>
            <style>body{font-family:sans-serif;max-width:40em;margin:2em auto;padding:0 1em}table{border-collapse:collapse}td,th{padding:.3em .6em;border-bottom:1px solid #ddd;text-align:center}td:first-child{text-align:start}.problem{color:#b00}</style>
            </head>
            <body>
            \(body)</body></html>

            """
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
        // No Path: the browser scopes it to the page's own folder (/p, or under a proxy's
        // prefix), where /p/'s Path left it out of every POST behind a prefix.
        headers[.setCookie] = "\(Self.csrfCookie)=\(nonce); HttpOnly; SameSite=Strict"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private func localized(_ key: String, locale: String = "en", fallback: String) -> String {
        desk.actions.localizer?.string(key, locale: locale)?.text ?? fallback
    }

    /// 128 random bits, hex.
    static func nonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    static func cookies(_ header: String) -> [String: String] {
        var found: [String: String] = [:]
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { found[parts[0]] = parts[1] }
        }
        return found
    }

}
