import BinobanCoreTesting
import Testing

@testable import BinobanCore

@Suite("Flush policy machine")
struct FlushPolicyTests {
    typealias Policy = FlushPolicy<ManualClock.Instant>
    let t0 = ManualClock.Instant(offset: .zero)

    func at(_ seconds: Int) -> ManualClock.Instant { ManualClock.Instant(offset: .seconds(seconds)) }

    @Test("Start uploads what a previous run left and arms the interval timer")
    func start() {
        var policy = Policy(enabled: true, flushAt: 20, flushInterval: .seconds(30))
        #expect(policy.handle(.started, at: t0) == [.upload(.startup), .scheduleTimer(at: at(30))])
    }

    @Test("flushAt counts stored events and resets after each upload")
    func count() {
        var policy = Policy(enabled: true, flushAt: 3, flushInterval: .seconds(30))
        #expect(policy.handle(.eventsStored(2), at: t0) == [])
        #expect(policy.handle(.eventsStored(1), at: t0) == [.upload(.count)])
        #expect(policy.handle(.eventsStored(2), at: t0) == [])
        #expect(policy.handle(.eventsStored(5), at: t0) == [.upload(.count)])
        #expect(policy.storedSinceFlush == 0)
    }

    @Test("The timer uploads and re-arms one interval later")
    func interval() {
        var policy = Policy(enabled: true, flushAt: 20, flushInterval: .seconds(30))
        _ = policy.handle(.started, at: t0)
        #expect(policy.handle(.timerFired, at: at(30)) == [.upload(.interval), .scheduleTimer(at: at(60))])
    }

    @Test("A runtime flushAt change applies at once; an interval change reschedules from now")
    func runtimeChanges() {
        var policy = Policy(enabled: true, flushAt: 20, flushInterval: .seconds(30))
        _ = policy.handle(.started, at: t0)
        _ = policy.handle(.eventsStored(5), at: t0)
        #expect(
            policy.handle(.settingsChanged(enabled: true, flushAt: 5, flushInterval: .seconds(30)), at: at(1)) == [
                .upload(.count)
            ])
        #expect(
            policy.handle(.settingsChanged(enabled: true, flushAt: 5, flushInterval: .seconds(10)), at: at(4))
                == [.scheduleTimer(at: at(14))]
        )
        #expect(policy.timerDeadline == at(14))
    }

    @Test("Pausing cancels the timer and ignores everything; resuming uploads and re-arms")
    func pauseResume() {
        var policy = Policy(enabled: true, flushAt: 1, flushInterval: .seconds(30))
        _ = policy.handle(.started, at: t0)
        #expect(
            policy.handle(.settingsChanged(enabled: false, flushAt: 1, flushInterval: .seconds(30)), at: at(1)) == [
                .cancelTimer
            ])
        #expect(policy.handle(.eventsStored(3), at: at(2)) == [])
        #expect(policy.handle(.timerFired, at: at(30)) == [])
        #expect(policy.handle(.explicitFlush, at: at(31)) == [])
        #expect(
            policy.handle(.settingsChanged(enabled: true, flushAt: 1, flushInterval: .seconds(30)), at: at(40))
                == [.upload(.resumed), .scheduleTimer(at: at(70))]
        )
    }

    @Test("An explicit flush resets the count")
    func explicitResets() {
        var policy = Policy(enabled: true, flushAt: 3, flushInterval: .seconds(30))
        _ = policy.handle(.eventsStored(2), at: t0)
        #expect(policy.handle(.explicitFlush, at: t0) == [.upload(.explicit)])
        #expect(policy.handle(.eventsStored(2), at: t0) == [])
    }
}
