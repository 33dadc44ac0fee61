/// The values of the upload work (``UploadWorkMachine``): the batches of the running pass, each with its state, the
/// passes asked for, and what an answer means for its batch.
extension UploadWorkMachine {
    /// One batch of the current upload work.
    struct UploadItem: Sendable, Equatable {
        enum State: Sendable, Equatable {
            /// Listed, not yet read.
            case queued
            /// Being read.
            case reading
            /// Read and held by the driver; sent when the backoff gate opens.
            case ready
            /// Sent; the answer is awaited.
            case sending
            /// Answered for good; being deleted.
            case removing
        }

        var id: BinobanBatchID
        var state: State = .queued
        var eventCount = 0
        var bytes = 0
        var retries = 0
        /// The backoff generation the last request of this batch was sent in.
        var sentInGeneration = 0
        /// The storage evicted this batch while it was being read or sent; its events are counted as evicted
        /// only if it is not delivered.
        var evictedEvents: Int?
        /// Why its last request failed, if one did: told to the delivery observer if the batch is kept.
        var lastFailure: BinobanUploadFailure?
        /// Its events older than ``Configuration/maxEventAge`` when it was read: left out of its request, counted
        /// when the batch leaves storage (a kept batch is read, and its events judged, again).
        var expired: ExpiredRead?
    }

    /// One upload pass: list at most `maxFilesPerFlush` batches and settle each one.
    struct Pass: Sendable, Equatable {
        /// An awaited flush: passes repeat while a full pass succeeded.
        var exhaustive: Bool
        /// Callers resolved when the pass ends.
        var waiters: [UInt64]
        /// The listing is still to be asked for (it waits for the backoff gate, so the open batch keeps
        /// growing while uploads back off).
        var needsListing = true
        /// The last listing returned as many batches as were asked for: more may be waiting.
        var listedFull = false
        /// A batch was kept after its retries (or unreadable): the pass sends nothing more.
        var kept = false
        /// A batch left storage during the pass (delivered or rejected): uploads are making progress.
        var progressed = false
        /// The last listing found only batches already in the work (all of the first ones are in flight): listing
        /// ahead again would find the same until one of them leaves the work. With storage answering at once
        /// (the loop calls it inline), listing ahead would otherwise repeat without end.
        var listedOnlyKnown = false
    }

    /// The upload passes: none, or the running one with at most one follow-up merged from later requests (a
    /// follow-up without a running pass cannot be written down).
    enum Passes: Sendable, Equatable {
        case none
        case running(Pass, followUp: Pass?)
    }

    /// 2xx accepted; 4xx other than 429 rejected; 429, 5xx, 3xx and anything else transient.
    static func verdict(forStatus status: Int) -> Verdict {
        switch status {
        case 200..<300: return .accepted
        case 429: return .transient
        case 400..<500: return .rejected
        default: return .transient
        }
    }

    /// What an answer means for its batch.
    enum Verdict: Sendable, Equatable {
        case accepted
        case rejected
        case transient
    }
}
