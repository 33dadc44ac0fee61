/// A point in the pipeline's time: how long after the instance's creation, on its configured clock. One concrete
/// type, so that the loop and the machine it drives are compiled for it (specialised), whatever clock the host or
/// a test configured: generic over the clock, the hot path looked up generic metadata on every step.
struct PipelineInstant: InstantProtocol, Sendable, Hashable {
    /// The time since the instance was created.
    var offset: Duration

    func advanced(by duration: Duration) -> PipelineInstant { PipelineInstant(offset: offset + duration) }

    func duration(to other: PipelineInstant) -> Duration { other.offset - offset }

    static func < (lhs: PipelineInstant, rhs: PipelineInstant) -> Bool { lhs.offset < rhs.offset }
}

/// The configured clock seen through ``PipelineInstant``: reading it, and sleeping on it for the clocks the loop's
/// thread cannot time itself (a test's manual clock).
struct PipelineClock: Sendable {
    /// The current instant.
    let now: @Sendable () -> PipelineInstant
    /// Whether the clock is a real one (continuous or suspending), whose deadlines the loop's thread times as its
    /// wait's timeout.
    let realTime: Bool
    /// Sleeps on the clock until the instant; throws when the task is cancelled.
    let sleep: @Sendable (PipelineInstant) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let origin = clock.now
        realTime = C.self == ContinuousClock.self || C.self == SuspendingClock.self
        if let continuous = origin as? ContinuousClock.Instant {
            // The default clock read directly, without a call through the generic clock.
            now = { PipelineInstant(offset: continuous.duration(to: .now)) }
        } else {
            now = { PipelineInstant(offset: origin.duration(to: clock.now)) }
        }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0.offset), tolerance: nil) }
    }

    /// `instant` on the continuous clock (for a real clock, whose time the continuous clock keeps).
    func continuousInstant(of instant: PipelineInstant) -> ContinuousClock.Instant {
        ContinuousClock.now.advanced(by: now().duration(to: instant))
    }
}
