import ChimeCore
import Foundation

/// The heading of a group of notifications that share a `threadIdentifier`, as iOS
/// writes it from `categorySummaryFormat`: "3 more reminders from Matt, Anna and 2
/// others". One function, for the coalesced message and the digest alike.
public struct ThreadSummary {
    public let localizer: Localizer

    public init(localizer: Localizer) {
        self.localizer = localizer
    }

    /// The summary of a thread in a locale.
    /// - Parameters:
    ///   - format: the category's `categorySummaryFormat` (a strings key, pluralized
    ///     through the stringsdict, or literal text); nil for the localized default.
    ///   - count: `%u`: how many notifications, or the sum of their
    ///     `summaryArgumentCount`s when they set them.
    ///   - arguments: the notifications' `summaryArgument`s, in order; repeats count once.
    /// - Throws: ``StringFormat/Failure`` when a format does not fit its arguments.
    public func text(format: String?, count: Int, arguments: [String], locale: String) throws -> String {
        let list = try join(arguments, locale: locale)
        let values: [FormatArgument] = [.integer(count), .string(list)]
        guard let format else {
            let key = list.isEmpty ? "summary.default" : "summary.default.from"
            return try localizer.formatted(key, values, locale: locale) ?? (list.isEmpty ? "\(count) more notifications" : "\(count) more notifications from \(list)")
        }
        func formatted(_ values: [FormatArgument]) throws -> String {
            try localizer.formatted(format, values, locale: locale) ?? StringFormat.format(format, values, locale: locale)
        }
        // No summaryArgument at all: a format that names them ("… from %@") would end in
        // "from ", so the localized default without names stands in for it.
        if list.isEmpty, try formatted([.integer(count), .string(Self.probe)]).contains(Self.probe) {
            return try localizer.formatted("summary.default", values, locale: locale) ?? "\(count) more notifications"
        }
        return try formatted(values)
    }

    /// A name no summary holds, to see whether a format shows its names.
    private static let probe = "\u{1}"

    /// `count` as ``text(format:count:arguments:locale:)`` takes it: the sum of the
    /// `summaryArgumentCount`s when any is set, else the number of notifications.
    public static func count(of contents: [NotificationContent]) -> Int {
        let declared = contents.map(\.summaryArgumentCount)
        return declared.contains { $0 > 0 } ? declared.reduce(0) { $0 + max($1, 1) } : contents.count
    }

    /// "Matt", "Matt and Anna", "Matt, Anna and 2 others", in the locale's words.
    public func join(_ arguments: [String], locale: String) throws -> String {
        var seen = Set<String>()
        let names = arguments.filter { !$0.isEmpty && seen.insert($0).inserted }
        switch names.count {
        case 0: return ""
        case 1: return names[0]
        case 2:
            return try localizer.formatted("summary.list.two", [.string(names[0]), .string(names[1])], locale: locale)
                ?? "\(names[0]) and \(names[1])"
        default:
            let values: [FormatArgument] = [.string(names[0]), .string(names[1]), .integer(names.count - 2)]
            return try localizer.formatted("summary.list.more", values, locale: locale)
                ?? "\(names[0]), \(names[1]) and \(names.count - 2) others"
        }
    }
}
