/// Told, once per finished batch, what became of its events: uploaded, rejected by the ingest, or dropped by the
/// SDK with the reason. Set it on ``Configuration/deliveryObserver``.
///
/// Every event the instance accepted ends in exactly one final report (or stays queued in storage, for a later
/// flush or run), and the final reports add up to ``Binoban/statistics``: the events of `.uploaded` reports are
/// ``BinobanStatistics/uploadedEvents``, those of `.rejected` ones ``BinobanStatistics/Drops/rejected``, and each
/// drop reason its counter.
///
/// A batch whose requests failed and that is kept for a later flush is told as well, as
/// ``BinobanDeliveryOutcome/keptForRetry(_:)`` with the last failure (a status, or the transport's reason for no
/// answer: refused, reset, TLS handshake, certificate, timeout, DNS, …). That report is not final: the events stay
/// stored, are not counted in the statistics by it, and are reported again (kept, or finally) at a later flush.
///
/// It is called on the pipeline's own task, never on the thread that called `track()`, one report at a time and
/// in the order the pipeline learned the outcomes. The pipeline waits for it to return: keep it short (count,
/// hand the report to a queue of your own) and never call back into the instance from it.
public protocol BinobanDeliveryObserver: Sendable {
    /// One batch (or one group of events dropped together) has finished.
    func deliveryFinished(_ delivery: BinobanDelivery)
}

/// What became of a group of events: the events of one uploaded or rejected batch, or of one drop.
public struct BinobanDelivery: Sendable, Hashable {
    /// The `messageId` of each event, in the order the events were accepted.
    ///
    /// It holds ``eventCount`` ids except where the pipeline cannot name the events: batches a previous run left
    /// that the storage evicted before they were read, events stored before a delivery observer or an awaited
    /// event made the pipeline keep ids (or by a storage that does not report
    /// ``BinobanStorageWriteReport/placements``) that the storage evicted, and events refused on their way in (tracked while paused, or refused as the newest when the write
    /// stage was full under ``BinobanBackpressure/dropNewest`` or ``BinobanBackpressure/wait``). Those reports
    /// carry the count only; the oldest events dropped from a full write stage (``BinobanBackpressure/dropOldest``)
    /// are named.
    public var messageIds: [String]
    /// How many events finished this way; always the amount the statistics counted.
    public var eventCount: Int
    /// What became of them.
    public var outcome: BinobanDeliveryOutcome

    /// Creates a report.
    public init(messageIds: [String], eventCount: Int, outcome: BinobanDeliveryOutcome) {
        self.messageIds = messageIds
        self.eventCount = eventCount
        self.outcome = outcome
    }
}

/// The end of an event's way through the pipeline.
public enum BinobanDeliveryOutcome: Sendable, Hashable {
    /// The ingest accepted the batch (2xx).
    case uploaded
    /// The ingest rejected the batch for good with this status (4xx other than 429); it was deleted.
    case rejected(status: Int)
    /// The SDK dropped the events, for this reason.
    case dropped(BinobanDropReason)
    /// Not final: a request for the batch failed and the batch is kept in storage for a later flush (it used its
    /// retries, or its flush kept another batch and sends nothing more), with the batch's last failure: a status
    /// that is retried, or no answer and the transport's reason. Its events are reported again when they finish.
    case keptForRetry(BinobanUploadFailure)

    /// Whether the events reached their end (every outcome but ``keptForRetry(_:)``).
    public var isFinal: Bool {
        if case .keptForRetry = self { return false }
        return true
    }
}

/// Why the SDK dropped events. Each reason is one counter of ``BinobanStatistics/Drops``.
public enum BinobanDropReason: Sendable, Hashable {
    /// Tracked while the instance was paused (``BinobanStatistics/Drops/paused``).
    case paused
    /// The write stage between the caller and storage was full (``BinobanStatistics/Drops/writeStageOverflow``).
    case writeStageOverflow
    /// One event encoded to the storage's event size limit or more (``BinobanStatistics/Drops/oversize``).
    case oversize
    /// Deleted from a full storage, oldest first (``BinobanStatistics/Drops/storageEviction``).
    case storageEviction
    /// Refused by a full storage, or still refused when the shutdown deadline passed
    /// (``BinobanStatistics/Drops/storageFull``).
    case storageFull
    /// Lost to a storage fault (``BinobanStatistics/Drops/storageFailure``).
    case storageFailure
    /// A before-send stage dropped them, with the stage's reason as counted in
    /// ``BinobanStatistics/Drops/stageReasons`` (``BinobanStatistics/Drops/stage``).
    case stage(String)
    /// Deleted by ``Binoban/purgeBacklog()`` (``BinobanStatistics/Drops/purged``).
    case purged
    /// Older than ``Configuration/maxEventAge`` when their batch was read for upload
    /// (``BinobanStatistics/Drops/expired``).
    case expired
}

extension BinobanDelivery: CustomStringConvertible {
    /// The outcome and the count, e.g. `20 events: uploaded` or `3 events: dropped (storageEviction)`; the message
    /// ids are left out.
    public var description: String { "\(eventCount) event\(eventCount == 1 ? "" : "s"): \(outcome)" }
}

extension BinobanDeliveryOutcome: CustomStringConvertible {
    /// `uploaded`, `rejected (status 400)`, `dropped (storageEviction)` or `keptForRetry (status 503)`.
    public var description: String {
        switch self {
        case .uploaded: "uploaded"
        case .rejected(let status): "rejected (status \(status))"
        case .dropped(let reason): "dropped (\(reason))"
        case .keptForRetry(let failure): "keptForRetry (\(failure))"
        }
    }
}

extension BinobanDropReason: CustomStringConvertible {
    /// The counter's name (`storageEviction`, `paused`, …); for a stage, `stage: ` and the stage's reason.
    public var description: String {
        switch self {
        case .paused: "paused"
        case .writeStageOverflow: "writeStageOverflow"
        case .oversize: "oversize"
        case .storageEviction: "storageEviction"
        case .storageFull: "storageFull"
        case .storageFailure: "storageFailure"
        case .stage(let reason): "stage: \(reason)"
        case .purged: "purged"
        case .expired: "expired"
        }
    }
}
