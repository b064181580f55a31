import Foundation

/// Web addresses in people's chat text: found, and written as each platform needs them to
/// still lead where they point without carrying a mention.
extension TextLimit {
    /// How web addresses in people's text (``linkRuns(_:)``) are written.
    public enum Links: Sendable {
        /// Escaped as the rest of the text.
        case escaped
        /// As written, for markdown that links them by itself: a backslash escape inside
        /// one (`a\_b`) is not undone there, and the link goes somewhere else (Discord,
        /// which is sent with no mention allowed).
        case asWritten
        /// As written, but for what would notify a channel: Mattermost looks for mentions
        /// inside an address too, breaking words at `/`, so `https://x.example/@channel`
        /// notified the whole channel. In the path, query or fragment, an `@` before
        /// `channel`, `here` or `all` that starts a word goes as `%40`; an address with one
        /// in its host part, or with a character reference (`&#64;`, which Mattermost
        /// reads as `@`), is escaped as the rest of the text (it then links no more).
        case asWrittenWithoutMentions
        /// As written where the platform links it, its host a domain name (a dot, and a
        /// top-level domain of two letters or more), else escaped as the rest of the text:
        /// Telegram links such an address before it looks for mentions, and finds
        /// `@alice` in `https://intranet/@alice`, which it does not link.
        case asWrittenWhereLinked
    }

    /// The characters of `characters` that go as written under `links` (in web
    /// addresses), and of those the `@`s that go as `%40`.
    static func written(_ characters: [Character], _ links: Links) -> (verbatim: IndexSet, encoded: IndexSet) {
        guard links != .escaped else { return ([], []) }
        var verbatim = IndexSet(), encoded = IndexSet()
        for run in linkRuns(characters).rangeView {
            let address = Array(characters[run])
            // Where the host part ends: the first `/`, `?` or `#` after the scheme's `//`.
            let hostStart = (address.firstIndex(of: "/") ?? 0) + 2
            let hostEnd = address[hostStart...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? address.count
            switch links {
            case .escaped, .asWritten: // .escaped has no runs (above)
                break
            case .asWrittenWithoutMentions:
                if hasCharacterReference(address) || (hostStart..<hostEnd).contains(where: { startsMention(address, at: $0) }) { continue }
                for index in hostEnd..<address.count where startsMention(address, at: index) {
                    encoded.insert(run.lowerBound + index)
                }
            case .asWrittenWhereLinked:
                guard isDomainName(address[hostStart..<hostEnd]) else { continue }
            }
            verbatim.insert(integersIn: run)
        }
        return (verbatim, encoded)
    }

    /// Whether an `@` at `index` starts a word (after neither a letter nor a digit) and
    /// is followed by a name that notifies a whole Mattermost channel.
    private static func startsMention(_ address: [Character], at index: Int) -> Bool {
        guard address[index] == "@", index > 0, !(address[index - 1].isLetter || address[index - 1].isNumber) else { return false }
        let rest = address[(index + 1)...]
        return ["channel", "here", "all"].contains { name in
            let after = rest.dropFirst(name.count).first
            return rest.count >= name.count && zip(rest, name).allSatisfy { $0.lowercased() == String($1) }
                && !(after.map { $0.isLetter || $0.isNumber } ?? false)
        }
    }

    /// Whether `&` starts a character reference (`&#64;`, `&#x40;`, `&commat;`).
    private static func hasCharacterReference(_ address: [Character]) -> Bool {
        address.indices.contains { index in
            guard address[index] == "&", index + 1 < address.count else { return false }
            if address[index + 1] == "#" { return true }
            let name = address[(index + 1)...].prefix { $0.isASCII && $0.isLetter }
            return !name.isEmpty && index + 1 + name.count < address.count && address[index + 1 + name.count] == ";"
        }
    }

    /// Whether an address's host part (userinfo and port aside) is a domain name with a
    /// top-level domain of two letters or more.
    private static func isDomainName(_ authority: ArraySlice<Character>) -> Bool {
        let host = (authority.lastIndex(of: "@").map { authority[(authority.index(after: $0))...] } ?? authority).prefix { $0 != ":" }
        guard let dot = host.lastIndex(of: ".") else { return false }
        let top = host[host.index(after: dot)...]
        return top.count >= 2 && top.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// The positions of the characters of web addresses in `characters`: from `http://`
    /// or `https://` at the start of a word, up to the first space or `<`, as Discord's and
    /// Mattermost's markdown read an address (`https?://[^\s<]+`, their final character
    /// aside). Nothing in it is escaped: an escape inside (`/\@alice`, `Mercury_\(planet\)`,
    /// a word joiner after `@`) became part of the address, which then led elsewhere, and
    /// an escaped `)` at its end made the platform end the address on the backslash. What
    /// the run holds is read by the platform as the address, never as markup: its rule
    /// takes the text from the scheme on. Mentions inside are ``Links``' to stop.
    static func linkRuns(_ characters: [Character]) -> IndexSet {
        var runs = IndexSet()
        var index = 0
        while index < characters.count {
            let startsWord = index == 0 || !(characters[index - 1].isLetter || characters[index - 1].isNumber)
            guard startsWord, characters[index] == "h", let scheme = scheme(characters, at: index) else {
                index += 1
                continue
            }
            var end = index + scheme
            while end < characters.count, !characters[end].isWhitespace, characters[end] != "<" { end += 1 }
            runs.insert(integersIn: index..<end)
            index = end
        }
        return runs
    }

    /// The length of `http://` or `https://` when `characters` has one at `index`.
    private static func scheme(_ characters: [Character], at index: Int) -> Int? {
        for scheme in ["https://", "http://"] where characters.count - index >= scheme.count + 1 {
            if zip(characters[index...], scheme).allSatisfy({ $0 == $1 }) { return scheme.count }
        }
        return nil
    }
}
