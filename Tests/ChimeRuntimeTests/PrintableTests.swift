import ChimeCore
import ChimeRuntime
import Testing

/// `printable`, which every line `chime ingest` and `chime run` print from outside text
/// goes through: what a terminal would act on is written out, the rest kept as it is.
@Suite struct PrintableTests {
    /// Every character that is escaped, at the start, middle and end of text among
    /// multi-byte characters that share its lead byte (E2 80 for "—", C2 for "é"'s
    /// neighbours), written as `\u{…}`; the backslash doubled.
    @Test func escapesEachAnywhere() {
        let escaped: [UInt32] = [0x00, 0x07, 0x1B, 0x1F, 0x7F, 0x80, 0x9B, 0x9F, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069]
        for value in escaped {
            let character = String(UnicodeScalar(value)!)
            let written = "\\u{\(String(value, radix: 16))}"
            for (before, after) in [("", "— ok"), ("Done — “", "” ¡"), ("snooze ©", "")] {
                #expect(printable(before + character + after) == before + written + after, "U+\(String(value, radix: 16))")
            }
        }
        #expect(printable("a\\b") == "a\\\\b")
    }

    /// Text with nothing to escape comes back unchanged, whatever its script, including
    /// the neighbours of the escaped characters (U+00A0, U+200D, U+2014, U+2065, U+206A).
    @Test func keepsTheRest() {
        for text in ["", "0.bench:2,: responded: done (carried out) — answered: Done: Done.", "Ça a été fait ¡ «ok»",
                     "\u{A0}\u{200D}\u{2010}\u{2029}\u{2030}\u{2065}\u{206A}", "日本語で返信 👍🏽", "\u{1F600}\u{10FFFF}"] {
            #expect(printable(text) == text)
        }
    }
}
