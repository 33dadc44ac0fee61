import BinobanCoreTesting

@testable import BinobanCore

/// A started pipeline machine with the default upload rules, for the delivery tests that drive it by hand.
func deliveryTestMachine(reportsDeliveries: Bool, flushAt: Int) -> PipelineMachine<ManualClock.Instant> {
    let rules = PipelineRules(
        maxFilesPerFlush: 20, maxRetries: 3,
        backoff: BackoffSchedule(baseMillis: 1000, factor: 2, maxMillis: 60_000),
        retryAfterLimit: .seconds(600),
        maxConcurrentUploads: 1, backpressure: .dropOldest, hasTransport: true, reportsDeliveries: reportsDeliveries)
    var machine = PipelineMachine<ManualClock.Instant>(
        rules: rules, settings: .init(enabled: true, flushAt: flushAt, flushInterval: .seconds(3600)))
    let now = ManualClock.Instant(offset: .zero)
    _ = machine.handle(.started, at: now)
    _ = machine.handle(.listed([]), at: now)
    return machine
}
