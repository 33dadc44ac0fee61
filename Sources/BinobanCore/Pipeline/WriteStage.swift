/// Where the pipeline is with the intake's current drain. The driver holds the drained events
/// (``WriteStageBuffer``); this is the machine's view of them.
///
/// `idle → taking` (``PipelineAction/takeDrain``) `→ draining` (events to write) or `→ idle` (none);
/// `draining → writing` (``PipelineAction/write(_:)``) `→ draining` (more in the drain), `→ idle` (all handed
/// over: the tickets are honoured) or `→ holding` (a full storage refused the suffix and holding applies);
/// `holding → draining` once room may have been freed or holding no longer applies. The flush tickets of a drain
/// travel with it and are honoured once all its events are handed to storage (or, behind a hold no upload can
/// serve, resolved at once).
enum WriteStage: Sendable, Equatable {
    /// No drain is held: the next one may be taken.
    case idle
    /// ``PipelineAction/takeDrain`` was asked; the drain is awaited.
    case taking
    /// The driver holds events of the drain not yet handed to storage; the next chunk goes when the machine
    /// pumps.
    case draining(tickets: [EventIntake.FlushTicket])
    /// A chunk is being appended.
    case writing(tickets: [EventIntake.FlushTicket])
    /// A full storage refused the current chunk's suffix; it is written again once room may have been freed: a
    /// batch deleted, gone or evicted (by the listing's close too).
    case holding(tickets: [EventIntake.FlushTicket])

    /// The flush tickets waiting for this drain's events to be stored.
    var tickets: [EventIntake.FlushTicket] {
        switch self {
        case .idle, .taking: return []
        case .draining(let tickets), .writing(let tickets), .holding(let tickets): return tickets
        }
    }
}
