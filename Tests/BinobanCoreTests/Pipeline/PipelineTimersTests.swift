import BinobanCoreTesting
import Testing

@testable import BinobanCore

private typealias Instant = ManualClock.Instant

private func at(_ seconds: Int64) -> Instant { Instant(offset: .seconds(seconds)) }

@Suite("Pipeline timers: the interval flush and the error summaries as deadlines")
struct PipelineTimersTests {
    @Test("The interval flush fires once per period from when it fired; stopping it leaves no deadline")
    func interval() {
        var timers = PipelineTimers<Instant>()
        #expect(timers.next(summaries: true) == nil)
        timers.armInterval(at: at(0), every: .seconds(30))
        let early = timers.takeIntervalDue(at: at(29), every: .seconds(30))
        #expect(!early)
        // Late by 5 s: the next one is a period after it fired, not after it was due.
        let late = timers.takeIntervalDue(at: at(35), every: .seconds(30))
        #expect(late)
        #expect(timers.interval == at(65))
        timers.stopInterval()
        let stopped = timers.takeIntervalDue(at: at(100), every: .seconds(30))
        #expect(!stopped)
        #expect(timers.next(summaries: true) == nil)
    }

    @Test("The earliest pending summary keeps its deadline until it is taken; stopped, it is left out")
    func summaries() {
        var timers = PipelineTimers<Instant>()
        timers.summaryPending(at: at(10))
        timers.summaryPending(at: at(5))
        #expect(timers.summary == at(10))
        #expect(timers.next(summaries: true, at(20), nil) == at(10))
        #expect(timers.next(summaries: false, at(20), nil) == at(20))
        let earlySummary = timers.takeSummaryDue(at: at(9))
        #expect(!earlySummary)
        let dueSummary = timers.takeSummaryDue(at: at(10))
        #expect(dueSummary)
        #expect(timers.summary == nil)
        timers.summaryPending(at: at(12))
        timers.armInterval(at: at(0), every: .seconds(3))
        #expect(timers.next(summaries: true) == at(3))
        timers.stopAll()
        #expect(timers.next(summaries: true) == nil)
    }
}
