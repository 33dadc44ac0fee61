import Testing

@testable import BinobanCore

/// The composite performs its small machines' actions where the order is observable.
@Suite("Pipeline machine: the order in which the composite performs its parts' actions")
struct PipelineMachineCompositionTests {
    private let b1 = BinobanBatchID(sequence: 1)

    @Test("A held write asks for its pass before the count flush merges a follow-up; its tickets wait for the suffix")
    func holdThenCountFlushThenTickets() {
        var rig = MachineRig(flushAt: 5, backpressure: .wait)
        rig.startEmpty()
        #expect(rig.feed(.intakeHasWork) == [.takeDrain])
        var drain = PipelineDrain()
        drain.eventCount = 10
        drain.acceptedEvents = 10
        drain.tickets = [EventIntake.FlushTicket(waiterID: 1)]
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        // 6 stored (past flushAt), 4 refused and held: the hold's pass runs, the count's pass follows it.
        let written = rig.feed(
            .written(BinobanStorageWriteReport(storedEvents: 6, refusedEvents: 4), storedBytes: 60, moreInDrain: false))
        #expect(written == [.list(limit: 20)])
        #expect(rig.machine.writeStage == .holding(tickets: [EventIntake.FlushTicket(waiterID: 1)]))
        guard case .running(_, let followUp) = rig.machine.passes else {
            Issue.record("no pass runs: \(rig.machine.passes)")
            return
        }
        #expect(followUp != nil)
        // The upload frees room: the held suffix is written, and only then is the awaited flush asked for.
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.feed(.read(b1, eventCount: 6, bytes: 60)) == [.send(b1)])
        let answered = rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0))
        #expect(answered.contains(.remove(b1)))
        #expect(!answered.contains { if case .resume = $0 { true } else { false } })
        // The hold's pass ends with the deletion and its follow-up lists.
        #expect(rig.feed(.removed(b1)) == [.write(.refuse), .list(limit: 20)])
        let suffix = rig.feed(
            .written(BinobanStorageWriteReport(storedEvents: 4), storedBytes: 40, moreInDrain: false))
        #expect(!suffix.contains { if case .resume = $0 { true } else { false } })
        #expect(rig.machine.writeStage == .idle)
        guard case .running(let current, let next) = rig.machine.passes else {
            Issue.record("no pass runs: \(rig.machine.passes)")
            return
        }
        // The awaited flush merged into the follow-up of the pass that runs now.
        #expect((current.waiters + (next?.waiters ?? [])) == [1])
    }
}
