import ChimeTestSupport
import Foundation
import Testing

/// Point 6 of the first week, on a disk that is really full: a small tmpfs mounted for
/// the test (the suite runs as root on the project's machines, as CI does).
extension OperatorTests {
    @Test("on a full disk, chime schedule and pending say the disk is full and to free space (75, try later), never raw SQL or 'disk I/O error'; once space is freed, what was stored is there, none of the refused batch, and the same schedule succeeds")
    func fullDisk() throws {
        let ws = try Workspace()
        let disk = ws.url.appendingPathComponent("disk")
        try Self.mountSmallDisk(at: disk, size: "4m")
        defer { _ = try? ChimeProcess.runProgram("/bin/umount", [disk.path]) }
        let store = ["--store", "sqlite:\(disk.path)/chime.sqlite"]
        #expect(try ws.chime(["schedule", "--id", "a", "--to", "alice", "--title", "Tea", "--in", "1h"] + store).status == 0)
        // The rest of the disk filled, as a full /var would be.
        let filler = try Self.fill(disk)

        let big = (0..<200).map { #"{"identifier": "b\#($0)", "recipient": "alice", "content": {"title": "Tea", "body": "\#(String(repeating: "x", count: 2000))"}, "trigger": {"type": "timeInterval", "seconds": 3600}}"# }
        try ws.write("many.json", "[" + big.joined(separator: ",") + "]")
        let full = try ws.chime(["schedule", "--json", "many.json"] + store)
        #expect(full.status == 75, "\(full.status) \(full.stderr)")
        #expect(full.stderr.contains("chime.sqlite: error: the disk holding the store is full: free some space, then try again"), "\(full.stderr)")
        #expect(!full.stderr.contains("INSERT") && !full.stderr.contains("SQLite error") && !full.stderr.contains("input/output"), "no SQL: \(full.stderr)")
        // Even a listing needs room (SQLite's -shm file, in WAL mode): it says the same.
        let listing = try ws.chime(["pending"] + store)
        #expect(listing.status == 75 && listing.stderr.contains("the disk holding the store is full"), "\(listing.status) \(listing.stderr)")

        try FileManager.default.removeItem(at: filler)
        // Nothing stored was lost, and none of the refused batch went in.
        let pending = try ws.chime(["pending"] + store)
        #expect(pending.status == 0 && pending.stdout.contains("a  alice") && !pending.stdout.contains("b0"), "\(pending.stdout) \(pending.stderr)")
        let again = try ws.chime(["schedule", "--json", "many.json"] + store)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try ws.chime(["pending"] + store).stdout.split(separator: "\n").count == 201)
    }

    @Test("a Maildir on a full disk holds the reminders (75) and leaves no empty file in its tmp/; once space is freed, they are delivered")
    func fullMaildir() throws {
        let ws = try Workspace()
        let outbox = ws.url.appendingPathComponent("outbox")
        try Self.mountSmallDisk(at: outbox, size: "1m")
        defer { _ = try? ChimeProcess.runProgram("/bin/umount", [outbox.path]) }
        for folder in ["tmp", "new", "cur"] {
            try FileManager.default.createDirectory(at: outbox.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let requests = (0..<10).map { #"{"identifier": "m\#($0)", "recipient": "carol", "content": {"title": "Tea", "body": "\#(String(repeating: "x", count: 2000))"}, "trigger": {"type": "timeInterval", "seconds": 60}}"# }
        try ws.write("tea.json", "[" + requests.joined(separator: ",") + "]")
        #expect(try ws.chime(["schedule", "--json", "tea.json"], now: "2026-11-21T09:00:00Z").status == 0)
        let filler = try Self.fill(outbox)

        let held = try ws.chime(["run"], now: "2026-11-21T09:02:00Z")
        #expect(held.status == 75, "\(held.status) \(held.stdout) \(held.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.appendingPathComponent("tmp").path).isEmpty)

        try FileManager.default.removeItem(at: filler)
        let sent = try ws.chime(["run"], now: "2026-11-21T09:03:00Z")
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.appendingPathComponent("new").path).count == 10)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outbox.appendingPathComponent("tmp").path).isEmpty)
    }

    /// A small tmpfs mounted at `folder` (made first), which the caller unmounts.
    private static func mountSmallDisk(at folder: URL, size: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let mounted = try ChimeProcess.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
        try #require(mounted.status == 0, "mounting a small tmpfs needs root: \(mounted.stderr)")
    }

    /// The rest of the disk holding `folder` taken by one file, returned for removal.
    private static func fill(_ folder: URL) throws -> URL {
        let filler = folder.appendingPathComponent("filler")
        let handle = try FileHandle.creatingEmpty(at: filler)
        let block = Data(count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try handle.close()
        return filler
    }
}
