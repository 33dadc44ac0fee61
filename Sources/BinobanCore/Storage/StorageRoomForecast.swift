/// A forecast of the caps after a write, shared by the storages' ``BinobanStorageFullBehaviour/refuse`` appends:
/// it replays the batch rollover rule on sizes only (no I/O).
struct StorageRoomForecast {
    /// Finished batches now.
    var finishedBatches: Int
    /// Bytes of finished batches the caps count (as the storage counts them).
    var countedBytes: Int
    /// Events in the open batch.
    var openEvents: Int
    /// Body bytes of the open batch (events and commas, as sent).
    var openBodyBytes: Int
    /// Bytes of the open batch the caps count once it is finished.
    var openCountedBytes: Int

    let limits: BinobanStorageLimits
    let envelopeOverhead: Int
    /// Counted bytes of a freshly started batch (the file magic).
    let emptyBatchBytes: Int
    /// What one event of a given size adds to the counted bytes; the flag is `true` for the first event of a
    /// batch, which has no comma before it.
    let countedBytesPerEvent: (Int, Bool) -> Int
    let isOversize: (Int) -> Bool

    /// How many of `sizes`, from the first, can be appended, and the open batch then closed, without going over
    /// the caps. Oversize events (refused anyway) count as fitting; an empty storage takes at least one event.
    mutating func fittingPrefix(of sizes: some Sequence<Int>) -> Int {
        let wasEmpty = finishedBatches == 0 && openEvents == 0
        // Held events that would already evict once the open batch is closed leave no room for anything.
        guard wasEmpty || fitsOnceClosed else { return 0 }
        var fitting = 0
        for size in sizes {
            if !isOversize(size) {
                append(size)
                guard fitsOnceClosed else { return wasEmpty ? max(fitting, 1) : fitting }
            }
            fitting += 1
        }
        return fitting
    }

    private mutating func append(_ size: Int) {
        if openEvents > 0,
            limits.finishesOpenBatch(
                bodyBytes: openBodyBytes + 1 + size, countedBytes: openCountedBytes + countedBytesPerEvent(size, false),
                envelopeOverhead: envelopeOverhead)
        {
            finishedBatches += 1
            countedBytes += openCountedBytes
            openEvents = 0
            openBodyBytes = 0
            openCountedBytes = 0
        }
        if openEvents == 0, openCountedBytes == 0 { openCountedBytes = emptyBatchBytes }
        openBodyBytes += size + (openEvents == 0 ? 0 : 1)
        openCountedBytes += countedBytesPerEvent(size, openEvents == 0)
        openEvents += 1
    }

    /// Whether the caps hold once the open batch is finished too.
    private var fitsOnceClosed: Bool {
        let batches = finishedBatches + (openEvents > 0 ? 1 : 0)
        let bytes = countedBytes + (openEvents > 0 ? openCountedBytes : 0)
        return batches <= max(0, limits.maxFinishedBatches) && bytes <= limits.maxTotalBytes
    }
}
