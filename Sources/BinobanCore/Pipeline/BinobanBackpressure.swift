/// What the pipeline does with new events when the storage is full (its batch or byte cap is reached, which
/// happens during an outage longer than the caps hold).
///
/// The default is ``dropOldest``: the newest data is usually the most useful and a producer is never slowed.
/// Whatever the choice, every event dropped is counted in ``BinobanStatistics`` and reported with its number
/// to ``Configuration/errorHandler``.
public enum BinobanBackpressure: Sendable, Hashable {
    /// Delete the oldest stored batches to make room (reported as ``BinobanError/Kind/storageEviction``).
    case dropOldest
    /// Keep what is stored and drop the new events (reported as ``BinobanError/Kind/storageFull``).
    case dropNewest
    /// Keep everything and hold new events in the write stage until an upload frees room. While the write
    /// stage is full too, `await track(…)` suspends until there is room (or its task is cancelled), so the
    /// producer is slowed instead of losing data; the non-waiting `track(…)` cannot wait and drops the new
    /// event (reported as ``BinobanError/Kind/writeStageOverflow``).
    case wait
}
