import BinobanCoreTesting
import Testing

@testable import BinobanCore

private typealias Instant = ManualClock.Instant
private typealias Life = PipelineLifeMachine<Instant>

private func at(_ seconds: Int64) -> Instant { Instant(offset: .seconds(seconds)) }

@Suite("Pipeline life machine: created, running, stopping until settled or the deadline, stopped")
struct PipelineLifeMachineTests {
    @Test("Started once it runs; a second start changes nothing")
    func startsOnce() {
        var life = Life()
        #expect(!life.isActive)
        #expect(life.handle(.timePassed, at: at(0)) == nil)
        #expect(life.handle(.started, at: at(0)) == .run(stopBy: nil))
        #expect(life.isRunning)
        #expect(life.isActive)
        #expect(life.handle(.started, at: at(1)) == nil)
        #expect(life.handle(.settled, at: at(1)) == nil)
        #expect(life.life == .running)
    }

    @Test("A shutdown before the storage opened is kept, the first deadline holding, and applied at the start")
    func shutdownBeforeStart() {
        var life = Life()
        #expect(life.handle(.stop(deadline: at(5)), at: at(0)) == nil)
        #expect(life.handle(.stop(deadline: at(9)), at: at(1)) == nil)
        #expect(life.life == .created(stopAt: at(5)))
        #expect(!life.isActive)
        #expect(life.handle(.started, at: at(2)) == .run(stopBy: at(5)))
        // The composite feeds the kept shutdown back.
        #expect(life.handle(.stop(deadline: at(5)), at: at(2)) == .beginStopping)
        #expect(life.deadline == at(5))
    }

    @Test("Stopping lasts until settled; the deadline passes once, at its instant, and is no deadline after")
    func stoppingAndDeadline() {
        var life = Life()
        _ = life.handle(.started, at: at(0))
        #expect(life.deadline == nil)
        #expect(life.stoppingDeadlinePassed == nil)
        #expect(life.handle(.stop(deadline: at(10)), at: at(1)) == .beginStopping)
        #expect(life.handle(.stop(deadline: at(2)), at: at(1)) == nil)
        #expect(life.deadline == at(10))
        #expect(life.stoppingDeadlinePassed == false)
        #expect(life.handle(.timePassed, at: at(9)) == nil)
        #expect(!life.deadlinePassed)
        #expect(life.handle(.timePassed, at: at(10)) == .deadlinePassed)
        #expect(life.deadlinePassed)
        #expect(life.deadline == nil)
        #expect(life.isActive)
        #expect(life.handle(.timePassed, at: at(11)) == nil)
        #expect(life.handle(.settled, at: at(12)) == .finish)
        #expect(life.life == .stopped)
        #expect(!life.isActive)
        #expect(!life.deadlinePassed)
        #expect(life.handle(.settled, at: at(13)) == nil)
        #expect(life.handle(.stop(deadline: at(20)), at: at(13)) == nil)
        #expect(life.handle(.started, at: at(13)) == nil)
    }

    @Test("A shutdown that settles before its deadline finishes without the deadline passing")
    func settlesInTime() {
        var life = Life()
        _ = life.handle(.started, at: at(0))
        _ = life.handle(.stop(deadline: at(10)), at: at(1))
        #expect(life.handle(.settled, at: at(2)) == .finish)
        #expect(life.handle(.timePassed, at: at(10)) == nil)
        #expect(life.life == .stopped)
    }
}
