import Testing

@testable import BinobanCore

@Suite("Purge machine: one purge at a time, each caller served by a purge that started after its call")
struct PurgeMachineTests {
    @Test("Nothing starts without a caller; the callers waiting start one purge together and get its result")
    func callersShareOnePurge() {
        var machine = PurgeMachine()
        #expect(machine.handle(.pump) == nil)
        #expect(!machine.isRunning)
        #expect(machine.handle(.requested(waiter: 1)) == nil)
        #expect(machine.handle(.requested(waiter: 2)) == nil)
        #expect(machine.handle(.pump) == .purge)
        #expect(machine.isRunning)
        #expect(machine.handle(.pump) == nil)
        let result = BinobanPurgeResult(purgedEvents: 40, purgedBatches: 2)
        #expect(machine.handle(.purged(result)) == .resume([1, 2], result))
        #expect(!machine.isRunning)
        #expect(machine.handle(.pump) == nil)
    }

    @Test("A caller that arrives while a purge runs waits for the next one")
    func lateCallerWaitsForTheNextPurge() {
        var machine = PurgeMachine()
        _ = machine.handle(.requested(waiter: 1))
        #expect(machine.handle(.pump) == .purge)
        _ = machine.handle(.requested(waiter: 2))
        // Not while the first runs.
        #expect(machine.handle(.pump) == nil)
        let first = BinobanPurgeResult(purgedEvents: 3, purgedBatches: 1)
        #expect(machine.handle(.purged(first)) == .resume([1], first))
        #expect(machine.handle(.pump) == .purge)
        #expect(machine.handle(.purged(BinobanPurgeResult())) == .resume([2], BinobanPurgeResult()))
    }

    @Test("Stopping resumes the callers whose purge will not run with nothing purged; the running one still ends")
    func stopAbandonsWaitingCallers() {
        var machine = PurgeMachine()
        #expect(machine.handle(.stopped) == nil)
        _ = machine.handle(.requested(waiter: 1))
        #expect(machine.handle(.pump) == .purge)
        _ = machine.handle(.requested(waiter: 2))
        _ = machine.handle(.requested(waiter: 3))
        #expect(machine.handle(.stopped) == .resume([2, 3], BinobanPurgeResult()))
        #expect(machine.handle(.stopped) == nil)
        #expect(machine.isRunning)
        let result = BinobanPurgeResult(purgedEvents: 1, purgedBatches: 1)
        #expect(machine.handle(.purged(result)) == .resume([1], result))
        #expect(machine.handle(.pump) == nil)
    }

    @Test("An answer to no purge resumes nobody and changes nothing")
    func answerToNoPurge() {
        var machine = PurgeMachine()
        _ = machine.handle(.requested(waiter: 5))
        #expect(machine.handle(.purged(BinobanPurgeResult())) == .resume([], BinobanPurgeResult()))
        #expect(machine.handle(.pump) == .purge)
    }
}
