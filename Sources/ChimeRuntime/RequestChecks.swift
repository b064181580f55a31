import ChimeCore
import ChimeLocalization
import ChimeRendering
import ChimeScheduler
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
                                       configuration: Configuration) -> (requests: [NotificationRequest], problems: [SchedulingError.Problem]) {
        let (resolved, problems) = resolvingAttachments(requests, base: base, confined: confined)
        guard problems.isEmpty else { return (resolved, problems) }
        return (resolved, localizationProblems(resolved, templatesPath: templatesPath, configuration: configuration))
    }

    /// The requests with each attachment's path made absolute from `base` and checked;
    /// `confined` (``requestProblems(_:base:confined:templatesPath:configuration:)``):
    /// stored as its real path, which must lie inside `base`'s.
    public static func resolvingAttachments(_ requests: [NotificationRequest], base: String,
                                            confined: Bool = false) -> (requests: [NotificationRequest], problems: [SchedulingError.Problem]) {
        var problems: [SchedulingError.Problem] = []
        let folder = confined ? URL(fileURLWithPath: base).resolvingSymlinksInPath().path : base
        let resolved = requests.enumerated().map { index, request in
            var request = request
            request.content.attachments = request.content.attachments.enumerated().map { position, attachment in
                var attachment = attachment
                let given = attachment.path
                if !attachment.path.hasPrefix("/") { attachment.path = (base as NSString).appendingPathComponent(attachment.path) }
                attachment.path = (attachment.path as NSString).standardizingPath
                func refuse(_ reason: String) {
                    problems.append(.init(text: "request \"\(request.identifier)\": attachment \"\(attachment.identifier)\": \(given): \(reason)",
                                          request: index, field: "content.attachments[\(position)].path"))
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
    public static func localizationProblems(_ requests: [NotificationRequest], templatesPath: String,
                                            configuration: Configuration) -> [SchedulingError.Problem] {
        let keyed = requests.enumerated().filter { _, request in
            request.content.titleLocKey != nil || request.content.subtitleLocKey != nil || request.content.bodyLocKey != nil
        }
        guard !keyed.isEmpty else { return [] }
        let localizer: Localizer
        do {
            localizer = try Localizer(directory: templatesPath)
        } catch {
            return [.init(text: "\(error)", request: nil, field: nil)]
        }
        var problems: [SchedulingError.Problem] = []
        for (index, request) in keyed {
            if let locale = configuration.recipient(request.recipient)?.locale {
                do {
                    _ = try LocalizedContent(request.content, localizer: localizer, locale: locale)
                } catch {
                    // A key missing is pointed at, and arguments that do not fit its format.
                    let field = (error as? any LocalizedContent.FieldError).map { "content.\($0.field)" } ?? "content"
                    problems.append(.init(text: "request \"\(request.identifier)\": \(error)", request: index, field: field))
                }
                continue
            }
            for (field, key, literal) in [("titleLocKey", request.content.titleLocKey, request.content.title),
                                          ("subtitleLocKey", request.content.subtitleLocKey, request.content.subtitle),
                                          ("bodyLocKey", request.content.bodyLocKey, request.content.body)] {
                if let key, literal.isEmpty, !localizer.isKey(key) {
                    problems.append(.init(text: "request \"\(request.identifier)\": \(field) \"\(key)\" is in no locale of \(templatesPath) (give a literal text to fall back on, or add the key)",
                                          request: index, field: "content.\(field)"))
                }
            }
        }
        return problems
    }
}
