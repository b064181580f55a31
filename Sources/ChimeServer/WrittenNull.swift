/// An optional field written as `null` when it holds nothing, where synthesized
/// `Encodable` would leave its key out: the API's documents name every field of their
/// schema, null where there is nothing (a listing's last page, a setting never saved).
@propertyWrapper
struct WrittenNull<Value: Encodable & Sendable>: Encodable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
