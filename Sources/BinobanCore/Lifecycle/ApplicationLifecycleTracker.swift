/// Owns an instance's ``ApplicationLifecycleMachine`` and performs its actions.
///
/// Inputs may come from any thread. Each input is decided and its queue actions (record, track, flush)
/// performed under one lock, so the events of two lifecycle calls never interleave: a `Backgrounded` cannot
/// overtake the `Opened` of the launch before it. Those actions only touch in-memory queues, never I/O.
/// Reports go to the host's error handler after the lock is released, so a handler may call back in.
final class ApplicationLifecycleTracker: Sendable {
    /// What one input did.
    struct Outcome: Sendable, Equatable {
        /// How many events the instance accepted (none while paused or stopped).
        var acceptedEvents = 0
        /// Problems with the host's input, to report.
        var reports: [String] = []
    }

    private let machine: LockedValue<ApplicationLifecycleMachine>

    /// A tracker for an instance whose key-value store held `stored`.
    init(tracksEvents: Bool, stored: ApplicationRelease?) {
        machine = LockedValue(ApplicationLifecycleMachine(tracksEvents: tracksEvents, stored: stored))
    }

    /// Handles `input`, calling `perform` for each record, track and flush action in order; `perform` answers
    /// whether it accepted an event. Must not be called from inside `perform`.
    func handle(_ input: ApplicationLifecycleInput, perform: (ApplicationLifecycleMachine.Action) -> Bool) -> Outcome {
        machine.withLock { machine in
            var outcome = Outcome()
            for action in machine.handle(input) {
                if case .reportInput(let message) = action {
                    outcome.reports.append(message)
                } else if perform(action) {
                    outcome.acceptedEvents += 1
                }
            }
            return outcome
        }
    }
}
