#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The identity of one stored batch. Ordered oldest first.
public struct BinobanBatchID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// A number that grows with every batch a storage opens; older batches have smaller numbers.
    public var sequence: UInt64

    /// Creates a batch identity.
    public init(sequence: UInt64) {
        self.sequence = sequence
    }

    /// Orders batches oldest first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }

    /// The batch number.
    public var description: String { "batch-\(sequence)" }
}

/// A finished batch as read back for upload.
public struct BinobanStoredBatch: Sendable, Hashable {
    /// Which batch this is.
    public var id: BinobanBatchID
    /// The encoded events joined by commas (`{…},{…}`), ready to be placed between `{"batch":[` and
    /// `],"sentAt":…}`. Always a valid sequence of complete JSON objects.
    public var events: Data
    /// How many events the batch holds.
    public var eventCount: Int

    /// Creates a stored batch.
    public init(id: BinobanBatchID, events: Data, eventCount: Int) {
        self.id = id
        self.events = events
        self.eventCount = eventCount
    }
}

/// What an append does when the storage is full: its finished batches reached
/// ``BinobanStorageLimits/maxFinishedBatches`` or ``BinobanStorageLimits/maxTotalBytes``.
public enum BinobanStorageFullBehaviour: Sendable, Hashable {
    /// Delete the oldest finished batches until the new events fit (each one reported in
    /// ``BinobanStorageWriteReport/evictedBatchEvents``).
    case evictOldest
    /// Store the events that fit, from the first, and refuse the rest
    /// (``BinobanStorageWriteReport/refusedEvents``); nothing held is deleted. An empty storage always takes
    /// at least one event, since no upload could ever make room for it.
    case refuse
}

/// What a write did besides storing: batches closed, and anything dropped or refused to respect the bounds.
public struct BinobanStorageWriteReport: Sendable, Hashable {
    /// Events stored by this write.
    public var storedEvents: Int
    /// Events refused because one alone is larger than the storage's event limit.
    public var rejectedOversizeEvents: Int
    /// Finished batches deleted (oldest first) to stay within the file-count and byte caps.
    public var evictedBatches: Int
    /// Events contained in the evicted batches.
    public var evictedEvents: Int
    /// The events of each batch deleted to stay within the caps (``evictedBatches`` entries when the storage
    /// names them). The pipeline uses them to tell an eviction of a batch it is uploading from a real loss.
    public var evictedBatchEvents: [BinobanBatchID: Int]
    /// Events at the end of the call that were not stored because the storage is full and the call asked to
    /// ``BinobanStorageFullBehaviour/refuse``. They are always a suffix of the call's events.
    public var refusedEvents: Int
    /// Which batch each stored event of the call went to: runs of consecutive stored events (in the call's order,
    /// the oversize and refused ones left out), oldest first, adding up to ``storedEvents``. Both storages of this
    /// package fill it (``recordPlacement(of:in:)``); empty when a storage does not say, and the pipeline then
    /// cannot name an event awaited with ``BinobanServerEvents/awaitingDelivery`` that the storage evicts before
    /// it is read.
    public var placements: [BinobanBatchPlacement] = []
    /// Events the storage had stored before and lost to a fault, by batch: the instance's storage directory was
    /// removed, or a batch file was deleted by something else. The pipeline counts them as
    /// ``BinobanStatistics/Drops/storageFailure``. The storages of this package fill it through the instance's
    /// default storage; a storage that cannot lose what it stored leaves it empty.
    public var lostBatchEvents: [BinobanBatchID: Int] = [:]
    /// Events that earlier runs left in the storage's directory and that the storage took into its keeping during
    /// this call (an instance that took its directory over from another process), and their bytes: the pipeline
    /// adds them to ``BinobanStatistics/queuedEvents`` and ``BinobanStatistics/recoveredEvents``.
    public var recoveredEvents = 0
    /// The body bytes of ``recoveredEvents`` (their encoded events joined by commas).
    public var recoveredBytes = 0

    /// Creates a report.
    public init(
        storedEvents: Int = 0, rejectedOversizeEvents: Int = 0, evictedBatches: Int = 0, evictedEvents: Int = 0,
        evictedBatchEvents: [BinobanBatchID: Int] = [:], refusedEvents: Int = 0
    ) {
        self.storedEvents = storedEvents
        self.rejectedOversizeEvents = rejectedOversizeEvents
        self.evictedBatches = evictedBatches
        self.evictedEvents = evictedEvents
        self.evictedBatchEvents = evictedBatchEvents
        self.refusedEvents = refusedEvents
    }

    /// Records that the next `count` stored events of the call went to `batch` (extending the last run when it is
    /// the same batch).
    public mutating func recordPlacement(of count: Int, in batch: BinobanBatchID) {
        guard count > 0 else { return }
        if let last = placements.indices.last, placements[last].batch == batch {
            placements[last].eventCount += count
        } else {
            placements.append(BinobanBatchPlacement(batch: batch, eventCount: count))
        }
    }

