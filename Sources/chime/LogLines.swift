import ArgumentParser
import ChimeCore
import ChimeRuntime
import Foundation
import Logging

/// How `chime` writes swift-log's records on standard error: one line each, as text for a
/// person or JSON for a log shipper (`--log-format`). swift-log ships only a plain-text
/// handler without levels' names in a fixed place or a JSON form, hence this one.
/// Control characters in messages and metadata (request identifiers and reply text come
/// from outside) are escaped, so one record is always one line.
struct LogLines: LogHandler {
    enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case text, json
    }

    let label: String
    let format: Format
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let time = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        let line: String
        switch format {
        case .text:
            let fields = merged.sorted { $0.key < $1.key }.map { field -> String in
                let value = Self.escaped("\(field.value)")
                return "\(field.key)=" + (value.contains(" ") || value.isEmpty ? "\"\(value)\"" : value)
            }
            line = ([time, event.level.rawValue, "\(label):", Self.escaped("\(event.message)")] + fields).joined(separator: " ")
        case .json:
            var object: [String: String] = ["time": time, "level": event.level.rawValue, "logger": label, "message": "\(event.message)"]
            // A field named like one of the record's own (`message`) is kept beside it,
            // not dropped.
            for (key, value) in merged { object[object[key] == nil ? key : "metadata.\(key)"] = "\(value)" }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            line = String(decoding: data, as: UTF8.self)
        }
        StandardStreams.error(line + "\n")
    }

    /// `text` with control characters and quotes written as escapes.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\"": result += "\\\""
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Makes every logger of the process write this way from now on, at `level`.
    static func bootstrap(level: Logger.Level, format: Format) {
        LoggingSystem.bootstrap { label in LogLines(label: label, format: format, logLevel: level) }
    }
}
