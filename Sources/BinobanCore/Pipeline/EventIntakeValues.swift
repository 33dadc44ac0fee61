/// The values that cross ``EventIntake``: its runtime settings and overflow policy, a caller's flush ticket, and
/// what one drain hands to the pipeline.
extension EventIntake {
    /// Runtime settings that callers may change and the driver applies.
    struct Settings: Sendable, Equatable {
        var enabled: Bool
        var flushAt: Int
        var flushInterval: Duration
    }

    /// What a full buffer does with the next event.
    enum Overflow: Sendable, Equatable {
        case dropOldest
        case dropNewest
    }

    /// A flush asked for by a caller. The driver takes every queued event together with the tickets, so a
    /// ticket is honoured after every event accepted before it is stored.
    struct FlushTicket: Sendable, Equatable {
        /// The waiter to resume when the upload finishes, if the caller awaits.
        var waiterID: UInt64?
        /// For an awaited flush, the published figures when the host asked: its result counts from them.
        var baseline: FlushResults.Baseline?
    }

    /// What one drain hands to the driver.
    struct Drain: Sendable {
        /// The taken buffer; its first `firstLive` elements were dropped (drop-oldest).
        var buffer: [QueuedEvent] = []
        var firstLive = 0
        /// The events to store, oldest first.
        var events: ArraySlice<QueuedEvent> { buffer[firstLive...] }
        /// Everything else the drain carried, for the machine.
        var summary = PipelineDrain()
    }
}
