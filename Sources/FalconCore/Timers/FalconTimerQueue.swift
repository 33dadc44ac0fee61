import Dispatch

/// Every timer of one ``FalconSystemClock``: a deadline heap driven by a single Dispatch timer source.
///
/// Scheduling inserts into the heap and re-arms the source only when the new deadline is the earliest;
/// cancelling removes the entry, and with it the action's closure, at once (a cancelled `asyncAfter` block
/// would stay queued until its deadline, holding its captures). The source is not re-armed
/// when the earliest entry is cancelled: it wakes once at the old deadline, finds nothing due and re-arms for
/// the next one, which is cheaper than re-arming on every cancel.
///
/// Due actions run on the queue's private serial Dispatch queue, in deadline order (ties in scheduling
/// order), outside the lock.
final class FalconTimerQueue: Sendable {
    /// A timer's action as the heap stores it: a closure field of a struct keeps its own calling convention, where
    /// a closure as the heap's generic payload would be wrapped in a reabstraction thunk (an allocation per timer).
    struct Action {
        let run: @Sendable () -> Void
    }

    private struct State {
        var heap = FalconDeadlineHeap<Action>()
        /// The deadline the source is set for, or `nil` while it is idle.
        var armedDeadline: Duration?
        /// Created on the first timer, so a clock that never schedules owns no Dispatch source.
        var source: (any DispatchSourceTimer)?
    }

    private let state = LockedValue(State())
    private let queue = DispatchQueue(label: "us.falconlabs.FalconCore.timers")
    private let now: @Sendable () -> Duration

    /// Creates a queue whose deadlines are instants of `now`'s time line.
    init(now: @escaping @Sendable () -> Duration) {
        self.now = now
    }

    deinit {
        state.withLock { $0.source?.cancel() }
    }

    /// How many timers have neither fired nor been cancelled.
    var pendingCount: Int { state.withLock { $0.heap.count } }

    /// Schedules `action` at `deadline` and returns the entry's id.
    func schedule(_ action: @escaping @Sendable () -> Void, at deadline: Duration) -> FalconDeadlineHeap<Action>.ID {
        let action = Action(run: action)
        return state.withLock { state in
            let id = state.heap.insert(action, deadline: deadline)
            if state.armedDeadline.map({ deadline < $0 }) ?? true { arm(&state, at: deadline) }
            return id
        }
    }

    /// Drops the entry `id` and its action; harmless when it already fired or was cancelled.
    func cancel(_ id: FalconDeadlineHeap<Action>.ID) {
        // The action is released after the lock, in case its captures do work when they are freed.
        let removed = state.withLock { $0.heap.remove(id) }
        withExtendedLifetime(removed) {}
    }

    /// Sets the source to wake at `deadline`, creating it on first use.
    private func arm(_ state: inout State, at deadline: Duration) {
        let source: any DispatchSourceTimer
        if let existing = state.source {
            source = existing
        } else {
            source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { [weak self] in self?.fire() }
            source.activate()
            state.source = source
        }
        state.armedDeadline = deadline
        source.schedule(deadline: .now() + Self.dispatchDelay(until: deadline, from: now()))
    }

    /// Runs every due action in order, then re-arms for the earliest entry left.
    private func fire() {
        var due: [Action] = []
        state.withLock { state in
            let instant = now()
            while let action = state.heap.popEarliest(dueBy: instant) { due.append(action) }
            if let next = state.heap.earliestDeadline {
                arm(&state, at: next)
            } else {
                state.armedDeadline = nil
            }
        }
        for action in due { action.run() }
    }

    /// The delay from `now` to `deadline`, clamped to [0, one year] so no deadline can overflow the
    /// nanosecond arithmetic.
    static func dispatchDelay(until deadline: Duration, from now: Duration) -> DispatchTimeInterval {
        let delay = min(max(deadline - now, .zero), .seconds(31_536_000))
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        // Rounded up: Dispatch must not wake before the deadline on the clock's own time line.
        let remainder = delay.components.attoseconds % 1_000_000_000
        return .nanoseconds(Int(nanoseconds) + (remainder > 0 ? 1 : 0))
    }
}
