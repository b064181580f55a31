import Foundation

/// A page of a listing of the HTTP API: `?limit=&cursor=` → `{"items": […], "next":
/// CURSOR or null}`. The cursor is opaque to callers: the sort key of the last item
/// given (its instant and identifier), so that items added or removed between pages
/// move no other item to another page.
struct APIPage {
    /// The most items a page holds, and how many when `limit` is not given.
    static let largestLimit = 1000, defaultLimit = 100

    /// Where the listing is sorted by: an instant's seconds, then an identifier.
    struct Key: Equatable {
        var seconds: Int64
        var identifier: String

        var cursor: String {
            Data("\(seconds) \(identifier)".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }

        init(seconds: Int64, identifier: String) {
            self.seconds = seconds
            self.identifier = identifier
        }

        init?(cursor: String) {
            var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
                  let space = text.firstIndex(of: " "), let seconds = Int64(text[..<space]) else { return nil }
            self.init(seconds: seconds, identifier: String(text[text.index(after: space)...]))
        }

        /// Whether `self` comes after `other` in a listing sorted by seconds (newest first
        /// when `descending`), then identifier byte by byte, as both stores sort it
        /// (`String`'s `>` takes "é" written as e and an accent for the same as "é", and
        /// skipped items that sorted after it).
        func follows(_ other: Key, descending: Bool) -> Bool {
            if seconds != other.seconds { return descending ? seconds < other.seconds : seconds > other.seconds }
            return other.identifier.utf8.lexicographicallyPrecedes(identifier.utf8)
        }
    }

    /// The `limit` query parameter: 1 to ``largestLimit``.
    static func limit(_ text: String?) throws(APIError) -> Int {
        guard let text else { return defaultLimit }
        guard let limit = Int(text), (1...largestLimit).contains(limit) else {
            throw APIError(status: 400, code: "bad_request", message: "limit is a number from 1 to \(largestLimit)", at: "limit")
        }
        return limit
    }

    /// The items after `cursor` (in the listing's order), at most `limit` of them, and the
    /// cursor of the page after, nil on the last page.
    static func page<T>(_ items: [T], key: (T) -> Key, descending: Bool, cursor: String?, limit: Int) throws(APIError) -> (items: [T], next: String?) {
        var rest = items[...]
        if let cursor {
            guard let after = Key(cursor: cursor) else {
                throw APIError(status: 400, code: "bad_request", message: "cursor is not one this server gave", at: "cursor")
            }
            rest = rest.drop { !key($0).follows(after, descending: descending) }
        }
        let page = Array(rest.prefix(limit))
        return (page, rest.count > limit ? page.last.map { key($0).cursor } : nil)
    }
}
