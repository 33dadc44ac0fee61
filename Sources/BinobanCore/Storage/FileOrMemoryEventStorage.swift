#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An instance's default storage: its batches in files of its storage directory while it can use it, in memory
/// while it cannot, moved from one to the other as the directory comes and goes.
///
/// - **Leaving the directory.** When the file storage fails (a batch cannot be finished or started, a delivered
///   batch cannot be deleted, the directory or its lock file was removed, which every listing checks), every
///   batch it holds is read back (the open and the unfinished ones through their open descriptors, so they
///   survive the directory's removal) and the storage is dropped. Batches whose file was already gone are lost
///   and reported as such (``BinobanStorageWriteReport/lostBatchEvents``). The directory is then opened again at
///   once (re-created when it was removed): when that works the batches go back into it and one `storage` report
///   says what happened; otherwise they go to memory, with one `storage` report and one counted fallback.
/// - **Coming back.** While in memory, the directory is tried again at the first storage call at least
///   ``retryInterval`` after the last try (the pipeline lists at every flush interval, so an idle instance tries
///   too; nothing runs between calls). When its lock can be taken and it can be written, every batch kept in
///   memory moves to it (one `storage` report), and batches earlier runs left there are added to the books
///   (``BinobanStorageWriteReport/recoveredEvents``).
/// - **Identities.** Each store numbers its own batches, so the pipeline sees the numbers of a
///   ``StoredBatchIDMap``, which stay with a batch when it moves: a batch being uploaded while it moves is deleted
///   wherever it went once it is delivered.
/// - **Copies.** A batch read back from a directory that could be read but not written (made read-only) leaves
///   its file behind; when the same directory is opened again, those files are deleted before anything is listed,
///   so nothing is uploaded twice.
///
/// It runs on the pipeline loop's thread, like the file storage it wraps, so its calls need no thread hop.
actor FileOrMemoryEventStorage: BinobanEventStorage {
    /// What the storage needs from its instance.
    struct Environment: Sendable {
        /// Takes the directory's lock (preparing the directory again when it was removed) and opens the file
        /// storage in it, running on the executor given. Blocking I/O.
        var openFile: @Sendable (any SerialExecutor) throws -> BinobanFileEventStorage
        /// The directory's path, for messages and to recognise it when it is opened again.
        var directoryPath: String
        /// Whether the lock still keeps the directory: `false` once the directory or its lock file was removed.
        var lockIsInPlace: @Sendable () -> Bool
        /// Time on the instance's clock.
        var now: @Sendable () -> Duration
        /// Reports a `storage` problem with its message.
        var report: @Sendable (String) -> Void
        /// Counts a move to memory (``BinobanStatistics/storageFallbacks``).
        var countFallback: @Sendable () -> Void
        /// Whether batches go to the directory now (``BinobanStatistics/storageIsDurable``).
        var durable: LockedValue<Bool>
    }

    /// How long the storage waits in memory before it tries its directory again.
    static var retryInterval: Duration { .seconds(5) }

    private nonisolated let executor: any SerialExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let environment: Environment
    private let memory: InMemoryEventStorage
    /// The file storage in use; `nil` while batches are kept in memory.
    private var file: BinobanFileEventStorage?
    /// The file storage's number in ``ids`` (memory is 0; each file storage opened gets the next number).
    private var fileStore = 0
    private var ids = StoredBatchIDMap()
    /// When the directory is tried again, while in memory.
    private var retryAt: Duration?
    /// Losses, evictions and recoveries not returned yet: the next append or close returns them.
    private var pending = BinobanStorageWriteReport()
    /// Batch files left in a directory that could not be written, whose events were taken elsewhere.
    private var leftovers: Leftovers?
    /// The events and body bytes of the batches earlier runs left, found when the storage was created.
    nonisolated let foundAtOpen: (events: Int, bytes: Int)

    private struct Leftovers {
        /// The directory's device and inode when they were left.
        var directory: [UInt64]
        var sequences: Set<UInt64>
    }

    /// A batch on its way to another store: its identity in ``ids``, its events, and where it is in memory when
    /// it comes from there (it stays there until it is stored elsewhere).
    private struct Moving {
        var id: BinobanBatchID
        var events: [Data]
        var inMemory: BinobanBatchID?
    }

    /// A storage on `initial` (the file storage opened under the instance's lock at creation), or in memory when
    /// that could not be opened (the instance reported why), trying the directory again from ``retryInterval``
    /// on.
    init(
        environment: Environment, initial: BinobanFileEventStorage?, limits: BinobanStorageLimits, writeKey: String,
        executor: any SerialExecutor
    ) {
        self.executor = executor
        self.environment = environment
        memory = InMemoryEventStorage(limits: limits.cappedForMemory, writeKey: writeKey)
        var ids = StoredBatchIDMap()
        if let initial {
            for entry in initial.batchesAtOpen {
                _ = ids.id(for: .init(store: 1, id: BinobanBatchID(sequence: entry.sequence)))
            }
            file = initial
            fileStore = 1
            foundAtOpen = initial.foundAtOpen
        } else {
            foundAtOpen = (0, 0)
            retryAt = environment.now() + Self.retryInterval
        }
        self.ids = ids
        environment.durable.withLock { $0 = initial != nil }
    }

    // MARK: BinobanEventStorage

    func append(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour = .evictOldest
    ) async throws -> BinobanStorageWriteReport {
        switch await appendReportingProgress(events, whenFull: whenFull) {
        case .success(let report): return report
        case .failure(let failure): throw failure.error
        }
    }

    func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        var report = takePending()
        await returnToDiskIfDue(&report)
        var rest = events
        var reopens = 1
        while let file {
            let outcome: (BinobanStorageWriteReport, BinobanFileStorageError?, settled: Int)
            do {
                outcome = try await file.appendKeepingReport(rest, whenFull: whenFull)
            } catch {
                // A malformed event (a pipeline bug): nothing was written.
                pending.add(report)
                return .failure(BinobanStorageAppendFailure(storedEventsBeforeFailure: 0, error: error))
            }
            let (written, failure, settled) = outcome
            report.add(ids.translate(written, store: fileStore))
            guard let failure else { return .success(report) }
            // What the file storage did not settle goes where the batches go next; a refusal is decided there.
            report.refusedEvents -= written.refusedEvents
            rest = Array(rest[settled...])
            await leaveDirectory(because: failure.message, excluding: [], reopen: reopens > 0, &report)
            reopens -= 1
        }
        if !rest.isEmpty {
            // The memory storage never throws.
            let written = (try? await memory.append(rest, whenFull: whenFull)) ?? BinobanStorageWriteReport()
            report.add(ids.translate(written, store: 0))
        }
        return .success(report)
    }

    @discardableResult
    func closeOpenBatch() async throws -> BinobanStorageWriteReport {
        var report = takePending()
        await returnToDiskIfDue(&report)
        if file != nil, !environment.lockIsInPlace() {
            await leaveDirectory(
                because: "the directory or its lock file was removed", excluding: [], reopen: true, &report)
        }
        var reopens = 1
        while let file {
            do {
                report.add(ids.translate(try await file.closeOpenBatch(), store: fileStore))
                return report
            } catch {
                await leaveDirectory(because: "\(error)", excluding: [], reopen: reopens > 0, &report)
                reopens -= 1
            }
        }
        report.add(ids.translate(try await memory.closeOpenBatch(), store: 0))
        return report
    }

    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
        if let file {
            return try await file.finishedBatches(limit: limit).map { ids.id(for: .init(store: fileStore, id: $0)) }
        }
        return try await memory.finishedBatches(limit: limit).map { ids.id(for: .init(store: 0, id: $0)) }
    }

    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? {
        guard let place = ids.place(of: batch) else { return nil }
        if place.store == 0 {
            guard var found = try await memory.read(place.id) else {
                ids.forget(batch)
                return nil
            }
            found.id = batch
            return found
        }
        guard let file, place.store == fileStore else { return nil }
        guard var found = try await file.read(place.id) else {
            // Its file was removed by something else: the events are lost (counted with the next write).
            pending.add(ids.translate(lost(await file.takeVanishedBatches()), store: fileStore))
            ids.forget(batch)
            if !environment.lockIsInPlace() {
                var report = BinobanStorageWriteReport()
                await leaveDirectory(
                    because: "the directory or its lock file was removed", excluding: [], reopen: true, &report)
                pending.add(report)
            }
            return nil
        }
        found.id = batch
        return found
    }

    func remove(_ batch: BinobanBatchID) async throws {
        guard let place = ids.place(of: batch) else { return }
        if place.store == 0 {
            try await memory.remove(place.id)
            ids.forget(batch)
            return
        }
        guard let file, place.store == fileStore else {
            ids.forget(batch)
            return
        }
        do {
            try await file.remove(place.id)
            ids.forget(batch)
        } catch {
            // Delivered but not deletable: the directory cannot be written. The batch is not taken along, and its
            // file is deleted when the directory is opened again.
            ids.forget(batch)
            var report = BinobanStorageWriteReport()
            await leaveDirectory(because: "\(error)", excluding: [place.id], reopen: true, &report)
            pending.add(report)
        }
    }

    // MARK: Moving between directory and memory

    private func takePending() -> BinobanStorageWriteReport {
        defer { pending = BinobanStorageWriteReport() }
        return pending
    }

    private func lost(_ batches: [BinobanBatchID: Int]) -> BinobanStorageWriteReport {
        var report = BinobanStorageWriteReport()
        report.lostBatchEvents = batches
        return report
    }

    /// Reads back what the file storage holds (but `excluding`) and drops it; opens the directory again when
    /// `reopen` says so and puts the batches there, or in memory; reports once.
    private func leaveDirectory(
        because cause: String, excluding: Set<BinobanBatchID>, reopen: Bool, _ report: inout BinobanStorageWriteReport
    ) async {
        guard file != nil else { return }
        let moving = await abandonFile(excluding: excluding, &report)
        if reopen { _ = await openFile(&report) }
        await settle(moving, &report)
        let path = environment.directoryPath
        let held = moving.reduce(0) { $0 + $1.events.count }
        if file != nil {
            environment.report(
                "the storage directory \(path) failed (\(cause)); it was opened again and its \(moving.count) "
                    + "batches (\(held) events) were kept in it")
            return
        }
        retryAt = environment.now() + Self.retryInterval
        environment.durable.withLock { $0 = false }
        environment.countFallback()
        environment.report(
            "the storage directory \(path) can no longer be used (\(cause)); this instance keeps its batches in memory "
                + "(\(moving.count) batches, \(held) events, moved there) and tries the directory again every "
                + "\(Self.retryInterval)")
    }

    /// While in memory and the retry is due: takes the directory if it can and moves every batch kept in memory
    /// to it; stays in memory, silently, if it cannot.
    private func returnToDiskIfDue(_ report: inout BinobanStorageWriteReport) async {
        guard file == nil, let retryAt, environment.now() >= retryAt else { return }
        self.retryAt = environment.now() + Self.retryInterval
        guard await openFile(&report) else { return }
        var moving: [Moving] = []
        if let closed = try? await memory.closeOpenBatch() {
            report.add(ids.translate(closed, store: 0))
        }
        for inner in (try? await memory.finishedBatches(limit: Int.max)) ?? [] {
            guard let events = await memory.events(of: inner) else { continue }
            moving.append(Moving(id: ids.id(for: .init(store: 0, id: inner)), events: events, inMemory: inner))
        }
        await settle(moving, &report)
        guard file != nil else { return }
        self.retryAt = nil
        environment.durable.withLock { $0 = true }
        let held = moving.reduce(0) { $0 + $1.events.count }
        environment.report(
            "the storage directory \(environment.directoryPath) is used again: the \(moving.count) batches "
                + "(\(held) events) kept in memory were moved to it")
    }

    /// Reads back every batch of the file storage but `excluding` (counting what is lost) and drops the storage.
    private func abandonFile(
        excluding: Set<BinobanBatchID>, _ report: inout BinobanStorageWriteReport
    ) async -> [Moving] {
        guard let file else { return [] }
        let salvage = await file.salvage(excluding: excluding)
        self.file = nil
        let store = fileStore
        report.add(ids.translate(salvage.evictions, store: store))
        report.add(ids.translate(lost(salvage.lost), store: store))
        for inner in excluding {
            ids.forget(ids.id(for: .init(store: store, id: inner)))
        }
        if !salvage.leftInDirectory.isEmpty, let directory = StorageDirectory.identity(of: environment.directoryPath) {
            var sequences = Set(salvage.leftInDirectory.map(\.sequence))
            if let earlier = leftovers, earlier.directory == directory { sequences.formUnion(earlier.sequences) }
            leftovers = Leftovers(directory: directory, sequences: sequences)
        }
        return salvage.batches.map { Moving(id: ids.id(for: .init(store: store, id: $0.id)), events: $0.events) }
    }

    /// Opens the file storage (taking the lock, preparing the directory), deletes the copies a read-only stay
    /// left, and counts what earlier runs left there. `false` when the directory cannot be used yet.
    private func openFile(_ report: inout BinobanStorageWriteReport) async -> Bool {
        guard let opened = try? environment.openFile(executor) else { return false }
        var found = opened.foundAtOpen
        var copies: Set<UInt64> = []
        if let leftovers, StorageDirectory.identity(of: environment.directoryPath) == leftovers.directory {
            for entry in opened.batchesAtOpen where leftovers.sequences.contains(entry.sequence) {
                do {
                    try await opened.remove(BinobanBatchID(sequence: entry.sequence))
                } catch {
                    return false  // still not writable
                }
                copies.insert(entry.sequence)
                found.events -= entry.eventCount
                found.bytes -= entry.bodyBytes
            }
        }
        leftovers = nil
        fileStore += 1
        file = opened
        for entry in opened.batchesAtOpen where !copies.contains(entry.sequence) {
            _ = ids.id(for: .init(store: fileStore, id: BinobanBatchID(sequence: entry.sequence)))
        }
        report.recoveredEvents += found.events
        report.recoveredBytes += found.bytes
        return true
    }

    /// Puts each batch into the file storage while there is one, else into memory, keeping its identity. When
    /// the file storage fails on the way, what it holds is read back and goes to memory with the rest.
    private func settle(_ batches: [Moving], _ report: inout BinobanStorageWriteReport) async {
        var queue = batches[...]
        while let next = queue.first {
            guard let file else {
                await putInMemory(next, &report)
                queue.removeFirst()
                continue
            }
            if let partial = await put(next, into: file, &report) {
                let back = await abandonFile(excluding: partial, &report)
                queue = (back + queue)[...]
            } else {
                queue.removeFirst()
            }
        }
    }

    /// Stores one batch as a batch of its own in the file storage; returns the file batches it went to when that
    /// failed part-way (they are copies to leave behind), `nil` when it moved.
    private func put(
        _ batch: Moving, into file: BinobanFileEventStorage, _ report: inout BinobanStorageWriteReport
    ) async -> Set<BinobanBatchID>? {
        var placed: [BinobanBatchID] = []
        do {
            report.add(ids.translate(try await file.closeOpenBatch(), store: fileStore))
            let (written, failure, _) = try await file.appendKeepingReport(batch.events, whenFull: .evictOldest)
            placed = written.placements.map(\.batch)
            report.add(evictions(of: ids.translate(written, store: fileStore)))
            if failure != nil { return Set(placed) }
            report.add(ids.translate(try await file.closeOpenBatch(), store: fileStore))
            keepIdentity(of: batch, storedIn: placed, store: fileStore, droppedEvents: written.rejectedOversizeEvents)
        } catch {
            return Set(placed)
        }
        if let inMemory = batch.inMemory { try? await memory.remove(inMemory) }
        return nil
    }

    /// Stores one batch read back from a file storage as a batch of its own in memory (a batch that comes from
    /// memory is still there).
    private func putInMemory(_ batch: Moving, _ report: inout BinobanStorageWriteReport) async {
        guard batch.inMemory == nil else { return }
        // The memory storage never throws.
        if let closed = try? await memory.closeOpenBatch() { report.add(ids.translate(closed, store: 0)) }
        let written = (try? await memory.append(batch.events, whenFull: .evictOldest)) ?? BinobanStorageWriteReport()
        report.add(evictions(of: ids.translate(written, store: 0)))
        if let closed = try? await memory.closeOpenBatch() { report.add(ids.translate(closed, store: 0)) }
        keepIdentity(
            of: batch, storedIn: written.placements.map(\.batch), store: 0,
            droppedEvents: written.rejectedOversizeEvents)
    }

    /// The moved batch keeps its identity in its first new batch (a batch always fits one of the same limits);
    /// events the new store refused are lost.
    private func keepIdentity(
        of batch: Moving, storedIn placed: [BinobanBatchID], store: Int, droppedEvents: Int
    ) {
        var fresh = placed
        if !fresh.isEmpty {
            let first = fresh.removeFirst()
            ids.forget(ids.id(for: .init(store: store, id: first)))
            ids.move(batch.id, to: .init(store: store, id: first))
        }
        if droppedEvents > 0 { pending.lostBatchEvents[batch.id, default: 0] += droppedEvents }
        if placed.isEmpty { ids.forget(batch.id) }
    }

    /// Only the evictions and losses of a translated report (a move stores no event of the pipeline's call).
    private func evictions(of report: BinobanStorageWriteReport) -> BinobanStorageWriteReport {
        var only = BinobanStorageWriteReport()
        only.addEvictions(of: report)
        only.lostBatchEvents = report.lostBatchEvents
        return only
    }
}
