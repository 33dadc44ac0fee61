/// Cumulative counts of one instance's pipeline since it was created, readable at any time through
/// ``Binoban/statistics``.
///
/// Every event handed to the instance ends in exactly one of: still in the write stage, stored and waiting
/// (``queuedEvents``), uploaded, or one of the drop counters, so once the pipeline is quiet
/// `acceptedEvents == queuedEvents + uploadedEvents + dropped.total` for events of this run. The counters only
/// grow; ``queuedEvents`` and ``queuedBytes`` follow the storage, batch by batch: they count this run's events
/// only, so a batch a previous run left is not in them and takes nothing from them when it is uploaded or evicted.
public struct BinobanStatistics: Sendable, Hashable {
    /// Events handed to the instance by `track`, `identify` and the other calls, including those then dropped.
    public var acceptedEvents: Int = 0
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
    /// Events held in storage, waiting for upload (as the storage last reported, less what was uploaded since).
    public var queuedEvents: Int = 0
    /// Encoded bytes of the events held in storage.
    public var queuedBytes: Int = 0
    /// How long the oldest of the ``queuedEvents`` has been in storage, on the configured clock, as of this
    /// reading; `nil` when none is queued.
    ///
    /// Measured from when the event was stored (not from its `timestamp`, which a server call may set to any
    /// time), as if batches left oldest first (they do, a few at a time). Like ``queuedEvents`` it counts this
    /// run's events only: after a restart, batches a previous run left are not in it. The write stage is not
    /// part of the backlog either: its events wait there only while the storage writes.
    public var oldestQueuedEventAge: Duration?
    /// Times this instance kept in memory what belongs in its storage directory (batches and identity changes),
    /// each reported as ``BinobanError/Kind/storage``: the directory is used by another instance (in this process
    /// or another one), is not the effective user's alone, could not be determined, or the storage could not be
    /// opened. 0 while batches and identity are on disk (or in the storage and key-value store the host
    /// configured); at most 1 per instance. Nothing is dropped by a fallback: the events are uploaded from memory,
    /// but are lost if the process ends first.
    public var storageFallbacks: Int = 0

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
        /// Lost to a storage fault (a write the disk refused).
        public var storageFailure: Int = 0
        /// Dropped by a before-send stage (``Configuration/stages``): the sum of ``stageReasons``.
        public var stage: Int = 0
        /// The events stages dropped, by the reason each stage gave. At most ``maxStageReasons`` distinct reasons
        /// are kept: once that many are, a new reason is counted under ``otherStageReason``. A reason is cut to
        /// 64 characters, and an empty one counted as `"unspecified"`.
        public var stageReasons: [String: Int] = [:]
        /// Deleted from storage by ``Binoban/purgeBacklog()``.
        public var purged: Int = 0

        /// The most distinct stage reasons counted, ``otherStageReason`` included.
        public static let maxStageReasons = 16
        /// The key under which stage drops with a reason beyond the first ``maxStageReasons`` are counted.
        public static let otherStageReason = "other"

        /// Every dropped event.
        public var total: Int {
            paused + writeStageOverflow + oversize + storageEviction + storageFull + rejected + storageFailure
                + stage + purged
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
