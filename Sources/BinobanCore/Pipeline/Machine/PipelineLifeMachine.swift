/// The life of ``PipelineMachine`` as a machine of its own: created until the storage opens, running, stopping
/// until everything settled or the shutdown deadline passed, stopped. It owns the shutdown's deadline (one
/// of the composite's deadlines, beside the interval, the summaries and the upload gate) and a shutdown that
/// arrives while the storage is still opening.
///
/// What starting, stopping, a passed deadline and finishing do to the other parts is the composite's to perform
/// (`PipelineMachine.swift`). Each input yields at most one action, returned as an optional.
struct PipelineLifeMachine<Instant: InstantProtocol>: Sendable, Equatable where Instant.Duration == Duration {
    /// Where the pipeline is in its life.
    enum Life: Sendable, Equatable {
        /// Waiting for the storage to open; `stopAt` is the deadline of a shutdown that already arrived.
        case created(stopAt: Instant?)
        case running
        /// Draining for shutdown: everything accepted is written, uploads may run until `deadline`.
        case stopping(deadline: Instant, deadlinePassed: Bool)
        case stopped
    }

    /// What the life is told.
    enum Input: Sendable, Equatable {
        /// The storage is open.
        case started
        /// Shutdown, with uploads allowed until `deadline`.
        case stop(deadline: Instant)
        /// Time passed (the composite's timer fired, or a shutdown began): the deadline may have come.
        case timePassed
        /// Everything the shutdown waits for settled.
        case settled
    }

    /// What the composite must do.
    enum Action: Sendable, Equatable {
        /// Run: the first pass and the interval flush; then, with `stopBy`, a shutdown that came while the storage
        /// was opening (fed back as ``Input/stop(deadline:)``).
        case run(stopBy: Instant?)
        /// Stopping began: no more interval flushes, and the deadline may have come already.
        case beginStopping
        /// The shutdown deadline passed: nothing more is read or sent.
        case deadlinePassed
        /// The pipeline stopped.
        case finish
    }

    private(set) var life: Life = .created(stopAt: nil)

    /// Whether the pipeline is running (not created, stopping or stopped).
    var isRunning: Bool { life == .running }

    /// Whether work may be issued: running, or stopping.
    var isActive: Bool {
        switch life {
        case .created, .stopped: return false
        case .running, .stopping: return true
        }
    }

    /// While stopping, whether the deadline passed; `nil` when not stopping.
    var stoppingDeadlinePassed: Bool? {
        if case .stopping(_, let deadlinePassed) = life { return deadlinePassed }
        return nil
    }

    /// Whether the shutdown deadline passed.
    var deadlinePassed: Bool { stoppingDeadlinePassed == true }

    /// The shutdown deadline, while it is still to come.
    var deadline: Instant? {
        if case .stopping(let deadline, false) = life { return deadline }
        return nil
    }

    /// Takes one input at `now`; returns what the composite must do, if anything.
    mutating func handle(_ input: Input, at now: Instant) -> Action? {
        switch (life, input) {
        case (.created(let stopAt), .started):
            life = .running
            return .run(stopBy: stopAt)
        case (.created(nil), .stop(let deadline)):
            // The storage is still opening: nothing can be written or sent before `started`, which applies it.
            life = .created(stopAt: deadline)
            return nil
        case (.running, .stop(let deadline)):
            life = .stopping(deadline: deadline, deadlinePassed: false)
            return .beginStopping
        case (.stopping(let deadline, false), .timePassed) where now >= deadline:
            life = .stopping(deadline: deadline, deadlinePassed: true)
            return .deadlinePassed
        case (.stopping, .settled):
            life = .stopped
            return .finish
        case (.created(.some), .stop), (.stopping, .stop), (.stopped, .stop):
            // A second shutdown changes nothing: the first one's deadline holds.
            return nil
        case (.running, .started), (.stopping, .started), (.stopped, .started):
            // The driver starts the machine once; a second start changes nothing.
            return nil
        case (.created, .timePassed), (.running, .timePassed), (.stopping, .timePassed), (.stopped, .timePassed):
            return nil
        case (.created, .settled), (.running, .settled), (.stopped, .settled):
            // Only a shutdown settles.
            return nil
        }
    }
}
