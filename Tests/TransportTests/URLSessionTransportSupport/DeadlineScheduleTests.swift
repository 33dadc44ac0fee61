import Testing
import URLSessionTransportSupport

@Suite("DeadlineSchedule")
struct DeadlineScheduleTests {
    @Test("the first deadline sets the timer; later ones with the same timeout set nothing")
    func laterDeadlinesSetNothing() {
        var schedule = DeadlineSchedule<Int>()
        #expect(schedule.add(1, deadline: 100) == 100)
        #expect(schedule.add(2, deadline: 110) == nil)
        #expect(schedule.add(3, deadline: 110) == nil)
        #expect(schedule.armedFor == 100)
        #expect(schedule.count == 3)
    }

    @Test("a deadline before the one the timer waits for sets the timer earlier")
    func earlierDeadlineSetsTheTimerEarlier() {
        var schedule = DeadlineSchedule<Int>()
        #expect(schedule.add(1, deadline: 100) == 100)
        #expect(schedule.add(2, deadline: 40) == 40)
        #expect(schedule.armedFor == 40)
        let fired40 = fired(&schedule, at: 40)
        #expect(fired40 == FireResult(due: [2], next: 100))
    }

    @Test("a request that ends early is forgotten; the timer fires with nothing due and moves to the next deadline")
    func forgottenDeadlineIsNeverDue() {
        var schedule = DeadlineSchedule<Int>()
        _ = schedule.add(1, deadline: 100)
        _ = schedule.add(2, deadline: 160)
        schedule.remove(1)
        #expect(schedule.armedFor == 100)  // left as it was
        let fired100 = fired(&schedule, at: 100)
        #expect(fired100 == FireResult(due: [], next: 160))
        let fired160 = fired(&schedule, at: 160)
        #expect(fired160 == FireResult(due: [2], next: nil))
        #expect(schedule.armedFor == nil)
        #expect(schedule.count == 0)
    }

    @Test("every deadline at or before the firing moment is due, in the order added; later ones wait")
    func everyDueDeadlineFires() {
        var schedule = DeadlineSchedule<Int>()
        _ = schedule.add(1, deadline: 100)
        _ = schedule.add(2, deadline: 100)
        _ = schedule.add(3, deadline: 90)
        _ = schedule.add(4, deadline: 130)
        // The timer fires late (the machine was busy): both past deadlines are due at once.
        let fired105 = fired(&schedule, at: 105)
        #expect(fired105 == FireResult(due: [1, 2, 3], next: 130))
        // Early by a little (Dispatch's clock): nothing is due before its time, and the timer is set again.
        let fired129 = fired(&schedule, at: 129)
        #expect(fired129 == FireResult(due: [], next: 130))
        let fired130 = fired(&schedule, at: 130)
        #expect(fired130 == FireResult(due: [4], next: nil))
    }

    @Test("after the schedule empties, the next deadline sets the timer again")
    func emptyScheduleSetsTheTimerAgain() {
        var schedule = DeadlineSchedule<Int>()
        _ = schedule.add(1, deadline: 100)
        schedule.remove(1)
        let fired100 = fired(&schedule, at: 100)
        #expect(fired100 == FireResult(due: [], next: nil))
        #expect(schedule.add(2, deadline: 250) == 250)
        let fired250 = fired(&schedule, at: 250)
        #expect(fired250 == FireResult(due: [2], next: nil))
    }

    @Test("removing a key that is not pending changes nothing")
    func removingAnUnknownKey() {
        var schedule = DeadlineSchedule<Int>()
        _ = schedule.add(1, deadline: 100)
        schedule.remove(7)
        #expect(schedule.count == 1)
        let fired100 = fired(&schedule, at: 100)
        #expect(fired100 == FireResult(due: [1], next: nil))
    }
}

/// What `fire(at:)` returned, comparable as one value.
private struct FireResult: Equatable {
    var due: [Int]
    var next: UInt64?
}

private func fired(_ schedule: inout DeadlineSchedule<Int>, at now: UInt64) -> FireResult {
    let (due, next) = schedule.fire(at: now)
    return FireResult(due: due, next: next)
}
