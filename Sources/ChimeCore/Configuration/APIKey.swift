/// A key of the HTTP API (`<api><key id secret scope/>`): who may call `/v1`, and what.
public struct APIKey: Hashable, Sendable {
    /// What a key may do; each scope includes the ones below it.
    public enum Scope: Int, Hashable, Sendable, Comparable, CaseIterable {
        case read, write, admin

        /// The scope named as in `chime.xml`: `read`, `write` or `admin`.
        public init?(name: String) {
            guard let scope = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = scope
        }

        public var name: String {
            switch self {
            case .read: "read"
            case .write: "write"
            case .admin: "admin"
            }
        }

        public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Names the key in messages and logs; never the secret.
    public var id: String
    /// What a caller sends as `Authorization: Bearer SECRET`.
    public var secret: String
    public var scope: Scope
    /// Requests a second this key may make (`rate`), in bursts of as many; nil: no limit.
    public var rate: Int?

    public init(id: String, secret: String, scope: Scope, rate: Int? = nil) {
        self.id = id
        self.secret = secret
        self.scope = scope
        self.rate = rate
    }
}
