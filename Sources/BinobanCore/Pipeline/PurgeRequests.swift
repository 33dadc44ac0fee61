/// The callers of ``Binoban/purgeBacklog()``: those waiting for the next purge and those of the purge running.
/// One purge runs at a time; callers that arrive while it runs are served by the next one, so each caller's
/// result covers a purge that started after its call.
struct PurgeRequests: Sendable, Equatable {
    private var waiting: [UInt64] = []
    private var running: [UInt64]?

    var isRunning: Bool { running != nil }

    mutating func requested(_ waiter: UInt64) {
        waiting.append(waiter)
    }

    /// Whether a purge starts now (callers wait and none runs).
    mutating func start() -> Bool {
        guard running == nil, !waiting.isEmpty else { return false }
        running = waiting
        waiting = []
        return true
    }

    /// The running purge ended: its callers.
    mutating func finished() -> [UInt64] {
        defer { running = nil }
        return running ?? []
    }

    /// The pipeline stops: the callers still waiting, whose purge will not run.
    mutating func abandon() -> [UInt64]? {
        defer { waiting = [] }
        return waiting.isEmpty ? nil : waiting
    }
}
