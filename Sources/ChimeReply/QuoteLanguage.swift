/// How the mail clients of one language (or one client, in any language) introduce a
/// quoted or forwarded message, and how their mobile apps sign: data that ``QuoteRules``
/// compiles once. Everything is matched without regard to case.
struct QuoteLanguage: Sendable {
    /// A BCP 47 language code, or the client's name for a client's own table.
    var code: String
    /// "On … wrote:" headers as regular expressions, each anchored at the start and at
    /// the end (`$`, after the colon), tried only on windows of at most
    /// ``ReplyText/longestHeader`` bytes; at most one unbounded `.{4,}` each, so a
    /// window costs time in proportion to its length.
    var wrote: [String] = []
    /// Words one of which the end of each of ``wrote``'s headers holds (a byte search
    /// that spares most windows the expressions).
    var verbs: [String] = []
    /// The name of the sender's field in a header block (`From`, `Von`, `Från`…).
    var from: [String] = []
    /// The date fields of a header block (`Sent`, `Gesendet`, `Skickat`…): `From` and one
    /// of them within the next lines begin a quoted message.
    var dated: [String] = []
    /// Its other fields (`To`, `Subject`, `Cc`…): `From` and two of them do too.
    var fields: [String] = []
    /// What stands between rules of dashes (`-----Original Message-----`).
    var separators: [String] = []
    /// A whole line that introduces a forwarded message (`Begin forwarded message:`),
    /// its colon left out.
    var forwarded: [String] = []
    /// How a mobile client's "sent from my …" line begins…
    var sentFromStarts: [String] = []
    /// …or ends (`Von meinem iPhone gesendet`, `iPhoneから送信`).
    var sentFromEnds: [String] = []
    /// Looser beginnings (`Envoyé de Yahoo Mail pour Android`, `Skickat med Spark`) and
    /// endings (`Sparkで送信`), which make a signature only of a line that names a device or
    /// an app: "Envoyé de Paris" is the person's.
    var sentWithStarts: [String] = []
    var sentWithEnds: [String] = []
    /// Outlook for iOS and Android's signature as it localizes it (`Get Outlook for {os}`,
    /// `Outlook für {os} beziehen`), `{os}` standing for iOS or Android: matched as the
    /// whole line (its link, spaces and a closing full stop left out), never as a
    /// beginning, so "Get Outlook for the team, please" stays the person's.
    var getOutlook: [String] = []
}
