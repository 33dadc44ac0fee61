import Dispatch

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
    public init(deadline: Duration, action: @escaping @Sendable () -> Void) {
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

/// The default clock: `ContinuousClock` for instants, `Date()` for wall time, Dispatch for timers.
public struct FalconSystemClock: FalconClock {
    private let origin = ContinuousClock.now

    /// Creates a clock whose time line starts now.
    public init() {}

    /// Time elapsed since the clock was created.
    public func now() -> Duration { ContinuousClock.now - origin }

    /// `Date()`.
    public func wallTime() -> Date { Date() }

    /// Schedules the action on a global Dispatch queue.
    public func schedule(_ request: FalconTimerRequest) -> any FalconTimerHandle {
        let handle = CancellableTimer(action: request.action)
        // Clamped to [0, one year] so no deadline can overflow the nanosecond arithmetic.
        let delay = min(max(request.deadline - now(), .zero), .seconds(31_536_000))
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { handle.fire() }
        return handle
    }

    private final class CancellableTimer: FalconTimerHandle {
        private let action: LockedValue<(@Sendable () -> Void)?>

        init(action: @escaping @Sendable () -> Void) {
            self.action = LockedValue(action)
        }

        func fire() {
            let pending = action.withLock { slot -> (@Sendable () -> Void)? in
                defer { slot = nil }
                return slot
            }
            pending?()
        }

        func cancel() {
            action.withLock { $0 = nil }
        }
    }
}
