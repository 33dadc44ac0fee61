import Testing

@testable import BinobanCore

@Suite("Backoff schedule")
struct BackoffScheduleTests {
    let schedule = BackoffSchedule(baseMillis: 1000, factor: 2.0, maxMillis: 60_000)

    @Test("The ceiling doubles per retry and is capped at backoffMaxMillis")
    func ceilings() {
        #expect(
            (1...8).map { schedule.ceilingMillis(forRetry: $0) } == [
                1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000,
            ])
    }

    @Test("Full jitter stays within 0...ceiling", arguments: [0.0, 0.25, 0.5, 0.999_999])
    func jitterBounds(jitter: Double) {
        for retry in 1...10 {
            let delay = schedule.delayMillis(forRetry: retry, jitter: jitter)
            #expect(delay >= 0)
            #expect(delay <= schedule.ceilingMillis(forRetry: retry))
            #expect(delay == Int((Double(schedule.ceilingMillis(forRetry: retry)) * jitter).rounded(.down)))
        }
    }

    @Test("An enormous factor saturates at the cap instead of overflowing")
    func hugeFactor() {
        let wild = BackoffSchedule(baseMillis: 1000, factor: 1e300, maxMillis: 60_000)
        #expect(wild.ceilingMillis(forRetry: 5) == 60_000)
    }
}
