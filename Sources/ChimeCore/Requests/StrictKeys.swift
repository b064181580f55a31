/// A coding key for any name, to list the keys an object really has.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Refuses an object with a key outside `known`: a misspelt field (`"minutes"`,
    /// `"timezone"`) must not silently schedule something else than was meant. JSON the
    /// store wrote itself is not checked (nor `known` built) when read back.
    func rejectUnknownKeys(_ known: @autoclosure () -> Set<String>) throws {
        guard userInfo[.storedJSON] as? Bool != true else { return }
        let known = known()
        let container = try container(keyedBy: AnyCodingKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [key],
                debugDescription: "unknown field (expected one of \(known.sorted().joined(separator: ", ")))"))
        }
    }
}

extension KeyedDecodingContainer {
    /// A whole number, refused at its field when it is not one: asked for an `Int`,
    /// Foundation's decoder on Linux throws "not valid JSON" with no field for `9.5` or
    /// `1e30`, and the error named neither line nor field. Read as an `Int` when it is one
    /// (exactly: through a `Double`, 99999999999999991 was 99999999999999984, where the
    /// store's own reader read the digits; the fuzzer found them disagreeing), else as a
    /// `Double` made whole (9.0 is 9) or refused with its field.
    func decodeWholeNumberIfPresent(forKey key: Key) throws -> Int? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let whole = try? decode(Int.self, forKey: key) { return whole }
        let value = try decode(Double.self, forKey: key)
        guard let whole = Int(exactly: value) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected a whole number, not \(value)")
        }
        return whole
    }
}

extension Decoder {
    /// One of an enumeration's cases by its name; another name is refused with the names
    /// it could be (Foundation's own words were "Cannot initialize RepeatInterval from
    /// invalid String value daily").
    func decodeCase<T: CaseIterable & RawRepresentable>(_ type: T.Type) throws -> T where T.RawValue == String {
        let container = try singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = T(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
        }
        return value
    }
}
