/// The driver's one timer: a task that sleeps on the clock until a deadline and then calls back, replaced
/// whenever the deadline changes. The timer owns its task (it cancels it on every change); nothing awaits it, as
/// a sleeping timer must not hold up the driver that set it.
struct DeadlineTimer<C: Clock>: Sendable where C.Duration == Duration {
    private var armed: (deadline: C.Instant, task: Task<Void, Never>)?

    /// The instant the timer is set for, if any.
    var deadline: C.Instant? { armed?.deadline }

    /// Sets the timer for `deadline` (none when `nil`); `fire` is called with it once it has come. Setting the
    /// deadline it already has does nothing.
    mutating func set(_ deadline: C.Instant?, on clock: C, fire: @escaping @Sendable (C.Instant) async -> Void) {
        guard deadline != armed?.deadline else { return }
        cancel()
        guard let deadline else { return }
        armed = (
            deadline,
            Task {
                guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                await fire(deadline)
            }
        )
    }

    /// Forgets the deadline once it fired; `false` when `deadline` is not the one the timer holds (a stale call).
    mutating func fired(_ deadline: C.Instant) -> Bool {
        guard armed?.deadline == deadline else { return false }
        armed = nil
        return true
    }

    /// Stops the timer.
    mutating func cancel() {
        armed?.task.cancel()
        armed = nil
    }
}
