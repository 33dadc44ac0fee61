/// The purges of the stored backlog (``Binoban/purgeBacklog()``) as a machine of its own: the callers waiting for
/// the next purge and those of the purge running.
///
/// One purge runs at a time; callers that arrive while it runs are served by the next one, so each caller's
/// result covers a purge that started after its call. What a purge spares (the batches in flight) and what it
/// counts are the composite's (`PipelineMachine+Purge.swift`), which performs every action. Each input yields at
/// most one action, returned as an optional.
struct PurgeMachine: Sendable, Equatable {
    /// What the purges are told.
    enum Input: Sendable, Equatable {
        /// A caller asked for a purge; `waiter` awaits its result.
        case requested(waiter: UInt64)
        /// The composite issues what can start now.
        case pump
        /// The running purge ended with `result`.
        case purged(BinobanPurgeResult)
        /// The pipeline stops: the purge asked for and not started will not run.
        case stopped
    }

    /// What the composite must do.
    enum Action: Sendable, Equatable {
        /// Start a purge (``PipelineAction/purge(excluding:namesEvents:)``).
        case purge
        /// Resume these callers with `result` (``PipelineAction/resumePurges(_:_:)``).
        case resume([UInt64], BinobanPurgeResult)
    }

    private var waiting: [UInt64] = []
    private var running: [UInt64]?

    /// Whether a purge is running (the shutdown waits for it).
    var isRunning: Bool { running != nil }

    /// Takes one input; returns what the composite must do, if anything.
    mutating func handle(_ input: Input) -> Action? {
        switch input {
        case .requested(let waiter):
            waiting.append(waiter)
            return nil
        case .pump:
            guard running == nil, !waiting.isEmpty else { return nil }
            running = waiting
            waiting = []
            return .purge
        case .purged(let result):
            // The composite answers each purge once; an answer to none resumes nobody.
            defer { running = nil }
            return .resume(running ?? [], result)
        case .stopped:
            guard !waiting.isEmpty else { return nil }
            defer { waiting = [] }
            return .resume(waiting, BinobanPurgeResult())
        }
    }
}
