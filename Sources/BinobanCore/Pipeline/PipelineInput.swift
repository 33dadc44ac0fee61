/// What the pipeline machine is told: a caller's request, or the result of an action the driver performed.
enum PipelineInput<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The storage is open: upload what a previous run left and start the interval timer.
    case started
    /// The storage, just opened, holds `events` (`bytes` of body) that earlier runs left: they join the queue.
    case storageFound(events: Int, bytes: Int)
    /// The intake holds work: events, flush tickets, a settings or identity change.
    case intakeHasWork
    /// The driver took everything the intake held (answering ``PipelineAction/takeDrain``).
    case drained(PipelineDrain)
    /// The driver took the intake's settings change alone, while a held write keeps its events waiting
    /// (answering ``PipelineAction/takeSettings``); `nil` when the settings had not changed.
    case settingsTaken(EventIntake.Settings?, pausedSinceLastDrain: Bool)
    /// A chunk of the current drain was appended. `storedBytes` are the encoded bytes stored; `moreInDrain`
    /// tells whether the drain still holds events not handed to storage (a refused suffix excluded);
    /// `placedBytes` are the bytes of each of the report's placements (empty: shared out by events). The driver
    /// feeds it before the result of any later storage call, so the batches it placed events in are known
    /// before they are listed (``QueueLedger``).
    case written(BinobanStorageWriteReport, storedBytes: Int, moreInDrain: Bool, placedBytes: [Int] = [])
    /// The write stage's before-send stages dropped events of the chunk it is writing, by reason.
    case stageDropped([StageDrop])
    /// An append failed: `lost` events of the chunk were not stored (the driver discarded them). `stored` is what
    /// the append stored before the failure (its events are queued like a written chunk's; with placements when
    /// the storage reported them, otherwise unplaced in ``QueueLedger``), `storedBytes` their encoded bytes and
    /// `placedBytes` the bytes of each of its placements, as for ``written(_:storedBytes:moreInDrain:placedBytes:)``.
    case writeFailed(
        lost: Int, moreInDrain: Bool, message: String, stored: BinobanStorageWriteReport = .init(),
        storedBytes: Int = 0, placedBytes: [Int] = [])
    /// The open batch was closed (`closed` says what that evicted) and the finished batches listed, oldest first.
    case listed([BinobanBatchID], closed: BinobanStorageWriteReport = .init())
    /// Closing or listing failed.
    case listFailed(String)
    /// A batch was read and is held by the driver, ready to send.
    case read(BinobanBatchID, eventCount: Int, bytes: Int)
    /// A batch was read and some of its events were older than ``Configuration/maxEventAge``: the driver holds it
    /// without them (`eventCount` are the events left to send, maybe none; `bytes` the batch's stored size).
    case readExpiring(BinobanBatchID, eventCount: Int, bytes: Int, expired: ExpiredRead)
    /// A batch was gone when it was read (evicted or removed).
    case vanished(BinobanBatchID)
    /// Reading a batch failed for real (a disk or format fault).
    case readFailed(BinobanBatchID, String)
    /// The server answered a batch. `jitter` is a fresh uniform draw in `0..<1` for a possible backoff.
    case answered(BinobanBatchID, status: Int, retryAfter: Duration?, jitter: Double)
    /// No answer arrived for a batch (the transport threw), for the reason the transport gave.
    case noAnswer(BinobanBatchID, jitter: Double, failure: BinobanTransportFailure)
    /// A batch was deleted after its final answer.
    case removed(BinobanBatchID)
    /// Deleting a batch failed.
    case removeFailed(BinobanBatchID, String)
    /// The identity snapshot was saved, or saving it failed (with a message).
    case identitySaved(failure: String?)
    /// A caller asked to purge the stored backlog (``Binoban/purgeBacklog()``); `waiter` awaits the result.
    case purgeRequested(waiter: UInt64)
    /// A purge ended: what it deleted, and the fault that stopped it early, if any.
    case purged(PurgeReport)
    /// The instant returned by ``PipelineMachine/nextDeadline`` has come.
    case timerFired
    /// The error reporter holds suppressed reports whose summary is due at `at` (``ErrorReportLimiter`` decides
    /// when); the machine answers with ``PipelineAction/deliverSummaries`` once the instant has come.
    case summaryPending(at: Instant)
    /// Shutdown: the intake is closed; write everything it held, upload until `deadline`, then stop. The caller
    /// awaiting the shutdown put a flush ticket in the intake before closing it.
    case stop(deadline: Instant)
}

/// The events of a batch that were older than ``Configuration/maxEventAge`` when it was read.
struct ExpiredRead: Sendable, Equatable {
    var count: Int
    /// Their message ids, for the delivery observer.
    var messageIds: [String]
}

/// Everything one drain of the intake carried besides the events themselves, which the driver keeps.
struct PipelineDrain: Sendable, Equatable {
    /// Events taken (the driver encodes and writes them in chunks).
    var eventCount = 0
    /// Flush requests, honoured once every event of this drain is stored.
    var tickets: [EventIntake.FlushTicket] = []
    /// The identity to persist, when it changed.
    var identity: IdentityState?
    /// The new runtime settings, when they changed.
    var settings: EventIntake.Settings?
    /// The instance was paused at some point since the previous drain.
    var pausedSinceLastDrain = false
    /// Events accepted since the previous drain.
    var acceptedEvents = 0
    /// Events dropped because the write stage was full.
    var overflowDrops = 0
    /// Events refused while the instance was paused.
    var pausedDrops = 0
    /// Events of this drain whose outcome a caller awaits (``BinobanServerEvents/awaitingDelivery``).
    var awaitedEvents = 0
    /// The intake is closed (shutdown): no more work will come.
    var closed = false
}
