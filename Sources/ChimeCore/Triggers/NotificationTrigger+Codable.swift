extension NotificationTrigger: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, seconds, repeats, dateComponents, timeZone, fireDate, repeatInterval
    }

    enum Kind: String, Codable, CaseIterable {
        case timeInterval, calendar, date

        /// The fields a trigger of this kind may have.
        var knownKeys: Set<String> {
            switch self {
            case .timeInterval: ["type", "seconds", "repeats"]
            case .calendar: ["type", "dateComponents", "timeZone", "repeats"]
            case .date: ["type", "fireDate", "timeZone", "repeatInterval"]
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind: Kind
        do {
            kind = try container.decode(Kind.self, forKey: .type)
        } catch DecodingError.dataCorrupted(let context) {
            // iOS's UNLocationNotificationTrigger has no place here: said so, not only refused.
            let location = (try? container.decode(String.self, forKey: .type)) == "location"
                ? " (location triggers fire on a device entering a region, which a server cannot see)" : ""
            throw DecodingError.dataCorrupted(.init(codingPath: context.codingPath,
                                                    debugDescription: "expected one of timeInterval, calendar, date" + location))
        }
        try decoder.rejectUnknownKeys(kind.knownKeys)
        switch kind {
        case .timeInterval:
            self = .timeInterval(
                seconds: try container.decode(Double.self, forKey: .seconds),
                repeats: try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false)
        case .calendar:
            self = .calendar(
                try container.decode(DateComponentsPattern.self, forKey: .dateComponents),
                timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone),
                repeats: try container.decodeIfPresent(Bool.self, forKey: .repeats) ?? false)
        case .date:
            let text = try container.decode(String.self, forKey: .fireDate)
            guard let fireDate = LocalDateTime(parsing: text) else {
                throw DecodingError.dataCorruptedError(forKey: .fireDate, in: container, debugDescription: LocalDateTime.impossibility(in: text)
                    ?? "expected a local date and time such as 2026-11-21T14:00:00 (no offset: the zone is timeZone), not \"\(text)\"")
            }
            self = .date(
                fireDate: fireDate,
                timeZone: try container.decodeIfPresent(String.self, forKey: .timeZone),
                repeatInterval: try container.decodeIfPresent(RepeatInterval.self, forKey: .repeatInterval))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .timeInterval(let seconds, let repeats):
            try container.encode(Kind.timeInterval, forKey: .type)
            if seconds == seconds.rounded(), abs(seconds) < 1e15 {
                try container.encode(Int64(seconds), forKey: .seconds)
            } else {
                try container.encode(seconds, forKey: .seconds)
            }
            try container.encode(repeats, forKey: .repeats)
        case .calendar(let pattern, let zone, let repeats):
            try container.encode(Kind.calendar, forKey: .type)
            try container.encode(pattern, forKey: .dateComponents)
            try container.encode(zone, forKey: .timeZone)
            try container.encode(repeats, forKey: .repeats)
        case .date(let fireDate, let zone, let interval):
            try container.encode(Kind.date, forKey: .type)
            try container.encode(fireDate.description, forKey: .fireDate)
            try container.encode(zone, forKey: .timeZone)
            try container.encode(interval, forKey: .repeatInterval)
        }
    }
}
