import ChimeCore
import ChimeReply
import Foundation

// Two builds of one program. Built by `script/fuzz` with -sanitize=fuzzer and
// CHIME_LIBFUZZER, libFuzzer drives the target named by $CHIME_FUZZ_TARGET. Built plainly
// (as `swift build` builds everything), it replays files through the targets:
//
//   chime-fuzz replay DIR          every DIR/TARGET/* file through its target
//   chime-fuzz seed DIR            writes the generated seeds (the mail target's carry a
//                                  good token of the fuzz desk's store) under DIR/mail

#if CHIME_LIBFUZZER
typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ callback: FuzzCallback) -> Int32

/// The target libFuzzer drives, from `$CHIME_FUZZ_TARGET`.
let fuzzTarget: FuzzTarget = {
    guard let name = ProcessInfo.processInfo.environment["CHIME_FUZZ_TARGET"], let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("set CHIME_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(64)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// SwiftPM names an executable's entry point after its module and points `main` at it:
/// here it hands over to libFuzzer's driver.
@_cdecl("chime_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    _ = fuzzTarget
    var count = argc
    var values = argv
    return runDriver(&count, &values, testOneInput)
}
#else
@main
struct FuzzRunner {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let command = arguments.first, let folder = arguments.last else {
            print("usage: chime-fuzz replay DIR | chime-fuzz seed DIR")
            exit(64)
        }
        switch command {
        case "replay": try replay(URL(fileURLWithPath: folder))
        case "seed": try seed(URL(fileURLWithPath: folder))
        default:
            print("usage: chime-fuzz replay DIR | chime-fuzz seed DIR")
            exit(64)
        }
    }

    /// Every file under DIR/TARGET/ through its target, timed: one that takes over two
    /// seconds is a hang (exit 1); a crash ends the process.
    static func replay(_ folder: URL) throws {
        var count = 0, slow: [String] = []
        for target in FuzzTarget.allCases {
            let directory = folder.appendingPathComponent(target.rawValue)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            for name in names {
                let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
                let start = Date()
                target.run(bytes)
                count += 1
                if Date().timeIntervalSince(start) > 2 { slow.append("\(target.rawValue)/\(name)") }
            }
        }
        print("replayed \(count) inputs")
        if !slow.isEmpty {
            print("slow (a hang): \(slow.joined(separator: ", "))")
            exit(1)
        }
    }

    /// The mail seeds: replies as clients write them, to the fuzz desk's reminder.
    static func seed(_ folder: URL) throws {
        let key = SigningKey(bytes: Array(repeating: 7, count: 32))
        let token = ReplyToken(deliveryID: "\(FuzzTarget.seedGeneration).\(FuzzTarget.now.seconds)", fireDate: FuzzTarget.now)
            .signed(for: "alice", key: key)
        let head = ["From: Alice <alice@example.org>", "To: bot+\(token)@example.org", "Subject: Re: Shopping",
                    "Message-ID: <r1@example.org>", "In-Reply-To: <\(token)@example.org>", "References: <\(token)@example.org>",
                    "Date: Sat, 21 Nov 2026 10:00:00 +0000", "MIME-Version: 1.0"]
        let seeds: [String: [String]] = [
            "plain": head + ["Content-Type: text/plain; charset=utf-8", "", "1", "", "On Sat, Nov 21, 2026 Chime wrote:", "> Reply 1 for OK"],
            "note": head + ["Content-Type: text/plain; charset=utf-8", "", "Add a note: milk, eggs", "", "-- ", "Alice"],
            "flowed": head + ["Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes", "", "Delete ", "list", "", "Le 21 nov. 2026 à 10:00, Chime a écrit :", "> x"],
            "html": head + ["Content-Type: text/html; charset=utf-8", "", "<div>OK</div><div class=\"gmail_quote\">On … wrote:<blockquote>x</blockquote></div>"],
            "proof": head + ["Authentication-Results: mx.example.org; dmarc=pass (p=reject) header.from=example.org; dkim=pass header.d=example.org",
                             "Content-Type: text/plain; charset=utf-8", "", "Delete"],
            "multipart": head + ["Content-Type: multipart/alternative; boundary=\"b\"", "", "--b", "Content-Type: text/plain; charset=iso-8859-1",
                                 "Content-Transfer-Encoding: quoted-printable", "", "Supprim=E9", "--b", "Content-Type: text/html", "", "<p>x</p>", "--b--"],
            "bounce": ["From: MAILER-DAEMON@mx.example.org (Mail Delivery System)", "To: bounce+\(token)@example.org", "Auto-Submitted: auto-replied",
                       "Content-Type: multipart/report; report-type=delivery-status; boundary=\"d\"", "", "--d", "Content-Type: message/delivery-status", "",
                       "Reporting-MTA: dns; mx.example.org", "", "Final-Recipient: rfc822; alice@example.org", "Action: failed", "Status: 5.1.1", "", "--d--"],
            "receipt": head + ["Content-Type: multipart/report; report-type=disposition-notification; boundary=\"m\"", "", "--m",
                               "Content-Type: message/disposition-notification", "", "Disposition: manual-action/MDN-sent-manually; displayed", "--m--"],
        ]
        let directory = folder.appendingPathComponent(FuzzTarget.mail.rawValue)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, lines) in seeds {
            try Data(lines.joined(separator: "\r\n").utf8).write(to: directory.appendingPathComponent("seed-\(name).eml"))
        }
        print("wrote \(seeds.count) mail seeds; token \(token)")
    }
}
#endif
