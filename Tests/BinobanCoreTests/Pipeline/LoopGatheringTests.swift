import Testing

@testable import BinobanCore

@Suite("Pipeline loop: gathering events into windows")
struct LoopGatheringTests {
    private let start = ContinuousClock.now
    private let window = Duration.milliseconds(5)

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start.advanced(by: .milliseconds(milliseconds))
    }

    @Test("An idle loop parks until its deadline, and the intake's signal ends the park")
    func idleParksUntilDeadline() {
        var gathering = LoopGathering(window: window, delaysSignals: false)
        #expect(gathering.park(now: at(0), deadline: at(30_000)) == .init(until: at(30_000), holdsSignals: false))
        #expect(gathering.park(now: at(0), deadline: nil) == .init(until: nil, holdsSignals: false))
        #expect(gathering.phase == .idle)
    }

    @Test("Woken by the intake alone, the loop gathers one window with signals held; woken by anything else, not")
    func gathersAfterIntakeWake() {
        var gathering = LoopGathering(window: window, delaysSignals: false)
        _ = gathering.park(now: at(0), deadline: nil)
        #expect(gathering.wokeFromIdle(now: at(100), deadline: nil, byIntakeAlone: false) == nil)
        #expect(gathering.phase == .idle)
        #expect(
            gathering.wokeFromIdle(now: at(100), deadline: nil, byIntakeAlone: true)
                == .init(until: at(105), holdsSignals: true))
        #expect(gathering.phase == .gathering)
    }

    @Test("While windows find events the loop keeps gathering; the first empty window returns it to idle")
    func keepsGatheringUntilAnEmptyWindow() {
        var gathering = LoopGathering(window: window, delaysSignals: false)
        _ = gathering.park(now: at(0), deadline: at(30_000))
        _ = gathering.wokeFromIdle(now: at(10), deadline: at(30_000), byIntakeAlone: true)
        // The window's turn took the intake's events: the next park is another window, not an idle one.
        gathering.turnBegan(withIntakeWork: true)
        #expect(gathering.park(now: at(15), deadline: at(30_000)) == .init(until: at(20), holdsSignals: true))
        gathering.turnBegan(withIntakeWork: true)
        #expect(gathering.park(now: at(20), deadline: at(30_000)) == .init(until: at(25), holdsSignals: true))
        // A turn for an upload's answer alone is not a sign that events keep coming.
        gathering.turnBegan(withIntakeWork: false)
        #expect(gathering.park(now: at(25), deadline: at(30_000)) == .init(until: at(30_000), holdsSignals: false))
        #expect(gathering.phase == .idle)
        // Idle again: parks stay idle until the intake wakes the loop.
        #expect(gathering.park(now: at(26), deadline: at(30_000)) == .init(until: at(30_000), holdsSignals: false))
    }

    @Test("Where the thread delays signals, every park is an idle one whose first signal ends it a window later")
    func delayedSignalParks() {
        var gathering = LoopGathering(window: window, delaysSignals: true)
        let idle = LoopGathering.Park(until: at(30_000), holdsSignals: false, signalDelay: window)
        #expect(gathering.park(now: at(0), deadline: at(30_000)) == idle)
        #expect(gathering.wokeFromIdle(now: at(10), deadline: at(30_000), byIntakeAlone: true) == nil)
        gathering.turnBegan(withIntakeWork: true)
        #expect(gathering.park(now: at(15), deadline: at(30_000)) == idle)
        #expect(gathering.phase == .idle)
    }

    @Test("After a burst's drain the loop does not gather: the next signal wakes it at once", arguments: [false, true])
    func burstDoesNotGather(delaysSignals: Bool) {
        var gathering = LoopGathering(window: window, delaysSignals: delaysSignals)
        gathering.turnBegan(withIntakeWork: true)
        gathering.drained(events: LoopGathering.burstDrain)
        #expect(gathering.park(now: at(0), deadline: at(30_000)) == .init(until: at(30_000), holdsSignals: false))
        #expect(gathering.wokeFromIdle(now: at(1), deadline: at(30_000), byIntakeAlone: true) == nil)
        // A smaller drain ends the burst: the loop gathers again.
        gathering.drained(events: LoopGathering.burstDrain - 1)
        let next = gathering.park(now: at(2), deadline: at(30_000))
        #expect(next.signalDelay == (delaysSignals ? window : nil))
    }

    @Test("The loop's instant-free question gives the plan's signal delay, burst or not", arguments: [false, true])
    func parkDelaysSignalsMatchesThePlan(delaysSignals: Bool) {
        var asked = LoopGathering(window: window, delaysSignals: delaysSignals)
        var planned = asked
        for drain in [1, LoopGathering.burstDrain, LoopGathering.burstDrain - 1, 2 * LoopGathering.burstDrain] {
            asked.turnBegan(withIntakeWork: true)
            planned.turnBegan(withIntakeWork: true)
            asked.drained(events: drain)
            planned.drained(events: drain)
            let plan = planned.park(now: at(0), deadline: at(30_000))
            let delays = asked.parkDelaysSignals()
            if delaysSignals {
                #expect(delays == (plan.signalDelay != nil))
                #expect(asked == planned)
            } else {
                // Where the thread does not delay signals the loop never asks; the answer is no, the plan's delay none.
                #expect(!delays)
                #expect(plan.signalDelay == nil)
            }
        }
    }

    @Test("A window never outlasts the loop's deadline")
    func windowEndsAtDeadline() {
        var gathering = LoopGathering(window: window, delaysSignals: false)
        _ = gathering.park(now: at(0), deadline: at(12))
        #expect(
            gathering.wokeFromIdle(now: at(10), deadline: at(12), byIntakeAlone: true)
                == .init(until: at(12), holdsSignals: true))
        gathering.turnBegan(withIntakeWork: true)
        #expect(gathering.park(now: at(12), deadline: at(13)) == .init(until: at(13), holdsSignals: true))
    }
}
