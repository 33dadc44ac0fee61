/// Coalesces upload requests as a pure machine: at most one round runs; requests made while it runs merge into
/// exactly one follow-up round, which carries all their waiters.
struct UploadScheduler: Sendable {
    /// One upload round to run.
    struct Round: Sendable, Equatable {
        /// The awaiting callers resolved when this round ends.
        var waiterIDs: [UInt64]
        /// Whether the round repeats passes until nothing is left (an awaited flush).
        var exhaustive: Bool
    }

    private(set) var isRunning = false
    private var next: Round?

    /// The waiters of the pending follow-up round (they also count what the running round delivers).
    var waitingForNextRound: [UInt64] { next?.waiterIDs ?? [] }

    /// A request: returns the round to start now, or `nil` when it joined the follow-up of the running round.
    mutating func request(waiterIDs: [UInt64], exhaustive: Bool) -> Round? {
        guard isRunning else {
            isRunning = true
            return Round(waiterIDs: waiterIDs, exhaustive: exhaustive)
        }
        var merged = next ?? Round(waiterIDs: [], exhaustive: false)
        merged.waiterIDs += waiterIDs
        merged.exhaustive = merged.exhaustive || exhaustive
        next = merged
        return nil
    }

    /// The running round ended: returns the follow-up round to run next, if any was requested.
    mutating func roundFinished() -> Round? {
        guard let follow = next else {
            isRunning = false
            return nil
        }
        next = nil
        return follow
    }

    /// The pipeline stops: the waiters of a pending follow-up are returned so they can be resolved.
    mutating func cancel() -> [UInt64] {
        defer {
            next = nil
            isRunning = false
        }
        return next?.waiterIDs ?? []
    }
}
