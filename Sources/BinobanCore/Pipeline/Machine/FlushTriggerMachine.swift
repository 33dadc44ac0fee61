/// When ``PipelineMachine`` asks for an upload pass, as a machine of its own: the count rule (`flushAt` events
/// stored since the last pass was asked for), the interval, a resume, and the flush tickets of a drain whose events
/// were all handed to storage. It owns the count since the last request.
///
/// Whether a pass can run (paused, no transport), merging it into the running pass's follow-up and what an awaited
/// flush returns are the composite's (`PipelineMachine+FlushRequests.swift`), which performs every action. Each
/// input yields at most one action, returned as an optional.
struct FlushTriggerMachine: Sendable, Equatable {
    /// What the triggers are told.
    enum Input: Sendable, Equatable {
        /// `events` events were stored; `flushAt` and `enabled` are the settings in force.
        case stored(events: Int, flushAt: Int, enabled: Bool)
        /// The settings in force now count to `flushAt` (a lowered `flushAt` may be reached already).
        case flushAtApplied(Int)
        /// The interval flush is due.
        case intervalDue
        /// Uploads were resumed: what was stored while paused is uploaded.
        case resumed
        /// Every event of a drain was handed to storage: its flush tickets are due.
        case ticketsDue([EventIntake.FlushTicket])
    }

    /// What the composite must do.
    enum Action: Sendable, Equatable {
        /// Ask for an upload pass: `exhaustive` for an awaited flush (passes repeat while a full one succeeds),
        /// resolving `waiters` when it ends.
        case requestPass(exhaustive: Bool, waiters: [UInt64])
    }

    /// Events stored since a pass was last asked for.
    private var storedSinceRequest = 0

    /// Takes one input; returns what the composite must do, if anything.
    mutating func handle(_ input: Input) -> Action? {
        switch input {
        case .stored(let events, let flushAt, let enabled):
            // Paused, stored events do not count: the resume asks for a pass anyway.
            guard enabled, events > 0 else { return nil }
            storedSinceRequest += events
            return storedSinceRequest >= flushAt ? requestPass() : nil
        case .flushAtApplied(let flushAt):
            return storedSinceRequest >= flushAt ? requestPass() : nil
        case .intervalDue, .resumed:
            return requestPass()
        case .ticketsDue(let tickets):
            guard !tickets.isEmpty else { return nil }
            let waiters = tickets.compactMap(\.waiterID)
            return requestPass(exhaustive: !waiters.isEmpty, waiters: waiters)
        }
    }

    /// A pass is asked for: the count starts again.
    private mutating func requestPass(exhaustive: Bool = false, waiters: [UInt64] = []) -> Action {
        storedSinceRequest = 0
        return .requestPass(exhaustive: exhaustive, waiters: waiters)
    }
}
