#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An event storage that keeps batches in memory, with the same bounds as the durable storage.
///
/// Used when the storage directory is unusable (reported), and by tests and benchmarks. Events of
/// ``BinobanStorageLimits/maxEventBytes`` or more are refused; a batch closes before its events plus the
/// envelope would reach ``BinobanStorageLimits/maxBatchBytes``; at most
/// ``BinobanStorageLimits/maxFinishedBatches`` finished batches and ``BinobanStorageLimits/maxTotalBytes``
/// bytes are kept, the oldest finished batches dropped first.
public actor InMemoryEventStorage: BinobanEventStorage {
    private struct Batch {
        var id: BinobanBatchID
        var events: Data
        var count: Int
        /// Where each event ends in ``events``, so that the batch can be moved event by event.
        var ends: [Int] = []
    }

    private let limits: BinobanStorageLimits
    private let envelopeOverhead: Int
    private var finished: [Batch] = []
    private var finishedBytes = 0
    private var open: Batch?
    private var nextSequence: UInt64 = 1
    /// Evictions made by ``closeOpenBatch()``, which cannot report them; the next append does.
    private var unreportedEvictions = BinobanStorageWriteReport()

    /// Creates an empty storage.
    ///
    /// - Parameters:
    ///   - limits: the bounds to enforce.
    ///   - writeKey: the source identifier, to size the upload envelope exactly; `nil` uses
    ///     ``BinobanStorageLimits/envelopeOverheadBytes``.
    public init(limits: BinobanStorageLimits = BinobanStorageLimits(), writeKey: String? = nil) {
        let limits = limits.validated()  // clamped so that sums of limits and sizes cannot overflow
        self.limits = limits
        envelopeOverhead =
            writeKey.map { BinobanStorageLimits.envelopeOverhead(forWriteKey: $0) }
            ?? limits.envelopeOverheadBytes
    }

    /// The number of finished batches held.
    public var finishedBatchCount: Int { finished.count }

    /// The number of events held, in finished batches and the open one.
    public var storedEventCount: Int { finished.reduce(open?.count ?? 0) { $0 + $1.count } }

    /// The bytes held, in finished batches and the open one.
    public var storedBytes: Int { finishedBytes + (open?.events.count ?? 0) }

    /// The events held (each batch's, joined by commas), the finished batches' oldest first and then the open one's:
    /// what a test reads without closing the open batch, which may evict.
    var storedBatchEvents: [Data] { (finished + (open.map { [$0] } ?? [])).filter { $0.count > 0 }.map(\.events) }

    /// Appends `events` in order, refusing oversize ones and rolling batches over before the size limit.
    public func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour = .evictOldest) async throws
        -> BinobanStorageWriteReport
    {
        var report = unreportedEvictions
        unreportedEvictions = BinobanStorageWriteReport()
        let taken = whenFull == .refuse ? eventsFittingWithoutEviction(events) : events.count
        report.refusedEvents = events.count - taken
        for event in events.prefix(taken) {
            guard event.count < limits.maxEventBytes else {
                report.rejectedOversizeEvents += 1
                continue
            }
            if let current = open,
                limits.finishesOpenBatch(
                    bodyBytes: current.events.count + 1 + event.count,
                    countedBytes: current.events.count + 1 + event.count, envelopeOverhead: envelopeOverhead)
            {
                finish(&report)
            }
            if open == nil {
                open = Batch(id: BinobanBatchID(sequence: nextSequence), events: Data(), count: 0)
                nextSequence += 1
            }
            if open?.count ?? 0 > 0 { open?.events.append(UInt8(ascii: ",")) }
            open?.events.append(event)
            let end = open?.events.count ?? 0
            open?.ends.append(end)
            open?.count += 1
            report.storedEvents += 1
            if let id = open?.id { report.recordPlacement(of: 1, in: id) }
        }
        evict(&report)
        return report
    }

    /// How many of `events`, from the first, can be appended (and the open batch then closed) without evicting a
    /// batch; at least one when the storage is empty.
    private func eventsFittingWithoutEviction(_ events: [Data]) -> Int {
        let maxEventBytes = limits.maxEventBytes
        var forecast = StorageRoomForecast(
            finishedBatches: finished.count,
            countedBytes: finishedBytes,
            openEvents: open?.count ?? 0,
            openBodyBytes: open?.events.count ?? 0,
            openCountedBytes: open?.events.count ?? 0,
            limits: limits,
            envelopeOverhead: envelopeOverhead,
            emptyBatchBytes: 0,
            countedBytesPerEvent: { size, isFirst in size + (isFirst ? 0 : 1) },
            isOversize: { $0 >= maxEventBytes }
        )
        return forecast.fittingPrefix(of: events.lazy.map(\.count))
    }

    /// Closes the open batch if it holds any event; returns the batches that evicted (and any eviction not
    /// reported yet).
    @discardableResult
    public func closeOpenBatch() async throws -> BinobanStorageWriteReport {
        var report = unreportedEvictions
        unreportedEvictions = BinobanStorageWriteReport()
        finish(&report)
        evict(&report)
        return report
    }

    /// The finished batches, oldest first, at most `limit`.
    public func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
        finished.prefix(max(0, limit)).map(\.id)
    }

    /// Reads a finished batch; `nil` when it is gone.
    public func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? {
        guard let found = finished.first(where: { $0.id == batch }) else { return nil }
        return BinobanStoredBatch(id: found.id, events: found.events, eventCount: found.count)
    }

    /// The events of a finished batch, one `Data` each, to move them to another storage; `nil` when it is gone.
    func events(of batch: BinobanBatchID) -> [Data]? {
        guard let found = finished.first(where: { $0.id == batch }) else { return nil }
        var start = 0
        return found.ends.map { end in
            defer { start = end + 1 }
            return found.events.subdata(in: start..<end)
        }
    }

    /// Deletes a finished batch (no-op when it is already gone).
    public func remove(_ batch: BinobanBatchID) async throws {
        guard let index = finished.firstIndex(where: { $0.id == batch }) else { return }
        finishedBytes -= finished[index].events.count
        finished.remove(at: index)
    }

    private func finish(_ report: inout BinobanStorageWriteReport) {
        guard let batch = open, batch.count > 0 else { return }
        open = nil
        finished.append(batch)
        finishedBytes += batch.events.count
    }

    private func evict(_ report: inout BinobanStorageWriteReport) {
        while !finished.isEmpty,
            finished.count > limits.maxFinishedBatches
                || finishedBytes + (open?.events.count ?? 0) > limits.maxTotalBytes
        {
            let oldest = finished.removeFirst()
            finishedBytes -= oldest.events.count
            report.evictedBatches += 1
            report.evictedEvents += oldest.count
            report.evictedBatchEvents[oldest.id] = oldest.count
        }
    }
}
