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
    /// - Parameter confined: attachments may only be files inside `base` (its symlinks and
    ///   theirs resolved): the HTTP API's, whose callers hold a key to schedule reminders,
    ///   not to have the files `chime serve` can read (its `chime.xml`, its environment
    ///   file, its store) mailed to them.
    public static func requestProblems(_ requests: [NotificationRequest], base: String, confined: Bool = false, templatesPath: String,
                                       configuration: Configuration) -> (requests: [NotificationRequest], problems: [String]) {
        let (resolved, problems) = resolvingAttachments(requests, base: base, confined: confined)
        guard problems.isEmpty else { return (resolved, problems) }
        return (resolved, localizationProblems(resolved, templatesPath: templatesPath, configuration: configuration))
    }

    /// The requests with each attachment's path made absolute from `base` and checked;
    /// `confined` (``requestProblems(_:base:confined:templatesPath:configuration:)``):
    /// stored as its real path, which must lie inside `base`'s.
    public static func resolvingAttachments(_ requests: [NotificationRequest], base: String,
                                            confined: Bool = false) -> (requests: [NotificationRequest], problems: [String]) {
        var problems: [String] = []
        let folder = confined ? URL(fileURLWithPath: base).resolvingSymlinksInPath().path : base
        let resolved = requests.map { request in
            var request = request
            request.content.attachments = request.content.attachments.map { attachment in
                var attachment = attachment
                let given = attachment.path
                if !attachment.path.hasPrefix("/") { attachment.path = (base as NSString).appendingPathComponent(attachment.path) }
                attachment.path = (attachment.path as NSString).standardizingPath
                func refuse(_ reason: String) {
                    problems.append("request \"\(request.identifier)\": attachment \"\(attachment.identifier)\": \(given): \(reason)")
                }
                if confined {
                    attachment.path = URL(fileURLWithPath: attachment.path).resolvingSymlinksInPath().path
                    guard attachment.path.hasPrefix(folder + "/") else {
                        refuse("outside \(folder), the only folder the HTTP API attaches files from")
                        return attachment
                    }
                }
                if let reason = AttachmentFile.check(attachment.path) { refuse(reason) }
                return attachment
            }
            return request
        }
        return (resolved, problems)
    }

    /// Keys to localize that a request's recipient would not get: each request is
    /// localized as it will be when it fires, in its recipient's locale, so that a key
    /// missing from that locale's chain, or arguments that do not fit the key's format
    /// (`%d` given a word), refuse it now rather than hold it at every run. A request for
    /// a recipient the configuration does not name (which the scheduler refuses) is
    /// only asked to have its keys in some locale.
    public static func localizationProblems(_ requests: [NotificationRequest], templatesPath: String, configuration: Configuration) -> [String] {
        let keyed = requests.filter { $0.content.titleLocKey != nil || $0.content.subtitleLocKey != nil || $0.content.bodyLocKey != nil }
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
            if let locale = configuration.recipient(request.recipient)?.locale {
                do {
                    _ = try LocalizedContent(request.content, localizer: localizer, locale: locale)
                } catch {
                    problems.append("request \"\(request.identifier)\": \(error)")
                }
                continue
            }
            for (field, key, literal) in [("titleLocKey", request.content.titleLocKey, request.content.title),
                                          ("subtitleLocKey", request.content.subtitleLocKey, request.content.subtitle),
                                          ("bodyLocKey", request.content.bodyLocKey, request.content.body)] {
                if let key, literal.isEmpty, !localizer.isKey(key) {
                    problems.append("request \"\(request.identifier)\": \(field) \"\(key)\" is in no locale of \(templatesPath) (give a literal text to fall back on, or add the key)")
                }
            }
        }
        return problems
    }
}
