#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A clock whose time moves only through ``advance(by:)``; fully deterministic, it never sleeps.
///
/// `advance(by:)` fires every due timer in deadline order (ties in scheduling order) on the calling thread,
/// with ``now()`` set to the timer's deadline, and after each timer (and at the end) runs the jobs queued on
/// the attached ``ManualFalconExecutor``.
///
/// ```swift
/// let executor = ManualFalconExecutor()
/// let clock = ManualFalconClock(executor: executor)
/// clock.advance(by: .seconds(15))  // the load timeout fires, callbacks are delivered
/// ```
public final class ManualFalconClock: FalconClock {
    private struct Timer {
        var deadline: Duration
        var sequence: Int
        var action: @Sendable () -> Void
    }

    private struct State {
        var now: Duration = .zero
        var nextSequence = 0
        var timers: [Int: Timer] = [:]
    }

    private final class Handle: FalconTimerHandle {
        let sequence: Int
        weak let clock: ManualFalconClock?

        init(sequence: Int, clock: ManualFalconClock) {
            self.sequence = sequence
            self.clock = clock
        }

        func cancel() {
            clock?.cancel(sequence)
        }
    }

    private let state = LockedValue(State())
    private let executor: ManualFalconExecutor?
    private let epoch: Date

    /// Creates a clock at instant zero whose wall time starts at `epoch` (2026-07-08T12:00:00Z by default).
    public init(executor: ManualFalconExecutor? = nil, epoch: Date = Date(timeIntervalSince1970: 1_783_512_000)) {
        self.executor = executor
        self.epoch = epoch
    }

    /// The current instant.
    public func now() -> Duration { state.withLock { $0.now } }

    /// `epoch` plus the time advanced so far.
    public func wallTime() -> Date {
        let now = now()
        let seconds = Double(now.components.seconds) + Double(now.components.attoseconds) / 1e18
        return epoch.addingTimeInterval(seconds)
    }

    /// Records the timer; it fires during a later ``advance(by:)`` (or ``runDueTimers()``).
    public func schedule(_ request: FalconTimerRequest) -> any FalconTimerHandle {
        let sequence = state.withLock { state -> Int in
            state.nextSequence += 1
            state.timers[state.nextSequence] = Timer(
                deadline: request.deadline,
                sequence: state.nextSequence,
                action: request.action
            )
            return state.nextSequence
        }
        return Handle(sequence: sequence, clock: self)
    }

    /// How many timers are scheduled and not cancelled.
    public var pendingTimerCount: Int { state.withLock { $0.timers.count } }

    /// The earliest pending deadline, if any.
    public var nextDeadline: Duration? {
        state.withLock { $0.timers.values.map(\.deadline).min() }
    }

    /// Moves time forward by `duration`, firing due timers in order and running executor jobs.
    public func advance(by duration: Duration) {
        advance(to: now() + duration)
    }

    /// Moves time forward to `instant` (never backwards), firing due timers in order.
    public func advance(to instant: Duration) {
        executor?.runAll()
        while let timer = nextTimer(dueBy: instant) {
            timer.action()
            executor?.runAll()
        }
        state.withLock { $0.now = max($0.now, instant) }
        executor?.runAll()
    }

    /// Fires the timers due at the current instant (deadline ≤ now) and runs executor jobs.
    public func runDueTimers() {
        advance(by: .zero)
    }

    private func nextTimer(dueBy instant: Duration) -> Timer? {
        state.withLock { state -> Timer? in
            let due = state.timers.values.filter { $0.deadline <= instant }
            guard let next = due.min(by: { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }) else {
                return nil
            }
            state.timers[next.sequence] = nil
            state.now = max(state.now, next.deadline)
            return next
        }
    }

    private func cancel(_ sequence: Int) {
        _ = state.withLock { $0.timers.removeValue(forKey: sequence) }
    }
}
