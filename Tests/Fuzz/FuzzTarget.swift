import ChimeConfig
import ChimeCore
import ChimeLocalization
import ChimeMIME
import ChimeReply
import ChimeSQLite
import Foundation

/// Each parser of input from outside, fed arbitrary bytes: none may crash, hang or grow
/// without bound, whatever it is given.
enum FuzzTarget: String, CaseIterable {
    /// `chime.xml`: libxml2, the schema, the reader and the model's rules.
    case config
    /// `Localizable.strings`.
    case strings
    /// `Localizable.stringsdict` (a plist, libxml2).
    case stringsdict
    /// `Localizable.xcstrings`, Xcode's String Catalog (JSON).
    case xcstrings
    /// The request JSON of `chime schedule` and the HTTP API.
    case request
    /// An inbound email through the whole reply desk: GMime, machine mail, tokens, the
    /// sender, Authentication-Results, the new text (plain and HTML) and the action.
    case mail
    /// One `Authentication-Results` value.
    case authresults
    /// A chat callback body, read as each platform's.
    case chat
    /// The environment file of `--env-file` (secrets for every entry point).
    case envfile
    /// A request as the store reads it back: whatever the hand-written reader accepts,
    /// JSONDecoder (the definition) must read as the same request.
    case stored

    func run(_ bytes: [UInt8]) {
        switch self {
        case .config:
            _ = try? ConfigurationLoader(environment: [:]).load(bytes: bytes, path: "fuzz.xml")
        case .strings:
            _ = try? StringsFile(bytes: bytes)
        case .stringsdict:
            _ = try? StringsDictFile(bytes: bytes, path: "fuzz.stringsdict")
        case .xcstrings:
            _ = try? StringCatalog(bytes: bytes)
        case .request:
            _ = try? RequestDecoder.decode(Data(bytes))
        case .mail:
            let reply = try? Self.desk.handle(bytes, now: Self.now)
            if Self.verbose { print("mail: \(reply?.record.outcome.rawValue ?? "not recorded") \(reply?.record.detail ?? "")") }
        case .authresults:
            _ = AuthenticationResults(String(decoding: bytes, as: UTF8.self))
        case .chat:
            _ = ChatCallback.slack(bytes)
            _ = ChatCallback.discord(bytes)
            _ = ChatCallback.mattermost(bytes)
            _ = ChatCallback.telegram(bytes)
        case .envfile:
            _ = try? EnvironmentFile(text: String(decoding: bytes, as: UTF8.self), path: "fuzz.env")
        case .stored:
            let text = String(decoding: bytes, as: UTF8.self)
            if let read = NotificationRequest.readStored(text) {
                precondition(read == (try? NotificationRequest.decodeStored(text)), "the stored-request reader and JSONDecoder read \(text) differently")
            }
        }
    }

    static let now = Instant(rfc3339: "2026-11-21T10:00:00Z")!

    /// `$CHIME_FUZZ_VERBOSE`: say what each mail became (to check the seeds reach deep).
    static let verbose = ProcessInfo.processInfo.environment["CHIME_FUZZ_VERBOSE"] != nil

    /// A reply desk over a store in memory, with one recipient and one reminder sent to
    /// her, so that a fuzzed reply can get past the token when it carries one.
    static let desk: ReplyDesk = {
        let xml = """
            <chime version="1">
              <categories>
                <category identifier="shop">
                  <action identifier="ok" title="OK"/>
                  <action identifier="trash" title="Delete" destructive="true" authenticationRequired="true"/>
                  <textInputAction identifier="note" title="Add a note"/>
                </category>
              </categories>
              <channels><channel id="mail" url="maildir:/nonexistent" from="bot@example.org" replyTo="bot+{token}@example.org"/></channels>
              <replies trustedAuthServID="mx.example.org"/>
              <recipients><recipient id="alice" timeZone="UTC"><address channel="mail">alice@example.org</address></recipient></recipients>
            </chime>
            """
        let configuration = try! ConfigurationLoader(environment: [:]).load(bytes: Array(xml.utf8), path: "fuzz.xml")
        let store = try! SQLiteStore(path: ":memory:")
        let request = NotificationRequest(identifier: "r", recipient: "alice",
                                          content: NotificationContent(title: "Shopping", categoryIdentifier: "shop"),
                                          trigger: .timeInterval(seconds: 60, repeats: false))
        try! store.upsert([PendingNotification(request: request, added: now, nextFire: now, anchor: now, zone: "UTC", generation: seedGeneration)])
        return ReplyDesk(configuration: configuration, store: store, key: SigningKey(bytes: Array(repeating: 7, count: 32)),
                         titles: { [$0] }, markers: ["Reply above this line to answer."])
    }()

    /// The generation of the reminder the desk's store holds: seeds quote its token
    /// (``seedToken``).
    static let seedGeneration = "00000000-0000-4000-8000-000000000001"
}
