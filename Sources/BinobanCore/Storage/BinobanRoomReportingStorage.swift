#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An event storage that can tell, before a write, how much of it fits without pushing out events it holds.
///
/// The pipeline asks before each append and stores only what fits. When nothing fits and uploads are working,
/// it waits for an upload to free room instead of letting the storage drop its oldest batches: the storage caps
/// bound an outage, not a burst (`Docs/Decisions/0207-binoban-write-waits-for-upload.md`). A storage that does
/// not adopt this protocol is written to at once, as before, and evicts by its own rules.
///
/// ```swift
/// let fitting = await storage.eventsFittingWithoutEviction(encoded)
/// _ = try await storage.append(Array(encoded.prefix(fitting)))
/// ```
public protocol BinobanRoomReportingStorage: BinobanEventStorage {
    /// How many of `events`, from the first, can be appended, and the open batch then closed, without evicting
    /// any batch (neither one held now nor one this write makes).
    ///
    /// Events the storage would refuse as oversize count as fitting. An empty storage takes at least one event
    /// even when that event alone exceeds the caps, since waiting could not make more room.
    ///
    /// - Complexity: O(*n*) in the number of events; no I/O.
    func eventsFittingWithoutEviction(_ events: [Data]) async -> Int
}

/// A forecast of the caps after a write, shared by the storages' `eventsFittingWithoutEviction(_:)`: it replays
/// the batch rollover rule on sizes only.
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

    /// How many of `sizes`, from the first, fit; see ``BinobanRoomReportingStorage``.
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
        if openEvents > 0, openBodyBytes + 1 + size + envelopeOverhead >= limits.maxBatchBytes {
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
