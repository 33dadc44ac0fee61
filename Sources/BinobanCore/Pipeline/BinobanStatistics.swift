/// Cumulative counts of one instance's pipeline since it was created, readable at any time through
/// ``Binoban/statistics``.
///
/// Every event counted accepted, and every event an earlier run left in its storage directory
/// (``recoveredEvents``), is in exactly one of: held before storage (``heldEvents``), stored and waiting
/// (``queuedEvents``), uploaded, or one of the drop counters, so at every reading
/// `acceptedEvents + recoveredEvents == heldEvents + queuedEvents + uploadedEvents + dropped.total`. The counters
/// other than ``heldEvents``, ``queuedEvents`` and ``queuedBytes`` only grow;
/// ``queuedEvents`` and ``queuedBytes`` follow the storage batch by batch (the bytes of an earlier run's batches
/// are shared out by events).
public struct BinobanStatistics: Sendable, Hashable {
    /// Events handed to the instance by `track`, `identify` and the other calls, including those then dropped,
    /// counted once the pipeline takes them from the callers' queue (the write stage's capacity,
    /// ``Configuration/writeStageCapacity``).
    public var acceptedEvents: Int = 0
    /// Events counted accepted that are not stored yet: a full storage refused them and they wait for an upload
    /// to free room (``BinobanBackpressure/wait``, and ``BinobanBackpressure/dropOldest`` while uploads work),
    /// during an outage for as long as the server's `Retry-After` or the backoff keeps uploads waiting. They leave
    /// it stored (``queuedEvents``) or dropped. 0 when the storage has room (the loop stores what it takes before
    /// it waits again); events still in the callers' queue behind them are not counted anywhere yet.
    public var heldEvents: Int = 0
    /// Events written to storage.
    public var storedEvents: Int = 0
    /// Events in batches the server accepted (2xx).
    public var uploadedEvents: Int = 0
    /// Batches the server accepted.
    public var uploadedBatches: Int = 0
    /// Events dropped by reason.
    public var dropped = Drops()
    /// Requests sent, by outcome.
    public var requests = Requests()
    /// Requests that repeated a batch after a transient failure.
    public var retriedRequests: Int = 0
    /// Waits before retrying: one for every transient failure or unanswered request (each closes the upload
    /// gate for a backoff delay, or longer for a `Retry-After`).
    public var retryWaits: Int = 0
    /// Events held in storage, waiting for upload (as the storage last reported, less what was uploaded since),
    /// including those earlier runs left (``recoveredEvents``) from the moment the storage is open.
    public var queuedEvents: Int = 0
    /// Events earlier runs left in the storage directory, found when the storage was opened (or when the instance
    /// took its directory over from another process, see ``storageIsDurable``). They are counted in
    /// ``queuedEvents`` from then on, and leave it like this run's events: uploaded, or dropped with a reason.
    public var recoveredEvents: Int = 0
    /// Encoded bytes of the events held in storage.
    public var queuedBytes: Int = 0
    /// How long the oldest of the ``queuedEvents`` has been in storage, on the configured clock, as of this
    /// reading; `nil` when none is queued.
    ///
    /// Measured from when the event was stored (not from its `timestamp`, which a server call may set to any
    /// time), as if batches left oldest first (they do, a few at a time). Events an earlier run left count from
    /// the moment the storage found them (their files do not say when they were written). The write stage is not
    /// part of the backlog: its events wait there only while the storage writes.
    public var oldestQueuedEventAge: Duration?
    /// Times this instance kept in memory what belongs in its storage directory (batches and identity changes),
    /// each reported as ``BinobanError/Kind/storage``: the directory is used by another instance (in this process
    /// or another one), is not the effective user's alone, could not be determined, the storage could not be
    /// opened, or the directory was removed or stopped taking writes while the instance ran. 0 while batches and
    /// identity are on disk (or in the storage and key-value store the host configured); one per move to memory
    /// (the instance goes back to disk when it can, see ``storageIsDurable``). A fallback drops nothing it can
    /// read back: the events are uploaded from memory, but are lost if the process ends first (what could not be
    /// read back from a removed directory is counted in ``Drops/storageFailure``).
    public var storageFallbacks: Int = 0
    /// Whether the instance's batches are kept durably right now: `true` while they go to its storage directory
    /// (or to the storage the host configured), `false` while it keeps them in memory (see ``storageFallbacks``),
    /// and for a disabled instance. An instance in memory tries its directory again every few seconds and, once it
    /// can use it, moves what it kept in memory there; a health check that needs durability reads this, not
    /// ``Binoban/isOperational`` alone.
    public var storageIsDurable: Bool = false

    /// Events dropped, by reason.
    public struct Drops: Sendable, Hashable {
        /// Tracked while the instance was paused (`enabled == false`).
        public var paused: Int = 0
        /// Dropped because the write stage between the caller and storage was full.
        public var writeStageOverflow: Int = 0
        /// Refused because one event encodes to ``BinobanStorageLimits/maxEventBytes`` or more.
        public var oversize: Int = 0
        /// Deleted from a full storage, oldest first (``BinobanBackpressure/dropOldest``).
        public var storageEviction: Int = 0
        /// Refused by a full storage (``BinobanBackpressure/dropNewest``, or ``BinobanBackpressure/wait`` at
        /// shutdown).
        public var storageFull: Int = 0
        /// In batches the server rejected for good (4xx other than 429).
        public var rejected: Int = 0
        /// Lost to a storage fault: a write the disk refused, or stored events whose files were removed before
        /// they were uploaded (the storage directory deleted while the instance ran).
        public var storageFailure: Int = 0
        /// Dropped by a before-send stage (``Configuration/stages``): the sum of ``stageReasons``.
        public var stage: Int = 0
        /// The events stages dropped, by the reason each stage gave. At most ``maxStageReasons`` distinct reasons
        /// are kept: once that many are, a new reason is counted under ``otherStageReason``. A reason is cut to
        /// 64 characters, and an empty one counted as `"unspecified"`.
        public var stageReasons: [String: Int] = [:]
        /// Deleted from storage by ``Binoban/purgeBacklog()``.
        public var purged: Int = 0
        /// Older than ``Configuration/maxEventAge`` when their batch was read for upload: left out of the upload
        /// and deleted with the batch.
        public var expired: Int = 0

        /// The most distinct stage reasons counted, ``otherStageReason`` included.
        public static let maxStageReasons = 16
        /// The key under which stage drops with a reason beyond the first ``maxStageReasons`` are counted.
        public static let otherStageReason = "other"

        /// Every dropped event.
        public var total: Int {
            paused + writeStageOverflow + oversize + storageEviction + storageFull + rejected + storageFailure
                + stage + purged + expired
        }

        /// Counts `count` events a stage dropped for `reason`; returns the key they were counted under.
        mutating func countStageDrops(_ count: Int, reason: String) -> String {
            var key = reason.isEmpty ? "unspecified" : String(reason.prefix(64))
            if stageReasons[key] == nil, stageReasons.count >= Self.maxStageReasons - 1,
                key != Self.otherStageReason
            {
                key = Self.otherStageReason
            }
            stageReasons[key, default: 0] += count
            stage += count
            return key
        }
    }

    /// Requests by outcome.
    public struct Requests: Sendable, Hashable {
        /// Answered 2xx.
        public var accepted: Int = 0
        /// Answered 4xx other than 429: the batch was dropped.
        public var rejected: Int = 0
        /// Answered 429, 5xx, 3xx or anything else not final: retried or kept.
        public var transientFailures: Int = 0
        /// No answer (the transport threw).
        public var noAnswer: Int = 0
    }
}
