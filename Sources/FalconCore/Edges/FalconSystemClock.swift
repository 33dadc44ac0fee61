#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The default clock: `ContinuousClock` for instants, `Date()` for wall time, and one deadline heap driven by
/// a single Dispatch timer source for timers.
///
/// Copies share the heap; each `FalconSystemClock()` (one per ``FalconClientDependencies`` by default) has its
/// own. A cancelled timer is dropped from the heap at once, so its closure and entry are freed on cancel
/// rather than at the deadline (Docs/Decisions/0109).
@usableFromInline package struct FalconSystemClock: FalconClock {
    private let origin: ContinuousClock.Instant
    private let timers: FalconTimerQueue

    /// Creates a clock whose time line starts now.
    @usableFromInline package init() {
        let origin = ContinuousClock.now
        self.origin = origin
        self.timers = FalconTimerQueue(now: { ContinuousClock.now - origin })
    }

    /// Time elapsed since the clock was created.
    @usableFromInline package func now() -> Duration { ContinuousClock.now - origin }

    /// `Date()`.
    @usableFromInline package func wallTime() -> Date { Date() }

    /// Schedules the action; it runs on the clock's private serial Dispatch queue once ``now()`` reaches the
    /// deadline (deadlines more than a year away are capped at a year).
    @usableFromInline package func schedule(_ request: FalconTimerRequest) -> any FalconTimerHandle {
        Handle(id: timers.schedule(request.action, at: request.deadline), timers: timers)
    }

    /// How many timers have neither fired nor been cancelled: the entries (and closures) the clock holds.
    package var pendingTimerCount: Int { timers.pendingCount }

    /// A pending entry of the heap; a struct, so scheduling allocates no handle object.
    private struct Handle: FalconTimerHandle {
        let id: FalconDeadlineHeap<FalconTimerQueue.Action>.ID
        let timers: FalconTimerQueue

        func cancel() { timers.cancel(id) }
    }
}
