import ChimeCore
import ChimeLocalization
import ChimeRendering
import Foundation

/// What refuses requests beyond their own validity: files to attach and keys to localize,
/// which live outside the request. `chime schedule` and `POST /v1/requests` check the same.
public enum RequestChecks {
    /// The requests with their attachments resolved from `base`, and what refuses them
    /// (attachments, then localization keys): what `chime schedule` and the HTTP API check
    /// before the scheduler's own rules.
    public static func requestProblems(_ requests: [NotificationRequest], base: String, templatesPath: String) -> (requests: [NotificationRequest], problems: [String]) {
        let (resolved, problems) = resolvingAttachments(requests, base: base)
        guard problems.isEmpty else { return (resolved, problems) }
        return (resolved, localizationProblems(resolved, templatesPath: templatesPath))
    }

    public static func resolvingAttachments(_ requests: [NotificationRequest], base: String) -> (requests: [NotificationRequest], problems: [String]) {
        var problems: [String] = []
        let resolved = requests.map { request in
            var request = request
            request.content.attachments = request.content.attachments.map { attachment in
                var attachment = attachment
                if !attachment.path.hasPrefix("/") { attachment.path = (base as NSString).appendingPathComponent(attachment.path) }
                attachment.path = (attachment.path as NSString).standardizingPath
                if let reason = AttachmentFile.check(attachment.path) {
                    problems.append("request \"\(request.identifier)\": attachment \"\(attachment.identifier)\": \(attachment.path): \(reason)")
                }
                return attachment
            }
            return request
        }
        return (resolved, problems)
    }

    public static func localizationProblems(_ requests: [NotificationRequest], templatesPath: String) -> [String] {
        let keyed = requests.filter { $0.content.titleLocKey != nil || $0.content.bodyLocKey != nil }
        guard !keyed.isEmpty else { return [] }
        let localizer: Localizer
        do {
            localizer = try Localizer(directory: templatesPath)
        } catch let error as Localizer.LoadError {
            return [error.description]
        } catch {
            return ["\(error)"]
        }
        var problems: [String] = []
        for request in keyed {
            for (field, key, literal) in [("titleLocKey", request.content.titleLocKey, request.content.title),
                                          ("bodyLocKey", request.content.bodyLocKey, request.content.body)] {
                if let key, literal.isEmpty, !localizer.isKey(key) {
                    problems.append("request \"\(request.identifier)\": \(field) \"\(key)\" is in no locale of \(templatesPath) (give a literal text to fall back on, or add the key)")
                }
            }
        }
        return problems
    }
}
