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
