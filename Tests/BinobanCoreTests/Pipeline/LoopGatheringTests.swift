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

    @Test("Where the thread delays signals, every park delays them one window and the loop never gathers")
    func delayedSignalParks() {
        var gathering = LoopGathering(window: window, delaysSignals: true)
        #expect(gathering.parkDelaysSignals())
        #expect(gathering.wokeFromIdle(now: at(10), deadline: at(30_000), byIntakeAlone: true) == nil)
        gathering.turnBegan(withIntakeWork: true)
        gathering.drained(events: 3)
        #expect(gathering.parkDelaysSignals())
        #expect(gathering.wokeFromIdle(now: at(15), deadline: at(30_000), byIntakeAlone: true) == nil)
        #expect(gathering.phase == .idle)
    }

    @Test("After a burst's drain the loop does not gather: the next signal wakes it at once", arguments: [false, true])
    func burstDoesNotGather(delaysSignals: Bool) {
        // Each platform's loop asks its own question: the signal delay where the thread delays signals, the park
        // plan elsewhere.
        var gathering = LoopGathering(window: window, delaysSignals: delaysSignals)
        gathering.turnBegan(withIntakeWork: true)
        gathering.drained(events: LoopGathering.burstDrain)
        if delaysSignals {
            #expect(!gathering.parkDelaysSignals())
        } else {
            #expect(gathering.park(now: at(0), deadline: at(30_000)) == .init(until: at(30_000), holdsSignals: false))
        }
        #expect(gathering.wokeFromIdle(now: at(1), deadline: at(30_000), byIntakeAlone: true) == nil)
        // A smaller drain ends the burst: the loop delays signals, or gathers, again.
        gathering.drained(events: LoopGathering.burstDrain - 1)
        if delaysSignals {
            #expect(gathering.parkDelaysSignals())
        } else {
            #expect(gathering.park(now: at(2), deadline: at(30_000)) == .init(until: at(30_000), holdsSignals: false))
            #expect(
                gathering.wokeFromIdle(now: at(3), deadline: at(30_000), byIntakeAlone: true)
                    == .init(until: at(8), holdsSignals: true))
        }
    }

    @Test("A burst ends a gathering: the next park is an idle one")
    func burstEndsGathering() {
        var gathering = LoopGathering(window: window, delaysSignals: false)
        _ = gathering.park(now: at(0), deadline: nil)
        _ = gathering.wokeFromIdle(now: at(1), deadline: nil, byIntakeAlone: true)
        #expect(gathering.phase == .gathering)
        gathering.turnBegan(withIntakeWork: true)
        gathering.drained(events: 2 * LoopGathering.burstDrain)
        #expect(gathering.park(now: at(6), deadline: nil) == .init(until: nil, holdsSignals: false))
        #expect(gathering.phase == .idle)
        // The burst's events do not count as a window's: after a small drain the loop parks idle, not a window.
        gathering.drained(events: 1)
        #expect(gathering.park(now: at(7), deadline: nil) == .init(until: nil, holdsSignals: false))
    }

    @Test("The signal delay is asked for on every drain: none after a burst, the window after any other")
    func parkDelaysSignalsFollowsEachDrain() {
        var delaying = LoopGathering(window: window, delaysSignals: true)
        let waiting = LoopGathering(window: window, delaysSignals: false)
        for drain in [1, LoopGathering.burstDrain, LoopGathering.burstDrain - 1, 2 * LoopGathering.burstDrain, 0] {
            delaying.turnBegan(withIntakeWork: true)
            delaying.drained(events: drain)
            #expect(delaying.parkDelaysSignals() == (drain < LoopGathering.burstDrain), "after \(drain)")
            #expect(delaying.phase == .idle)
        }
        // Where the thread does not delay signals the loop never asks; the answer is no.
        #expect(!waiting.parkDelaysSignals())
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
