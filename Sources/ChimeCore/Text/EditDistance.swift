/// How far apart two names are, to suggest the one meant when a name is misspelt
/// (`textInputActon` → `textInputAction`, `titel` → `title`).
public enum EditDistance {
    /// The optimal string alignment distance between two names, ignoring case: the
    /// fewest insertions, deletions, substitutions and swaps of neighbours turning one
    /// into the other, when at most `limit`.
    ///
    /// Only the cells within `limit` of the diagonal are worked out, so a pair costs time
    /// linear in its length (times `limit`, which stays small).
    /// - Returns: the distance, or nil when it is above `limit`.
    public static func distance(_ a: String, _ b: String, limit: Int) -> Int? {
        let s = Array(a.lowercased()), t = Array(b.lowercased())
        guard limit >= 0, abs(s.count - t.count) <= limit else { return nil }
        guard !s.isEmpty, !t.isEmpty else { return max(s.count, t.count) }
        let beyond = limit + 1
        // Three rows: the one two above (for swaps), the one above and this one. Cells
        // outside the band hold `beyond`.
        var twoAbove = [Int](repeating: beyond, count: t.count + 1)
        var above = (0...t.count).map { min($0, beyond) }
        var row = [Int](repeating: beyond, count: t.count + 1)
        for i in 1...s.count {
            let low = max(1, i - limit), high = min(t.count, i + limit)
            row[0] = min(i, beyond)
            row[low - 1] = low == 1 ? row[0] : beyond
            var least = row[low - 1]
            for j in low...high {
                var cell = min(above[j - 1] + (s[i - 1] == t[j - 1] ? 0 : 1), above[j] + 1, row[j - 1] + 1)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    cell = min(cell, twoAbove[j - 2] + 1)
                }
                row[j] = min(cell, beyond)
                least = min(least, row[j])
            }
            if high < t.count { row[high + 1] = beyond }
            guard least <= limit else { return nil }
            (twoAbove, above, row) = (above, row, twoAbove)
        }
        return above[t.count] <= limit ? above[t.count] : nil
    }

    /// The candidate `name` most likely misspells: the nearest one, when it is within a
    /// quarter of the name's length, rounded to the nearest (at least 1: `replys` →
    /// `replies` is 2), and no other candidate is as near. A candidate equal to `name` is
    /// not a suggestion.
    public static func nearest(to name: String, among candidates: some Sequence<String>) -> String? {
        let limit = max(1, (name.count + 2) / 4)
        var best: (name: String, distance: Int)?
        var tied = false
        for candidate in Set(candidates) where candidate != name {
            guard let distance = distance(name, candidate, limit: limit) else { continue }
            if let current = best, distance >= current.distance {
                if distance == current.distance { tied = true }
                continue
            }
            best = (candidate, distance)
            tied = false
        }
        return tied ? nil : best?.name
    }
}
