import ChimeCore
@testable import ChimeServer
import Foundation
import Testing

@Suite("Recurring work")
struct RecurringWorkTests {
    @Test("a signalled Wakeup has the waiting work ask for sooner work at once, not at its next check")
    func wakeup() async throws {
        let wakeup = Wakeup()
        let asked = Counter()
        let rounds = Counter()
        // Checks every 10 minutes: only the signal can make it ask within the test's time,
        // however slowly a loaded machine (other tests holding Swift's threads) runs it.
        let work = RecurringWork(name: "test", longest: 1_200, recheck: 600, round: { _ in
            rounds.add()
            return nil
        }, sooner: { _ in
            asked.add()
            return nil
        }, wakeup: wakeup)
        let running = Task { try await work.run() }
        defer { running.cancel() }
        for _ in 0..<6_000 where rounds.value == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(rounds.value == 1)
        let started = Date()
        wakeup.signal()
        for _ in 0..<6_000 where asked.value == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(asked.value == 1)
        #expect(Date().timeIntervalSince(started) < 300, "asked because of the signal, long before its 600 s recheck")
    }

    @Test("a wall clock stepped back an hour does not hold the next round for the hour: a clock gone back past the round's start starts the next at once")
    func clockSteppedBack() async throws {
        let offset = Offset()
        let rounds = Counter()
        // A round every 10 minutes at the longest, asking for none sooner: only the step
        // can start the second within the test's time, however loaded the machine.
        let work = RecurringWork(name: "test", clock: { Date().addingTimeInterval(offset.value) }, longest: 600, recheck: 0.1, round: { _ in
            rounds.add()
            return nil
        })
        let running = Task { try await work.run() }
        defer { running.cancel() }
        for _ in 0..<6_000 where rounds.value == 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(rounds.value == 1)
        offset.set(-3_600)
        let stepped = Date()
        // Up to 300 s, half the 600 s after which the round would start anyway: a CI run
        // whose other tests starved Swift's threads took 60.5 s (the local CI of aa30fe3).
        for _ in 0..<15_000 where rounds.value < 2 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(rounds.value >= 2)
        #expect(Date().timeIntervalSince(stepped) < 300, "the next round started after the step, not at the 600 s longest wait nor 70 minutes on")
    }
}

final class Offset: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var seconds: TimeInterval = 0
    func set(_ value: TimeInterval) { lock.withLock { seconds = value } }
    var value: TimeInterval { lock.withLock { seconds } }
}

final class Counter: @unchecked Sendable { // guarded by lock
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
