import Testing

@testable import BinobanCore

@Suite("Flush results: what each awaited flush returns")
struct FlushResultsTests {
    @Test("A result counts uploads and rejections since its waiter registered, and drops since the last result")
    func countsSinceRegistration() {
        var results = FlushResults()
        var statistics = BinobanStatistics()
        statistics.uploadedBatches = 2
        statistics.uploadedEvents = 20
        statistics.dropped.paused = 3
        results.registerIfAbsent(1, at: statistics)
        statistics.uploadedBatches = 5
        statistics.uploadedEvents = 50
        statistics.requests.rejected = 1
        statistics.dropped.rejected = 4
        let first = results.result(for: 1, base: BinobanFlushResult(outcome: .completed), at: statistics)
        #expect(first.outcome == .completed)
        #expect(first.uploadedBatches == 3 && first.uploadedEvents == 30)
        #expect(first.rejectedBatches == 1 && first.rejectedEvents == 4)
        // Every drop so far (the 3 paused before registration too) is told once, in the first result.
        #expect(first.droppedEvents == 7)
        // A waiter never registered saw nothing uploaded; the drops were told already.
        let second = results.result(for: 2, base: BinobanFlushResult(outcome: .paused), at: statistics)
        #expect(second.uploadedEvents == 0 && second.rejectedEvents == 0 && second.droppedEvents == 0)
        #expect(second.outcome == .paused)
    }

    @Test("A ticket's baseline, taken when the host asked, wins over the figures when the machine asks for the pass")
    func ticketBaselineWins() {
        var results = FlushResults()
        var statistics = BinobanStatistics()
        let asked = FlushResults.Baseline(statistics)
        // Between the host's call and the pass: one batch of 4 events rejected.
        statistics.requests.rejected = 1
        statistics.dropped.rejected = 4
        results.register(1, from: asked)
        results.registerIfAbsent(1, at: statistics)
        let result = results.result(for: 1, base: BinobanFlushResult(outcome: .completed), at: statistics)
        #expect(result.rejectedBatches == 1 && result.rejectedEvents == 4)
    }
}
