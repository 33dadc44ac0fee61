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

    @Test("An upload answered between the host's flush call and the drain that carries its ticket counts in its result")
    func answerBeforeTheTicketsDrainCounts() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        #expect(rig.write(2) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 2) == [.send(b1)])
        // The host asks for an awaited flush now, with the figures it can read.
        let asked = FlushResults.Baseline(rig.machine.statistics)
        // The rejection reaches the machine before the drain that carries the ticket (the loop took the drain and
        // the answer in one turn).
        #expect(rig.feed(.answered(b1, status: 400, retryAfter: nil, jitter: 0)).contains(.remove(b1)))
        _ = rig.feed(.removed(b1))
        let b2 = BinobanBatchID(sequence: 2)
        #expect(rig.write(1, tickets: [.init(waiterID: 9, baseline: asked)]) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b2])) == [.read(b2)])
        #expect(rig.readAndSend(b2, events: 1) == [.send(b2)])
        #expect(rig.feed(.answered(b2, status: 200, retryAfter: nil, jitter: 0)) == [.remove(b2)])
        let resumed = rig.feed(.removed(b2))
        guard case .resume(9, let result)? = resumed.first else {
            Issue.record("the flush was not resumed: \(resumed)")
            return
        }
        #expect(result.outcome == .completed)
        #expect(result.rejectedBatches == 1 && result.rejectedEvents == 2)
        #expect(result.uploadedBatches == 1 && result.uploadedEvents == 1)
    }
}
