/// What ``Binoban/purgeBacklog()`` deleted from storage.
public struct BinobanPurgeResult: Sendable, Hashable {
    /// Events deleted, counted in ``BinobanStatistics/Drops/purged``.
    public var purgedEvents: Int = 0
    /// Batches deleted.
    public var purgedBatches: Int = 0

    /// Creates a result.
    public init(purgedEvents: Int = 0, purgedBatches: Int = 0) {
        self.purgedEvents = purgedEvents
        self.purgedBatches = purgedBatches
    }
}

extension BinobanPurgeResult: CustomStringConvertible {
    /// `purged 40 events in 2 batches`.
    public var description: String { "purged \(purgedEvents) events in \(purgedBatches) batches" }
}

/// What one purge of the storage did, for the machine: what it deleted (with the message ids when a delivery
/// observer listens), what closing the open batch evicted, and the fault that stopped it, if one did.
struct PurgeReport: Sendable, Equatable {
    var events = 0
    var batches = 0
    /// The events of each batch deleted.
    var removed: [BinobanBatchID: Int] = [:]
    /// The message ids read back from deleted batches the pipeline holds no ids of (a previous run's).
    var readBackIds: [BinobanBatchID: [String]] = [:]
    var closed = BinobanStorageWriteReport()
    var failure: String?
}
