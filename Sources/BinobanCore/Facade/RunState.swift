/// Where ``Binoban/run()`` is, as swift-service-lifecycle's `ServiceGroup` keeps it: one `run()` at a time.
///
/// `idle → running` (a `run()` claims the instance) `→ draining` (its task was cancelled; the shutdown runs)
/// `→ idle` (it returned). A `run()` that finds `running` or `draining` throws
/// ``BinobanError/Kind/alreadyRunning`` and changes nothing.
enum RunState: Sendable, Equatable {
    /// No `run()` is active.
    case idle
    /// A `run()` waits for its task's cancellation.
    case running
    /// A cancelled `run()` drains the pipeline for at most the grace period.
    case draining

    /// Claims the instance for a `run()`; `false` when another one is active.
    mutating func claim() -> Bool {
        switch self {
        case .idle:
            self = .running
            return true
        case .running, .draining:
            return false
        }
    }

    /// The active `run()`'s task was cancelled: it drains.
    mutating func cancelled() {
        if self == .running { self = .draining }
    }

    /// The active `run()` returned.
    mutating func ended() {
        self = .idle
    }
}