    /// Adds another report's evictions (kept for the next write).
    mutating func addEvictions(of other: BinobanStorageWriteReport) {
        evictedBatches += other.evictedBatches
        evictedEvents += other.evictedEvents
        if !other.evictedBatchEvents.isEmpty {
            evictedBatchEvents.merge(other.evictedBatchEvents) { first, _ in first }
        }
    }
}

/// A run of consecutive stored events of one write that went to one batch (``BinobanStorageWriteReport/placements``).
public struct BinobanBatchPlacement: Sendable, Hashable {
    /// The batch the events went to.
    public var batch: BinobanBatchID
    /// How many consecutive stored events of the write went to it.
    public var eventCount: Int

    /// Creates a run.
    public init(batch: BinobanBatchID, eventCount: Int) {
        self.batch = batch
        self.eventCount = eventCount
    }
}

/// What a storage found and repaired when it was opened.
public struct BinobanStorageRecoveryReport: Sendable, Hashable {
    /// Finished batches found from a previous run, ready for upload.
    public var recoveredBatches: Int
    /// Unfinished batches that were finalised (complete events kept).
    public var repairedBatches: Int
    /// Bytes of incomplete trailing events discarded during repair.
    public var discardedBytes: Int
    /// Files that could not be read and were removed (only files this storage created).
    public var removedCorruptFiles: Int

    /// Creates a report.
    public init(
        recoveredBatches: Int = 0, repairedBatches: Int = 0, discardedBytes: Int = 0, removedCorruptFiles: Int = 0
    ) {
        self.recoveredBatches = recoveredBatches
        self.repairedBatches = repairedBatches
        self.discardedBytes = discardedBytes
        self.removedCorruptFiles = removedCorruptFiles
    }
}

/// A failed append and how far it got: the events of the call stored (in order, from the first) before the
/// failure, so that the pipeline counts exactly the ones lost.
public struct BinobanStorageAppendFailure: Error {
    /// How many of the call's events were stored before the failure.
    public var storedEventsBeforeFailure: Int
    /// The storage's own error.
    public var error: any Error

    /// Creates a failure report.
    public init(storedEventsBeforeFailure: Int, error: any Error) {
        self.storedEventsBeforeFailure = storedEventsBeforeFailure
        self.error = error
    }
}

/// Durable, bounded storage of encoded events, grouped into batches.
///
/// The pipeline hands over events already encoded as compact JSON objects. A storage appends them to one open
/// batch, closes the batch before it would exceed the batch byte limit (the upload envelope included), keeps at
/// most a bounded number of finished batches and bytes (evicting the oldest or refusing new events, as each
/// append asks), and gives finished batches back oldest first. A finished batch is never appended to again.
///
/// Every behaviour the pipeline relies on is in these methods and their results, so a wrapper that forwards
/// them keeps it all. Calls may arrive concurrently from the pipeline (an append while a batch is read for
/// upload); an actor orders them.
public protocol BinobanEventStorage: Sendable {
    /// Appends `events` (each one complete JSON object) in order, closing and opening batches as needed.
    ///
    /// - Parameters:
    ///   - events: the encoded events, oldest first.
    ///   - whenFull: whether reaching the caps evicts the oldest finished batches or refuses the events that do
    ///     not fit (reported as ``BinobanStorageWriteReport/refusedEvents``).
    func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport

    /// Appends like ``append(_:whenFull:)`` and, when that fails, says how many of `events` were stored before
    /// the failure. This is what the pipeline calls.
    ///
    /// The default implementation calls ``append(_:whenFull:)`` and reports that none were stored; a storage
    /// that can store part of a call before failing implements it, and a wrapper forwards it.
    func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure>

    /// Closes the open batch, if it holds any event, so that it becomes uploadable.
    ///
    /// - Returns: the batches this close evicted to respect the caps (and any eviction not reported yet), so
    ///   that every dropped event is counted.
    @discardableResult
    func closeOpenBatch() async throws -> BinobanStorageWriteReport

    /// The finished batches, oldest first, at most `limit` of them.
    func finishedBatches(limit: Int) async throws -> [BinobanBatchID]

    /// Reads one finished batch back; `nil` when it no longer exists (evicted or removed). Throws only for a
    /// real fault: the disk refused the read or the batch cannot be decoded.
    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch?

    /// Deletes one finished batch (after a 2xx, or a 4xx that drops it). Removing a missing batch does nothing.
    func remove(_ batch: BinobanBatchID) async throws
}

extension BinobanEventStorage {
    /// Calls ``append(_:whenFull:)``; a failure reports no event stored.
    public func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        do {
            return .success(try await append(events, whenFull: whenFull))
        } catch {
            return .failure(BinobanStorageAppendFailure(storedEventsBeforeFailure: 0, error: error))
        }
    }
}
