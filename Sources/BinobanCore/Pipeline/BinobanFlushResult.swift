/// What an awaited flush achieved.
public struct BinobanFlushResult: Sendable, Hashable {
    /// How the flush ended.
    public enum Outcome: Sendable, Hashable {
        /// Every batch stored before the flush was uploaded or rejected for good.
        case completed
        /// A batch still failed after every retry, the upload gate is held longer than
        /// ``Configuration/awaitedFlushGateLimit`` (a long `Retry-After`), or no transport is configured; the
        /// batches are kept for later.
        case keptForRetry
        /// The instance is paused (`enabled == false`) or disabled; nothing was uploaded.
        case paused
        /// The caller's task was cancelled, a deadline passed, or the instance shut down first.
        case interrupted
    }

    /// How the flush ended.
    public var outcome: Outcome
    /// Batches the server accepted while the flush waited: since the figures ``Binoban/statistics`` showed when
    /// the flush was asked for, so that those figures plus this result are the figures it shows on return.
    public var uploadedBatches: Int
    /// Events in the accepted batches.
    public var uploadedEvents: Int
    /// Batches the server rejected with a 4xx other than 429 (deleted and reported) while the flush waited,
    /// counted like ``uploadedBatches``.
    public var rejectedBatches: Int
    /// Events in the rejected batches.
    public var rejectedEvents: Int
    /// Every event the instance dropped since the previous awaited flush returned (or since it was created),
    /// whatever the reason: rejected, evicted, refused, oversize, overflowing the write stage, tracked while
    /// paused. ``Binoban/statistics`` breaks them down.
    public var droppedEvents: Int

    /// Creates a result.
    public init(
        outcome: Outcome,
        uploadedBatches: Int = 0,
        uploadedEvents: Int = 0,
        rejectedBatches: Int = 0,
        rejectedEvents: Int = 0,
        droppedEvents: Int = 0
    ) {
        self.outcome = outcome
        self.uploadedBatches = uploadedBatches
        self.uploadedEvents = uploadedEvents
        self.rejectedBatches = rejectedBatches
        self.rejectedEvents = rejectedEvents
        self.droppedEvents = droppedEvents
    }
}

extension BinobanFlushResult: CustomStringConvertible {
    /// One line with every count, e.g. `completed: 2 batches (40 events) uploaded, 1 batch (3 events) rejected,
    /// 0 events dropped`.
    public var description: String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : noun == "batch" ? "es" : "s")" }
        return "\(outcome): \(count(uploadedBatches, "batch")) (\(count(uploadedEvents, "event"))) uploaded, "
            + "\(count(rejectedBatches, "batch")) (\(count(rejectedEvents, "event"))) rejected, "
            + "\(count(droppedEvents, "event")) dropped"
    }
}

extension BinobanFlushResult.Outcome: CustomStringConvertible {
    /// The case's name: `completed`, `keptForRetry`, `paused` or `interrupted`.
    public var description: String {
        switch self {
        case .completed: "completed"
        case .keptForRetry: "keptForRetry"
        case .paused: "paused"
        case .interrupted: "interrupted"
        }
    }
}
