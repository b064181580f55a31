import ChimeDelivery
import Testing

@Suite("Marks of deliveries written together")
struct MarkBacklogTests {
    struct StoreDown: Error {}

    @Test("a write that fails keeps its marks for the next one: a run giving up after a store error still marks what it delivered")
    func failedWriteKeepsMarks() throws {
        var backlog = MarkBacklog<Int>()
        for mark in 1...3 { backlog.add(mark) }
        #expect(throws: StoreDown.self) { try backlog.flush { _ in throw StoreDown() } }
        #expect(backlog.count == 3)
        backlog.add(4)
        var written: [Int] = []
        backlog.flush { written = $0 }
        #expect(written == [1, 2, 3, 4])
        #expect(backlog.isEmpty)
        backlog.flush { _ in Issue.record("an empty backlog writes nothing") }
    }

    @Test("marks written alongside go in the same write after the backlog's, even with the backlog empty, and are not kept when it fails")
    func alongside() throws {
        var backlog = MarkBacklog<Int>()
        var written: [Int] = []
        backlog.flush(alongside: [9]) { written = $0 }
        #expect(written == [9])
        backlog.add(1)
        #expect(throws: StoreDown.self) { try backlog.flush(alongside: [9]) { _ in throw StoreDown() } }
        backlog.flush { written = $0 }
        #expect(written == [1])
    }

    @Test("due once the backlog is full or a mark asked to go at once")
    func due() {
        var backlog = MarkBacklog<Int>()
        for mark in 0..<DeliveryMarks.backlog { backlog.add(mark) }
        #expect(backlog.due)
        var urgent = MarkBacklog<Int>()
        urgent.add(1, now: true)
        #expect(urgent.due)
    }
}
