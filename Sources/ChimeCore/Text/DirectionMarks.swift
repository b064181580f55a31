/// The invisible marks that set the direction of right-to-left text: what Gmail in
/// Hebrew, Arabic and Persian puts around names and addresses, and an Arabic keyboard
/// between words ("غفوة حتى\u{200F} 3").
public let directionMarks: Set<Character> = ["\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
                                             "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{061C}"]

/// `text` without its ``directionMarks``.
public func withoutDirectionMarks(_ text: String) -> String {
    // Every mark is a three-byte sequence starting E2 80/81 or D8 9C: most lines have
    // neither lead byte and are returned as they are.
    guard text.withStoredUTF8({ $0.contains { $0 == 0xE2 || $0 == 0xD8 } }) else { return text }
    var result = text
    result.removeAll { directionMarks.contains($0) }
    return result
}
