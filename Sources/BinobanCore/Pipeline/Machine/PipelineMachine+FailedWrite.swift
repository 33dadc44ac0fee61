/// ``PipelineMachine``'s rule for an append that failed after the storage had stored part of its chunk.
extension PipelineMachine {
    /// The events a failed append stored before the failure are queued like those of a write that succeeded
    /// (in the ledger by batch when the storage placed them, otherwise unplaced): they are in storage, and will
    /// leave it uploaded, rejected, evicted or purged. Only the rest of the chunk is lost. Counting them neither
    /// queued nor lost would leave the books open by exactly that many events. Only `stored`'s stored events and
    /// placements are read: a storage carries the evictions a failed append made into its next report.
    mutating func recordStoredBeforeFailure(
        _ stored: BinobanStorageWriteReport, storedBytes: Int, placedBytes: [Int], at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        guard stored.storedEvents > 0 else { return }
        backlog.stored(stored.storedEvents, at: now)
        statistics.storedEvents += stored.storedEvents
        dequeue(ledger.stored(stored, bytes: storedBytes, placedBytes: placedBytes))
        // They count toward the count flush like any stored event.
        countStored(stored.storedEvents, &actions)
    }
}
