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
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mounted = try ChimeProcess.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", disk.path])
        try #require(mounted.status == 0, "mounting a small tmpfs needs root: \(mounted.stderr)")
        defer { _ = try? ChimeProcess.runProgram("/bin/umount", [disk.path]) }
        let store = ["--store", "sqlite:\(disk.path)/chime.sqlite"]
        #expect(try ws.chime(["schedule", "--id", "a", "--to", "alice", "--title", "Tea", "--in", "1h"] + store).status == 0)
        // The rest of the disk filled, as a full /var would be.
        let filler = disk.appendingPathComponent("filler")
        let handle = try FileHandle.creatingEmpty(at: filler)
        let block = Data(count: 4096)
        while (try? handle.write(contentsOf: block)) != nil {}
        try handle.close()

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
}
