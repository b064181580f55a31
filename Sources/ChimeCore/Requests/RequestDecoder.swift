import Foundation

/// Reads the request JSON of `chime schedule --json`: one request object or an array.
public enum RequestDecoder {
    /// A request file that is not valid: where (a JSON path such as `[1].trigger.seconds`)
    /// and what is wrong.
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { path.isEmpty ? message : "at \(path): \(message)" }
    }

    public static func decode(_ data: Data) throws(Failure) -> [NotificationRequest] {
        let trimmed = data.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        do {
            if trimmed.first == UInt8(ascii: "[") {
                return try JSONDecoder().decode([NotificationRequest].self, from: data)
            }
            return [try JSONDecoder().decode(NotificationRequest.self, from: data)]
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw Failure(path: "", message: "not JSON: \(error.localizedDescription)")
        }
    }

    private static func describe(_ error: DecodingError) -> Failure {
        switch error {
        case .keyNotFound(let key, let context):
            return Failure(path: path(context.codingPath), message: "missing \"\(key.stringValue)\"")
        case .typeMismatch(let type, let context):
            return Failure(path: path(context.codingPath), message: "expected \(name(of: type))")
        case .valueNotFound(let type, let context):
            return Failure(path: path(context.codingPath), message: "expected \(name(of: type)), found null")
        case .dataCorrupted(let context):
            let message = context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription
            return Failure(path: path(context.codingPath), message: message)
        @unknown default:
            return Failure(path: "", message: "\(error)")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce("") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path.isEmpty ? key.stringValue : path + "." + key.stringValue
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type, is Int64.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
