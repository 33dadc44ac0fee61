#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Durable, bounded, crash-consistent storage of encoded events in batch files of one directory.
///
/// Each batch is one file named `<namespace>-<20-digit sequence>.open` while events are appended to it, renamed
/// atomically to `….batch` when finished; sequences grow, so batches stay ordered across restarts. Every event
/// is a length- and checksum-framed record (see `Docs/Decisions/0250-batch-file-format.md`), so a process killed
/// mid-write leaves at most one torn record, which the next open discards while keeping every complete event.
///
/// - Opening creates the directory (and missing parents) with permissions 0700, refuses a directory that is not
///   the effective user's alone (owned by another user, or writable by its group or others), takes the
///   namespace's lock, repairs and finishes what a previous run left open, and indexes the finished batches
///   (``recoveryReport``). Files are created exclusively (`O_CREAT | O_EXCL`), 0600; a file of the namespace
///   owned by another user is never read.
/// - One owner at a time: the storage holds an exclusive advisory lock (`flock`) on `<namespace>.lock` in the
///   directory from its opening until ``close()`` or its deallocation, so a second storage on the same directory
///   and namespace, in this process or another, is refused with `directoryInUse` before it reads or changes a file.
///   An actor can be deallocated a moment after the last call on it returned: call ``close()`` before opening the
///   namespace again.
/// - Only files that match this namespace's naming pattern are ever read, repaired or deleted; anything else in
///   the directory is left untouched, so several namespaces (sources) can share one directory.
/// - Durability: each `append` call is written with one `write` per batch it touches, so what it reports as
///   stored survives the process being killed. With ``BinobanFileDurability/survivesPowerLoss`` a batch's data is
///   also flushed to the device (`fdatasync`) before the batch is renamed to finished, so a power loss costs at
///   most the open batch's unflushed tail; with ``BinobanFileDurability/survivesProcessCrash`` (the default) it
///   is not, and a power loss may cost the last few seconds of batches (see ``BinobanFileDurability``).
/// - Bounds (``BinobanStorageLimits``): an event of `maxEventBytes` or more is refused and counted; a batch is
///   finished before its events plus the envelope would reach `maxBatchBytes`; after a batch is finished, the
///   oldest finished batches are deleted until at most `maxFinishedBatches` remain holding at most
///   `maxTotalBytes` bytes of files (the open batch is not counted).
///
/// Evictions that happen outside `append` (at open, or in ``closeOpenBatch()``) are added to the report of the
/// next `append`, so every dropped event is reported once.
///
/// ```swift
/// let storage = try BinobanFileEventStorage(
///     directory: dataDirectory.appending(path: "binoban"),
///     namespace: BinobanFileEventStorage.namespace(forSourceIdentifier: sourceIdentifier))
/// let report = try await storage.append(encodedEvents)
/// try await storage.closeOpenBatch()
/// for id in try await storage.finishedBatches(limit: 20) {
///     let batch = try await storage.read(id)  // upload `{"batch":[` + batch.events + `],…}`
///     try await storage.remove(id)
/// }
/// ```
///
/// The storage is meant for one owner (the pipeline's driver); the lock above refuses any other.
public actor BinobanFileEventStorage: BinobanEventStorage {
    /// The bounds this storage enforces: those it was opened with, each clamped to `0...Int.max / 16` (so that
    /// no sum of limits and sizes can overflow).
    public nonisolated let limits: BinobanStorageLimits
    /// The namespace in the file names of this storage's batches.
    public nonisolated let namespace: String
    /// What opening found: batches left by a previous run, repairs, discarded bytes.
    public nonisolated let recoveryReport: BinobanStorageRecoveryReport
    /// Files of this namespace that opening could not read or repair; they are left in place and not uploaded.
    public nonisolated let recoveryIssues: [BinobanFileStorageError]
    /// What a finished batch survives: a process kill only, or a power loss too.
    public nonisolated let durability: BinobanFileDurability

    /// The storage's own queue (or, for an instance's default storage, its pipeline loop's thread): its blocking
    /// file I/O never runs on the cooperative thread pool.
    private nonisolated let executor: any SerialExecutor

    /// Runs this actor on its own storage queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let files: POSIXFileSystem
    /// This storage's claim on its namespace, dropped when the storage is deallocated.
    private nonisolated let lock: NamespaceLock
    /// Finished batches, oldest first.
    private var finished: [BatchIndexEntry]
    /// Sum of the finished batches' file sizes.
    private var finishedBytes: Int
    /// The batch being appended to, if its file exists.
    private var openBatch: OpenBatch?
    /// The sequence of the next batch.
    private var nextSequence: UInt64
    /// Evictions not yet returned in a write report.
    private var unreportedEvictions = BinobanStorageWriteReport()
    /// Batches whose finishing failed (the flush or the rename to `.batch`): their descriptors stay open, so their
    /// events stay readable even if the directory was removed, and finishing them is tried again before the next
    /// batch is finished.
    private var stranded: [OpenBatch] = []
    /// Finished batches whose file was gone when they were read (removed by something else than this storage),
    /// with their events: lost, and not reported by any write (``takeVanishedBatches()``).
    private var vanished: [BinobanBatchID: Int] = [:]
    /// The events and body bytes of the finished batches opening found (before any eviction at open): what earlier
    /// runs left.
    nonisolated let foundAtOpen: (events: Int, bytes: Int)
    /// The finished batches opening found, oldest first, before any eviction at open (evicted ones are reported
    /// by the next write).
    nonisolated let batchesAtOpen: [BatchIndexEntry]

    /// The newest batch's upload body, kept in memory so that reading it back needs no file read.
    private var recent = RecentBatchBody()
    /// The file of an uploaded batch, cut to a header, kept for the next batch instead of creating a file (Decision
    /// 0232).
    private var spare: SpareFile?
    /// The newest finished batch's descriptor, kept open until the batch is removed (its file then becomes the spare
    /// through it) or leaves the index otherwise (then closed): Decision 0232, second addendum.
    private var finishedDescriptor: FinishedDescriptor?
    /// ``close()`` was called: the namespace is given back and no file is touched any more.
    private var closed = false

    /// The batch file currently appended to.
    private struct OpenBatch {
        var entry: BatchIndexEntry
        var descriptor: Int32
        /// Its `.open` file name (named once, not on every write).
        var name: String
    }

    /// Opens (creating if needed) the storage in `directory`, repairing what a previous run left unfinished.
    ///
    /// This does file I/O (a listing, and reading every batch file of the namespace to check it); call it off
    /// any latency-sensitive thread.
    ///
    /// - Parameters:
    ///   - directory: A file URL of the directory; missing parents are created, each with permissions 0700.
    ///   - limits: The bounds to enforce, each clamped to `0...Int.max / 16` (a negative one is
    ///     reported for the default storage as a configuration adjustment).
    ///   - namespace: Goes into every file name; 1 to 100 ASCII letters, digits, `_`, `-` or `.`, not starting
    ///     with `.`. ``namespace(forSourceIdentifier:)`` derives one from any source identifier.
    ///   - durability: Whether finished batches are flushed to the device (``BinobanFileDurability``). Both
    ///     levels survive a process kill without losing or breaking a stored event.
    /// - Throws: ``BinobanFileStorageError`` with code `directoryUnusable` when the directory cannot be created,
    ///   is not a directory, cannot be listed, written or locked; `unsafeOwnership` when it is owned by another
    ///   user or writable by its group or others; `directoryInUse` when another storage, in this process or
    ///   another, holds the namespace; `invalidNamespace` for a bad namespace. The messages name the directory.
    public init(
        directory: URL, limits: BinobanStorageLimits = .init(), namespace: String,
        durability: BinobanFileDurability = .survivesProcessCrash
    ) throws(BinobanFileStorageError) {
        let lock = try NamespaceLock.acquire(directory: directory, namespace: namespace)
        try self.init(lock: lock, limits: limits, namespace: namespace, durability: durability)
    }

    /// Opens the storage under `lock`, already taken on `namespace` in its directory (by the instance that owns
    /// the directory's batches and identity); the storage keeps the lock until it is deallocated. With `executor`
    /// the storage runs there (the pipeline loop's own thread, so that its calls need no thread hop); without, on
    /// a queue of its own.
    init(
        lock: NamespaceLock, limits: BinobanStorageLimits, namespace: String, durability: BinobanFileDurability,
        executor: (any SerialExecutor)? = nil
    ) throws(BinobanFileStorageError) {
        let limits = limits.validated()  // clamped so that sums of limits and sizes cannot overflow
        guard BatchFileName.isValidNamespace(namespace) else {
            throw BinobanFileStorageError(
                code: .invalidNamespace,
                message: "the namespace must be 1 to 100 ASCII letters, digits, '_', '-' or '.', not starting with '.'"
            )
        }
        let path = lock.directory
        let files = POSIXFileSystem(directory: path)
        let outcome: BatchDirectoryRecovery.Outcome
        do {
            outcome = try BatchDirectoryRecovery(
                files: files, namespace: namespace,
                readLimit: BatchRecordFormat.readLimit(maxBatchBytes: limits.maxBatchBytes), durability: durability
            ).run()
        } catch {
            throw BinobanFileStorageError(
                code: .directoryUnusable, message: "the storage directory \(path) cannot be listed: \(error.message)",
                systemErrorNumber: error.systemErrorNumber)
        }
        // Recovery only recognises sequences up to BatchFileName.maximumSequence, so this cannot overflow.
        let highest = outcome.highestSequence ?? 0
        self.executor = executor ?? StorageExecutor(label: "binoban.storage.\(namespace)")
        self.limits = limits
        self.namespace = namespace
        self.files = files
        self.lock = lock
        self.recoveryReport = outcome.report
        self.recoveryIssues = outcome.issues
        self.durability = durability
        self.finished = outcome.batches
        self.batchesAtOpen = outcome.batches
        self.foundAtOpen = outcome.batches.reduce((0, 0)) { ($0.0 + $1.eventCount, $0.1 + $1.bodyBytes) }
        self.finishedBytes = outcome.batches.reduce(0) { $0 + $1.fileBytes }
        self.nextSequence = highest + 1
        self.openBatch = nil
        var evictions = BinobanStorageWriteReport()
        Self.evictOldest(
            finished: &finished, finishedBytes: &finishedBytes, limits: limits, files: files, namespace: namespace,
            report: &evictions)
        self.unreportedEvictions = evictions
    }

    deinit {
        if let openBatch {
            // The file stays `.open`; the next open finishes it with every event it holds.
            closeDescriptor(openBatch.descriptor)
        }
        for batch in stranded {
            closeDescriptor(batch.descriptor)
        }
        if let finishedDescriptor { closeDescriptor(finishedDescriptor.descriptor) }
        if let spare {
            if let descriptor = spare.descriptor { closeDescriptor(descriptor) }
            try? files.removeIfPresent(spare.name)
        }
    }

    /// A namespace for `sourceIdentifier` that is valid in file names.
    ///
    /// An identifier made only of ASCII letters, digits, `_` and `-` (at most 64 bytes) is used as it is.
    /// Otherwise every other byte becomes `_`, the result is cut to 64 bytes, and a dash plus the 16-hex-digit
    /// FNV-1a hash of the whole identifier is added, so different identifiers keep different namespaces.
    public static func namespace(forSourceIdentifier sourceIdentifier: String) -> String {
        let bytes = Array(sourceIdentifier.utf8)
        let safe = bytes.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                return byte
            default:
                return UInt8(ascii: "_")
            }
        }
        if safe == bytes && !bytes.isEmpty && bytes.count <= 64 {
            return sourceIdentifier
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        let padded = String(repeating: "0", count: 16 - hex.utf8.count) + hex
        return String(decoding: safe.prefix(64), as: UTF8.self) + "-" + padded
    }

    // MARK: BinobanEventStorage

    /// Appends `events` in order, finishing and starting batches as needed, and reports what it stored, refused
    /// and evicted.
    ///
    /// Events of `maxEventBytes` or more (or too large to fit a batch with its envelope) are refused and counted.
    /// The events going into one batch are written with a single `write`.
    ///
    /// - Throws: ``BinobanFileStorageError``: `malformedEvent` (nothing written) when an event is not framed as
    ///   a JSON object; `ioFailure` when the disk refuses a write, with the number of this call's events stored
    ///   before the failure in `storedEventsBeforeFailure`.
    public func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour = .evictOldest) throws
        -> BinobanStorageWriteReport
    {
        try checkOpen()
        return try appendEvents(events, whenFull: whenFull)
    }

    /// Appends like ``append(_:whenFull:)``; a failure carries the error's ``BinobanFileStorageError/storedEventsBeforeFailure``.
    public func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        do {
            try checkOpen()
            return .success(try appendEvents(events, whenFull: whenFull))
        } catch {
            return .failure(
                BinobanStorageAppendFailure(storedEventsBeforeFailure: error.storedEventsBeforeFailure, error: error))
        }
    }

    private func appendEvents(_ events: [Data], whenFull: BinobanStorageFullBehaviour) throws(BinobanFileStorageError)
        -> BinobanStorageWriteReport
    {
        let (report, failure, _) = try appendKeepingReport(events, whenFull: whenFull)
        if var failure {
            // Keep the evictions already made for the next report; say how many events made it to disk.
            unreportedEvictions.addEvictions(of: report)
            failure.storedEventsBeforeFailure = report.storedEvents
            throw failure
        }
        return report
    }

    /// Appends like ``append(_:whenFull:)``; when the disk fails part-way, returns the report of what the call
    /// did before the failure (stored events and their placements, evictions) beside the failure, and how many of
    /// the call's events, from the first, it settled (stored, or refused as oversize; the report counts no
    /// oversize event after them), so that a wrapper can put the rest elsewhere. Throws only `malformedEvent`,
    /// before writing anything.
    func appendKeepingReport(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) throws(BinobanFileStorageError) -> (BinobanStorageWriteReport, BinobanFileStorageError?, settled: Int) {
        try checkOpen()
        for (index, event) in events.enumerated() where !isOversize(event) && !Self.isFramedAsObject(event) {
            throw BinobanFileStorageError(
                code: .malformedEvent, message: "event \(index) of the call is not a JSON object ({…})")
        }
        var report = unreportedEvictions
        unreportedEvictions = BinobanStorageWriteReport()
        let taken = whenFull == .refuse ? eventsFittingWithoutEviction(events) : events.count
        report.refusedEvents = events.count - taken
        var pending = PendingWrite()
        // One allocation for the call's records (the events a batch finish writes early only leave room unused):
        // grown record by record, the buffer was copied at every doubling.
        pending.bytes.reserveCapacity(
            events.prefix(taken).reduce(0) { $0 + $1.count + BatchRecordFormat.recordHeaderBytes })
        var settled = 0
        var oversizeAfterSettled = 0
        // The open batch's figures as of the last write, read again only when a write, finish or start changed
        // them: every read of the actor's `openBatch` was an exclusivity check, three per event.
        var open = openBatch?.entry
        do {
            for (position, event) in events.prefix(taken).enumerated() {
                let size = event.count
                if isOversize(size) {
                    report.rejectedOversizeEvents += 1
                    oversizeAfterSettled += 1
                    continue
                }
                if let entry = open, entry.eventCount + pending.eventCount > 0 {
                    let body = entry.bodyBytes + pending.bodyBytes + 1 + size
                    let counted = entry.fileBytes + pending.bytes.count + BatchRecordFormat.recordHeaderBytes + size
                    if limits.finishesOpenBatch(
                        bodyBytes: body, countedBytes: counted, envelopeOverhead: limits.envelopeOverheadBytes)
                    {
                        try write(&pending, report: &report)
                        settled = position
                        oversizeAfterSettled = 0
                        try finishOpenBatch(report: &report)
                        open = openBatch?.entry
                    }
                }
                if open == nil {
                    try startBatch()
                    open = openBatch?.entry
                }
                let isFirst = (open?.eventCount ?? 0) + pending.eventCount == 0
                BatchRecordFormat.appendRecord(event, to: &pending.bytes)
                pending.eventCount += 1
                pending.bodyBytes += size + (isFirst ? 0 : 1)
            }
            try write(&pending, report: &report)
        } catch {
            var failure = error
            failure.storedEventsBeforeFailure = report.storedEvents
            report.rejectedOversizeEvents -= oversizeAfterSettled
            return (report, failure, settled)
        }
        return (report, nil, taken)
    }

    /// How many of `events`, from the first, can be appended (and the open batch then finished) without evicting
    /// a batch; at least one when the storage is empty. No I/O.
    private func eventsFittingWithoutEviction(_ events: [Data]) -> Int {
        let limits = self.limits
        var forecast = StorageRoomForecast(
            finishedBatches: finished.count,
            countedBytes: finishedBytes,
            openEvents: openBatch?.entry.eventCount ?? 0,
            openBodyBytes: openBatch?.entry.bodyBytes ?? 0,
            openCountedBytes: openBatch?.entry.fileBytes ?? 0,
            limits: limits,
            envelopeOverhead: limits.envelopeOverheadBytes,
            emptyBatchBytes: BatchRecordFormat.magic.count,
            countedBytesPerEvent: { size, _ in size + BatchRecordFormat.recordHeaderBytes },
            isOversize: { $0 >= limits.maxEventBytes || $0 + limits.envelopeOverheadBytes >= limits.maxBatchBytes }
        )
        // A closure, not the key path `\.count`: a key path is applied through the runtime for every event.
        return forecast.fittingPrefix(of: events.lazy.map { $0.count })
    }

    /// Finishes the open batch, if it holds any event, so that it becomes uploadable; returns the batches that
    /// evicted (and any eviction not reported yet, such as one made at open).
    @discardableResult
    public func closeOpenBatch() throws -> BinobanStorageWriteReport {
        try checkOpen()
        var report = unreportedEvictions
        unreportedEvictions = BinobanStorageWriteReport()
        do {
            try finishOpenBatch(report: &report)
        } catch {
            unreportedEvictions.addEvictions(of: report)
            throw error
        }
        return report
    }

    /// The finished batches, oldest first, at most `limit` of them (none when `limit` is zero or less).
    public func finishedBatches(limit: Int) throws -> [BinobanBatchID] {
        try checkOpen()
        return finished.prefix(max(0, limit)).map { BinobanBatchID(sequence: $0.sequence) }
    }

    /// Reads a finished batch: its events joined by commas, ready to go between `{"batch":[` and `],…}`.
    ///
    /// The file is checked again while it is read; only intact events are returned, so the body is always a
    /// valid sequence of JSON objects.
    ///
    /// - Returns: `nil` when `batch` is not a finished batch of this storage (evicted, removed, or still open).
    /// - Throws: ``BinobanFileStorageError`` with code `corruptBatch` when the file no longer holds any intact
    ///   event (it is then deleted), or `ioFailure`.
    public func read(_ batch: BinobanBatchID) throws -> BinobanStoredBatch? {
        try checkOpen()
        guard let index = finished.firstIndex(where: { $0.sequence == batch.sequence }) else { return nil }
        let name = fileName(batch.sequence, .finished)
        // Written by this storage a moment ago: while its file is there, ours and of the size written, the bytes
        // held are its events. Anything else (a file gone, replaced or cut) takes the file's path below.
        if let body = recent.body(of: batch.sequence, eventCount: finished[index].eventCount),
            linkedFileSize(of: batch.sequence, name: name) == finished[index].fileBytes
        {
            return BinobanStoredBatch(id: batch, events: Data(body.events), eventCount: body.eventCount)
        }
        let readLimit = BatchRecordFormat.readLimit(maxBatchBytes: limits.maxBatchBytes)
        guard let (bytes, _) = try files.readRegularFile(name, maxBytes: readLimit) else {
            // Removed by something else than this storage (a cleaner, a user): its events are lost.
            vanished[batch, default: 0] += finished[index].eventCount
            dropFromIndex(at: index)
            return nil
        }
        let body = bytes.withUnsafeBytes { BatchRecordFormat.body(of: $0) }
        guard body.eventCount > 0 else {
            try files.removeIfPresent(name)
            dropFromIndex(at: index)
            throw BinobanFileStorageError(code: .corruptBatch, message: "\(name) holds no intact event; deleted")
        }
        // Handed over as it is: `Data(body.events)` copied the body again.
        return BinobanStoredBatch(id: batch, events: body.events, eventCount: body.eventCount)
    }

    /// Deletes a finished batch. Removing a batch that is already gone (or was never finished) does nothing.
    ///
    /// - Throws: ``BinobanFileStorageError`` with code `ioFailure` when the file exists but cannot be deleted.
    public func remove(_ batch: BinobanBatchID) throws {
        try checkOpen()
        guard let index = finished.firstIndex(where: { $0.sequence == batch.sequence }) else { return }
        let name = fileName(batch.sequence, .finished)
        // Taken before the index forgets the batch: the spare may keep it.
        let descriptor = takeFinishedDescriptor(of: batch.sequence)
        // The first removal without a spare keeps the file, cut to a header, for the next batch (Decision 0232).
        if spare == nil {
            let spareName = SpareBatchFile.fileName(sequence: batch.sequence, namespace: namespace)
            let length = BatchRecordFormat.magic.count
            if (try? files.keepAsSpare(name, as: spareName, length: length, descriptor: descriptor)) == true {
                spare = SpareFile(name: spareName, descriptor: descriptor)
                dropFromIndex(at: index)
                return
            }
        }
        if let descriptor { closeDescriptor(descriptor) }
        try files.removeIfPresent(name)
        dropFromIndex(at: index)
    }

    // MARK: Giving up the directory

    /// Gives the directory back now: when this call returns, the namespace's lock is released, so a storage opened
    /// next on the same directory and namespace (in this process or another) is not refused with
    /// `directoryInUse`. Without it the lock goes when the storage is deallocated, which for an actor can be a
    /// moment after the last call that used it returned (the runtime may still hold it on its executor).
    ///
    /// Nothing stored is lost: the batch being appended to stays as it is on disk and the next open finishes it
    /// with every event it holds, as after a process exit. Afterwards every call of this storage throws
    /// ``BinobanFileStorageError`` with code `closed` and touches no file; closing again does nothing.
    ///
    /// ```swift
    /// await storage.close()
    /// let reopened = try BinobanFileEventStorage(directory: directory, namespace: storage.namespace)
    /// ```
    public func close() {
        guard !closed else { return }
        closed = true
        if let openBatch { closeDescriptor(openBatch.descriptor) }
        for batch in stranded { closeDescriptor(batch.descriptor) }
        openBatch = nil
        stranded = []
        releaseFinishedDescriptor()
        if let spare { remove(spare) }
        spare = nil
        finished = []
        finishedBytes = 0
        lock.release()
    }

    /// Throws `closed` once ``close()`` was called.
    private func checkOpen() throws(BinobanFileStorageError) {
        guard closed else { return }
        throw BinobanFileStorageError(
            code: .closed, message: "the storage of namespace \(namespace) was closed; open it again to use it")
    }

    /// The finished batches whose file was gone when they were read, with their events, since the last call.
    func takeVanishedBatches() -> [BinobanBatchID: Int] {
        defer { vanished = [:] }
        return vanished
    }

    /// Everything this storage holds, read back to be kept elsewhere when its directory became unusable.
    struct Salvage: Sendable {
        /// The batches still readable, oldest first (finished ones, then those whose finishing failed, then the
        /// open one), with their intact events.
        var batches: [(id: BinobanBatchID, events: [Data])] = []
        /// Events that could not be read back, by batch: lost.
        var lost: [BinobanBatchID: Int] = [:]
        /// The batches whose file is still in the directory (it could not be written, but it can be read): once
        /// the directory can be written again, these files are copies of what was taken elsewhere.
        var leftInDirectory: [BinobanBatchID] = []
        /// Evictions not reported yet.
        var evictions = BinobanStorageWriteReport()
    }

    /// Reads back every batch this storage holds, except `excluding` (and those already gone, counted as lost),
    /// and forgets them all: the storage is empty afterwards and writes nothing more to the files it read. A batch
    /// being appended to, or whose finishing failed, is read through its open descriptor, so its events survive
    /// the removal of the directory.
    func salvage(excluding: Set<BinobanBatchID> = []) -> Salvage {
        var salvage = Salvage(lost: takeVanishedBatches(), evictions: unreportedEvictions)
        unreportedEvictions = BinobanStorageWriteReport()
        let readLimit = BatchRecordFormat.readLimit(maxBatchBytes: limits.maxBatchBytes)
        for entry in finished {
            let id = BinobanBatchID(sequence: entry.sequence)
            let read = try? files.readRegularFile(fileName(entry.sequence, .finished), maxBytes: readLimit)
            if read != nil { salvage.leftInDirectory.append(id) }
            guard !excluding.contains(id) else { continue }
            let events = read.map { bytes in bytes.bytes.withUnsafeBytes { BatchRecordFormat.events(of: $0) } } ?? []
            keep(events, of: entry, id: id, in: &salvage)
        }
        for open in stranded + (openBatch.map { [$0] } ?? []) {
            let id = BinobanBatchID(sequence: open.entry.sequence)
            let name = open.name
            let bytes = (try? files.readFromStart(open.descriptor, length: open.entry.fileBytes, name: name)) ?? []
            closeDescriptor(open.descriptor)
            if files.exists(name) { salvage.leftInDirectory.append(id) }
            guard !excluding.contains(id) else { continue }
            keep(bytes.withUnsafeBytes { BatchRecordFormat.events(of: $0) }, of: open.entry, id: id, in: &salvage)
        }
        finished = []
        finishedBytes = 0
        releaseFinishedDescriptor()
        stranded = []
        openBatch = nil
        recent.forgetAll()
        return salvage
    }

    private func keep(_ events: [Data], of entry: BatchIndexEntry, id: BinobanBatchID, in salvage: inout Salvage) {
        let kept = Array(events.prefix(entry.eventCount))
        if !kept.isEmpty { salvage.batches.append((id, kept)) }
        if entry.eventCount > kept.count { salvage.lost[id, default: 0] += entry.eventCount - kept.count }
    }

    // MARK: Writing

    /// Records encoded for the open batch but not yet written.
    private struct PendingWrite {
        var bytes: [UInt8] = []
        var eventCount = 0
        var bodyBytes = 0
    }

    /// How many taken batch names ``startBatch()`` skips in one call before it reports a failure.
    static let maximumSkippedSequences = 64

    private func isOversize(_ event: Data) -> Bool {
        isOversize(event.count)
    }

    /// Whether an event of `size` bytes is refused as oversize.
    private func isOversize(_ size: Int) -> Bool {
        size >= limits.maxEventBytes || size + limits.envelopeOverheadBytes >= limits.maxBatchBytes
    }

    private static func isFramedAsObject(_ event: Data) -> Bool {
        event.first == UInt8(ascii: "{") && event.last == UInt8(ascii: "}") && event.count >= 2
    }

    private func fileName(_ sequence: UInt64, _ state: BatchFileName.State) -> String {
        BatchFileName(sequence: sequence, state: state).fileName(namespace: namespace)
    }

    /// Creates the next `.open` file and writes the format's magic to it.
    ///
    /// Each sequence is tried once: it is used up whether or not its file could be created, so one failure never
    /// makes every later append fail on the same name. A sequence whose `.open` or `.batch` name is already taken
    /// (a file that appeared after opening: copied in, or written by a process that ignored the lock) is skipped
    /// and the file left alone, up to ``maximumSkippedSequences`` in one call.
    private func startBatch() throws(BinobanFileStorageError) {
        var skipped = 0
        var sequence: UInt64 = 0
        var descriptor: Int32 = -1
        var name = ""
        // A reused spare holds the header already (Decision 0232): it is not written again.
        var headerWritten = false
        while true {
            sequence = nextSequence
            guard sequence <= BatchFileName.maximumSequence else {
                throw BinobanFileStorageError(
                    code: .ioFailure, message: "the batch sequence of namespace \(namespace) is exhausted")
            }
            nextSequence += 1
            name = fileName(sequence, .open)
            if !files.exists(fileName(sequence, .finished)) {
                if let spare {
                    self.spare = nil
                    do {
                        descriptor = try reuse(spare, as: name)
                        headerWritten = true
                        break
                    } catch {
                        // The name is taken: the spare waits for the next sequence. Any other failure: a new file.
                        if error.systemErrorNumber == EEXIST {
                            self.spare = spare
                        } else {
                            remove(spare)
                        }
                    }
                }
                if descriptor < 0 {
                    do {
                        descriptor = try files.createExclusive(name, appending: true)
                        break
                    } catch {
                        guard error.systemErrorNumber == EEXIST else { throw error }
                    }
                }
            }
            skipped += 1
            guard skipped < Self.maximumSkippedSequences else {
                throw BinobanFileStorageError(
                    code: .ioFailure,
                    message: "\(skipped) batch names in a row up to \(name) are taken by files this storage did not "
                        + "create", systemErrorNumber: EEXIST)
            }
        }
        do {
            if !headerWritten { try files.writeAll(descriptor, BatchRecordFormat.magic, name: name) }
        } catch {
            closeDescriptor(descriptor)
            try? files.removeIfPresent(name)
            throw error
        }
        let entry = BatchIndexEntry(
            sequence: sequence, fileBytes: BatchRecordFormat.magic.count, eventCount: 0, bodyBytes: 0)
        openBatch = OpenBatch(entry: entry, descriptor: descriptor, name: name)
        recent.began(sequence)
    }

    /// Writes the pending records to the open batch with one `write`. On failure the file is cut back to its
    /// last complete record (or, if even that fails, left for the next open to repair).
    private func write(_ pending: inout PendingWrite, report: inout BinobanStorageWriteReport)
        throws(BinobanFileStorageError)
    {
        guard pending.eventCount > 0, var open = openBatch else { return }
        let name = open.name
        do {
            try files.writeAll(open.descriptor, pending.bytes, name: name)
        } catch {
            recent.lostTrack(of: open.entry.sequence)
            pending = PendingWrite()
            do {
                try files.truncate(open.descriptor, to: open.entry.fileBytes, name: name)
            } catch {
                closeDescriptor(open.descriptor)
                openBatch = nil
            }
            throw error
        }
        open.entry.fileBytes += pending.bytes.count
        open.entry.eventCount += pending.eventCount
        open.entry.bodyBytes += pending.bodyBytes
        openBatch = open
        recent.wrote(records: pending.bytes, to: open.entry.sequence)
        report.storedEvents += pending.eventCount
        report.recordPlacement(of: pending.eventCount, in: BinobanBatchID(sequence: open.entry.sequence))
        pending.bytes.removeAll(keepingCapacity: true)
        pending.eventCount = 0
        pending.bodyBytes = 0
    }

    /// Finishes the batches whose finishing failed before, then the open batch (an open batch without events is
    /// deleted instead). A batch that cannot be finished is kept open (``stranded``) and the call throws.
    private func finishOpenBatch(report: inout BinobanStorageWriteReport) throws(BinobanFileStorageError) {
        // Batches whose finishing failed before go first, in order, so that batches stay ordered.
        while var first = stranded.first {
            if !files.exists(first.name) {
                first = try rewrite(first)
                stranded[0] = first
            }
            try finish(first, report: &report)
            stranded.removeFirst()
        }
        guard let open = openBatch else { return }
        openBatch = nil
        guard open.entry.eventCount > 0 else {
            closeDescriptor(open.descriptor)
            recent.forget(open.entry.sequence)
            try files.removeIfPresent(open.name)
            return
        }
        do {
            try finish(open, report: &report)
        } catch {
            // Kept with its descriptor: its events are neither lost nor uncounted, and finishing is tried again.
            stranded.append(open)
            throw error
        }
    }

    /// Writes what the descriptor of a batch whose file is gone (its directory removed, then made again) still
    /// reads into a new file of the same name; returns the batch on the new descriptor.
    private func rewrite(_ batch: OpenBatch) throws(BinobanFileStorageError) -> OpenBatch {
        let name = batch.name
        let bytes = try files.readFromStart(batch.descriptor, length: batch.entry.fileBytes, name: name)
        let descriptor = try files.createExclusive(name, appending: true)
        do {
            try files.writeAll(descriptor, bytes, name: name)
        } catch {
            closeDescriptor(descriptor)
            try? files.removeIfPresent(name)
            throw error
        }
        closeDescriptor(batch.descriptor)
        var moved = batch
        moved.descriptor = descriptor
        return moved
    }

    /// Flushes (when surviving power loss), renames to finished and closes one batch holding events, then enforces
    /// the caps. On a failure the descriptor stays open and nothing changes.
    private func finish(_ open: OpenBatch, report: inout BinobanStorageWriteReport) throws(BinobanFileStorageError) {
        let name = open.name
        if durability == .survivesPowerLoss {
            try files.synchronize(open.descriptor, name: name)
        }
        try files.rename(name, to: fileName(open.entry.sequence, .finished))
        // Kept, not closed: the batch's file is likely the next spare (at most one descriptor is kept).
        releaseFinishedDescriptor()
        finishedDescriptor = FinishedDescriptor(sequence: open.entry.sequence, descriptor: open.descriptor)
        recent.finished(open.entry.sequence)
        finished.append(open.entry)
        finishedBytes += open.entry.fileBytes
        Self.evictOldest(
            finished: &finished, finishedBytes: &finishedBytes, limits: limits, files: files, namespace: namespace,
            report: &report)
        if finished.last?.sequence != open.entry.sequence { releaseFinishedDescriptor() }
        // The directory is not synced here: if the rename does not survive a power loss, the file is found as
        // `.open` at the next start and finished then with the same events (Docs/Decisions/0251).
    }

    /// Deletes the oldest finished batches until the count and byte caps hold, counting what it drops. A file
    /// that cannot be deleted stays indexed (and is retried after the next batch is finished).
    private static func evictOldest(
        finished: inout [BatchIndexEntry], finishedBytes: inout Int, limits: BinobanStorageLimits,
        files: POSIXFileSystem, namespace: String, report: inout BinobanStorageWriteReport
    ) {
        var index = 0
        var count = finished.count
        var bytes = finishedBytes
        var evicted: Set<Int> = []
        while index < finished.count && (count > max(0, limits.maxFinishedBatches) || bytes > limits.maxTotalBytes) {
            let entry = finished[index]
            let name = BatchFileName(sequence: entry.sequence, state: .finished).fileName(namespace: namespace)
            if (try? files.removeIfPresent(name)) != nil {
                evicted.insert(index)
                count -= 1
                bytes -= entry.fileBytes
                report.evictedBatches += 1
                report.evictedEvents += entry.eventCount
                report.evictedBatchEvents[BinobanBatchID(sequence: entry.sequence)] = entry.eventCount
            }
            index += 1
        }
        if !evicted.isEmpty {
            finished = finished.enumerated().filter { !evicted.contains($0.offset) }.map(\.element)
            finishedBytes = bytes
        }
    }

    private func dropFromIndex(at index: Int) {
        if let descriptor = takeFinishedDescriptor(of: finished[index].sequence) { closeDescriptor(descriptor) }
        recent.forget(finished[index].sequence)
        finishedBytes -= finished[index].fileBytes
        finished.remove(at: index)
    }
}

