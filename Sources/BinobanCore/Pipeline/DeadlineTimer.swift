/// The loop's timer on a clock its thread cannot time (a test's manual clock): a task that sleeps on the clock
/// until a deadline and then calls back, replaced whenever the deadline changes. The timer owns its task (it
/// cancels it on every change); nothing awaits it, as a sleeping timer must not hold up the loop that set it. On
/// the real clocks the loop needs none: the deadline is its wait's timeout.
struct DeadlineTimer: Sendable {
    private var armed: (deadline: PipelineInstant, task: Task<Void, Never>)?

    /// The instant the timer is set for, if any.
    var deadline: PipelineInstant? { armed?.deadline }

    /// Sets the timer for `deadline` (none when `nil`); `fire` is called once it has come. Setting the deadline it
    /// already has does nothing.
    mutating func set(_ deadline: PipelineInstant?, on clock: PipelineClock, fire: @escaping @Sendable () -> Void) {
        guard deadline != armed?.deadline else { return }
        cancel()
        guard let deadline else { return }
        armed = (
            deadline,
            Task {
                guard (try? await clock.sleep(deadline)) != nil else { return }
                fire()
            }
        )
    }

    /// Stops the timer.
    mutating func cancel() {
        armed?.task.cancel()
        armed = nil
    }
}
