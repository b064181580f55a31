import ChimeCore
import Foundation

/// A page of a listing of the HTTP API: `?limit=&cursor=` → `{"items": […], "next":
/// CURSOR or null}`. The cursor is opaque to callers: the sort key of the last item
/// given (its instant and identifier, ``ListingKey``), so that items added or removed
/// between pages move no other item to another page. The store reads each page from its
/// cursor on (``PendingStore/pending(recipient:limits:after:count:)``), one item more
/// than the page holds to tell whether another follows.
enum APIPage {
    /// The most items a page holds, and how many when `limit` is not given.
    static let largestLimit = 1000, defaultLimit = 100

    /// The `limit` query parameter: 1 to ``largestLimit``.
    static func limit(_ text: String?) throws(APIError) -> Int {
        guard let text else { return defaultLimit }
        guard let limit = Int(text), (1...largestLimit).contains(limit) else {
            throw APIError(status: 400, code: "bad_request", message: "limit is a number from 1 to \(largestLimit)", at: "limit")
        }
        return limit
    }

    /// The `cursor` query parameter: nil for the first page.
    static func after(_ cursor: String?) throws(APIError) -> ListingKey? {
        guard let cursor else { return nil }
        guard let key = ListingKey(cursor: cursor) else {
            throw APIError(status: 400, code: "bad_request", message: "cursor is not one this server gave", at: "cursor")
        }
        return key
    }

    /// The page of `read` (up to `limit + 1` items from the cursor on): at most `limit`
    /// items, and the cursor of the page after, nil on the last page.
    static func page<T>(_ read: [T], key: (T) -> ListingKey, limit: Int) -> (items: [T], next: String?) {
        let page = Array(read.prefix(limit))
        return (page, read.count > limit ? page.last.map { key($0).cursor } : nil)
    }
}

extension ListingKey {
    /// The key as a cursor: `SECONDS IDENTIFIER` in base64url.
    var cursor: String {
        Data("\(seconds) \(identifier)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    init?(cursor: String) {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              let space = text.firstIndex(of: " "), let seconds = Int64(text[..<space]) else { return nil }
        self.init(seconds: seconds, identifier: String(text[text.index(after: space)...]))
    }
}
