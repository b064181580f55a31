import Foundation

/// What a forwarded message's subject starts with, as the writer's client put it: a
/// forward sent to Chime passes the reminder on, and is no answer to it.
enum ForwardSubject {
    /// The prefix mail clients put before a forwarded message's subject, in the common
    /// clients' languages ("Fwd:", "FW:", German "WG:", French "TR:", Spanish "RV:",
    /// Portuguese "Enc:", Dutch "Doorst:", Swedish "VB:", Finnish "VL:", Polish "PD:",
    /// Italian "I:", Turkish "İLT:", Russian "Пересл:", Chinese "转发:", Japanese "転送:"), as
    /// the subject starts with it; nil for any other subject, and for one the reminder's
    /// own title starts with (a reminder titled "Fwd: the invoice"). Not "VS:": Danish and
    /// Norwegian forward with it, Finnish replies with it.
    static func prefix(of subject: String, title: String) -> String? {
        let trimmed = subject.drop { $0 == " " || $0 == "\t" }
        guard let colon = trimmed.prefix(8).firstIndex(where: { $0 == ":" || $0 == "：" }) else { return nil }
        // ReplyText's trim, not Foundation's (0.9% of `chime ingest`'s CPU, for a subject's first word).
        let word = ReplyText.trimmed(String(trimmed[..<colon])).lowercased()
        let prefix = String(trimmed[...colon])
        return words.contains(word) && !title.hasPrefix(prefix) ? prefix : nil
    }

    static let words: Set<String> = ["fwd", "fw", "wg", "tr", "rv", "enc", "doorst", "vb", "vl", "pd", "i", "i̇lt", "ilt",
                                     "пересл", "转发", "轉寄", "転送"]
}
