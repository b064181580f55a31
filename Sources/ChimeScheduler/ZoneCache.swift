import Foundation

/// Time zones by name, made once per run: building one reads the zone database.
final class ZoneCache {
    private var zones: [String: TimeZone] = [:]

    func zone(_ name: String) -> TimeZone? {
        if let zone = zones[name] { return zone }
        let zone = TimeZone(identifier: name)
        zones[name] = zone
        return zone
    }
}
