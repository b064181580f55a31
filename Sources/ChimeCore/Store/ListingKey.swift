/// Where a page of a listing starts: just after the item with this sort key, the listing
/// sorted by an instant's seconds, then by identifier byte by byte (as both stores sort
/// text). A page is read by an index from there, never by reading what comes before it:
/// the HTTP API's pages cost the same on a store of a million rows as on one of ten.
public struct ListingKey: Hashable, Sendable {
    public var seconds: Int64
    public var identifier: String

    public init(seconds: Int64, identifier: String) {
        self.seconds = seconds
        self.identifier = identifier
    }
}