extension BinobanFileEventStorage {
    /// The kept descriptor of the finished batch `sequence`, given up by the storage; nil when another batch's (or
    /// none) is kept.
    private func takeFinishedDescriptor(of sequence: UInt64) -> Int32? {
        guard let finishedDescriptor, finishedDescriptor.sequence == sequence else { return nil }
        self.finishedDescriptor = nil
        return finishedDescriptor.descriptor
    }

    /// Closes the kept descriptor of a finished batch, if any.
    private func releaseFinishedDescriptor() {
        if let finishedDescriptor { closeDescriptor(finishedDescriptor.descriptor) }
        finishedDescriptor = nil
    }

    /// The size of finished batch `sequence`'s file while the file still has a name: through the kept descriptor
    /// when it is that batch's (its file is this storage's own, and a removed or replaced file has no name left), else
    /// by `name` (a regular file of the effective user).
    private func linkedFileSize(of sequence: UInt64, name: String) -> Int? {
        guard let finishedDescriptor, finishedDescriptor.sequence == sequence else {
            return files.ownRegularFileSize(name)
        }
        return files.linkedFileSize(finishedDescriptor.descriptor)
    }

    /// Opens the next batch on the spare: through its kept descriptor when it has one, else by its name.
    private func reuse(_ spare: SpareFile, as name: String) throws(BinobanFileStorageError) -> Int32 {
        guard let descriptor = spare.descriptor else {
            return try files.reuseSpare(spare.name, as: name, header: BatchRecordFormat.magic)
        }
        return try files.reuseSpare(spare.name, keptAs: descriptor, as: name, header: BatchRecordFormat.magic)
    }

    /// Deletes the spare and closes its descriptor.
    private func remove(_ spare: SpareFile) {
        if let descriptor = spare.descriptor { closeDescriptor(descriptor) }
        try? files.removeIfPresent(spare.name)
    }
}

/// Closes a batch file's descriptor: inside the storage, `close` names ``BinobanFileEventStorage/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
