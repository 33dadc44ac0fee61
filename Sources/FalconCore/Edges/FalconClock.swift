#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A scheduled timer that can be cancelled.
public protocol FalconTimerHandle: Sendable {
    /// Cancels the timer; a cancelled timer never runs. Cancelling twice is harmless.
    func cancel()
}

/// A timer request: run `action` once the clock reaches `deadline`.
public struct FalconTimerRequest: Sendable {
    /// The instant, on the clock's own time line, at which to run.
    public var deadline: Duration
    /// What to run; called at most once, on any thread.
    public var action: @Sendable () -> Void

    /// Creates a request.
    package init(deadline: Duration, action: @escaping @Sendable () -> Void) {
        self.deadline = deadline
        self.action = action
    }
}

/// Time for the SDK: a monotonic time line for timers and a wall clock for beacon timestamps.
///
/// Tests use `ManualFalconClock` from FalconCoreTesting, whose time moves only when the test says so.
public protocol FalconClock: Sendable {
    /// The current instant on the monotonic time line (an offset from an arbitrary origin).
    func now() -> Duration
    /// The current wall-clock time, used only for a beacon's `ts`.
    func wallTime() -> Date
    /// Schedules a timer.
    func schedule(_ request: FalconTimerRequest) -> any FalconTimerHandle
}
