import Foundation

/// Python's `email` package with `policy=email.policy.strict`: a real, independent parser
/// that raises on the first defect. Returns what it read (an attachment's name as
/// `filename`), or its complaint.
public func strictlyParsed(_ message: String) throws -> [String: String] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-mime-\(UUID().uuidString).eml")
    try message.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", """
        import email, email.policy, json, sys
        raw = open(sys.argv[1], "rb").read()
        try:
            msg = email.message_from_bytes(raw, policy=email.policy.strict)
            out = {"subject": str(msg["subject"]), "from": str(msg["from"]), "to": str(msg["to"]),
                   "type": msg.get_content_type(), "longest": str(max(len(l) for l in raw.split(b"\\n")))}
            for part in msg.walk():
                if part.defects:
                    raise ValueError(repr(part.defects))
                if not part.is_multipart():
                    out[part.get_content_type()] = part.get_content() if part.get_content_maintype() == "text" else str(len(part.get_content()))
                    if part.get_filename() is not None:
                        out["filename"] = part.get_filename()
            for name in msg.keys():
                str(msg[name])
            print(json.dumps(out))
        except Exception as error:
            print(json.dumps({"error": repr(error)}))
        """, file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONSerialization.jsonObject(with: data) as? [String: String] ?? ["error": "no output"]
}

