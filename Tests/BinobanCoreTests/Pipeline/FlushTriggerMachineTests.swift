import Testing

@testable import BinobanCore

@Suite("Flush trigger machine: when a pass is asked for (count, interval, resume, tickets)")
struct FlushTriggerMachineTests {
    private let plainPass = FlushTriggerMachine.Action.requestPass(exhaustive: false, waiters: [])

    @Test("Stored events ask for a pass once they reach flushAt, and the count starts again")
    func countRule() {
        var machine = FlushTriggerMachine()
        #expect(machine.handle(.stored(events: 4, flushAt: 10, enabled: true)) == nil)
        #expect(machine.handle(.stored(events: 5, flushAt: 10, enabled: true)) == nil)
        #expect(machine.handle(.stored(events: 1, flushAt: 10, enabled: true)) == plainPass)
        #expect(machine.handle(.stored(events: 9, flushAt: 10, enabled: true)) == nil)
        // One chunk past the threshold asks once.
        #expect(machine.handle(.stored(events: 25, flushAt: 10, enabled: true)) == plainPass)
        #expect(machine.handle(.stored(events: 0, flushAt: 1, enabled: true)) == nil)
    }

    @Test("Events stored while paused do not count")
    func pausedDoesNotCount() {
        var machine = FlushTriggerMachine()
        #expect(machine.handle(.stored(events: 50, flushAt: 10, enabled: false)) == nil)
        #expect(machine.handle(.flushAtApplied(10)) == nil)
        #expect(machine.handle(.stored(events: 9, flushAt: 10, enabled: true)) == nil)
    }

    @Test("A lowered flushAt that the count reached asks for a pass at once")
    func loweredFlushAt() {
        var machine = FlushTriggerMachine()
        #expect(machine.handle(.stored(events: 6, flushAt: 20, enabled: true)) == nil)
        #expect(machine.handle(.flushAtApplied(20)) == nil)
        #expect(machine.handle(.flushAtApplied(6)) == plainPass)
        #expect(machine.handle(.flushAtApplied(1)) == nil)
    }

    @Test("The interval and a resume ask for a pass and start the count again")
    func intervalAndResume() {
        var machine = FlushTriggerMachine()
        _ = machine.handle(.stored(events: 9, flushAt: 10, enabled: true))
        #expect(machine.handle(.intervalDue) == plainPass)
        #expect(machine.handle(.stored(events: 9, flushAt: 10, enabled: true)) == nil)
        #expect(machine.handle(.resumed) == plainPass)
        #expect(machine.handle(.stored(events: 9, flushAt: 10, enabled: true)) == nil)
    }

    @Test("Tickets ask for a pass, exhaustive when a caller awaits one, and start the count again; none ask nothing")
    func tickets() {
        var machine = FlushTriggerMachine()
        #expect(machine.handle(.ticketsDue([])) == nil)
        _ = machine.handle(.stored(events: 9, flushAt: 10, enabled: true))
        #expect(machine.handle(.ticketsDue([.init(waiterID: nil)])) == plainPass)
        #expect(machine.handle(.stored(events: 9, flushAt: 10, enabled: true)) == nil)
        #expect(
            machine.handle(.ticketsDue([.init(waiterID: 3), .init(waiterID: nil), .init(waiterID: 5)]))
                == .requestPass(exhaustive: true, waiters: [3, 5]))
        #expect(machine.handle(.stored(events: 9, flushAt: 10, enabled: true)) == nil)
    }
}
