#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An instance's default storage: its batches in files of its storage directory while it can use it, in memory
/// while it cannot, moved from one to the other as the directory comes and goes.
///
/// The rules (when the storage leaves its directory, where the batches go, when it comes back, what each move
/// reports and counts, the identities the pipeline sees) are ``StorageFallbackMachine``'s; this actor performs
/// its actions on the file and memory storages and feeds their results back:
/// - **Leaving the directory.** When the file storage fails (a batch cannot be finished or started, a delivered
///   batch cannot be deleted, the directory or its lock file was removed, which every close checks), every
///   batch it holds is read back (the open and the unfinished ones through their open descriptors, so they
///   survive the directory's removal) and the storage is dropped. Batches whose file was already gone are lost
///   and reported as such (``BinobanStorageWriteReport/lostBatchEvents``). The directory is then opened again at
///   once (re-created when it was removed): when that works the batches go back into it and one `storage` report
///   says what happened; otherwise they go to memory, with one `storage` report and one counted fallback.
/// - **Coming back.** While in memory, the directory is tried again at the first append or close at or after the
///   machine's ``StorageFallbackMachine/retryDeadline``, ``retryInterval`` after the last try (the pipeline closes
///   the open batch at every flush interval, so an idle instance tries too; nothing runs between calls). When its
///   lock can be taken and it can be written, every batch kept in memory moves to it (one `storage` report), and
///   batches earlier runs left there are added to the books (``BinobanStorageWriteReport/recoveredEvents``).
/// - **Identities.** Each store numbers its own batches, so the pipeline sees the numbers of a
///   ``StoredBatchIDMap``, which stay with a batch when it moves: a batch being uploaded while it moves is deleted
///   wherever it went once it is delivered.
///
/// It runs on the pipeline loop's thread, like the file storage it wraps, so its calls need no thread hop. An
/// append on disk costs the machine one translation of the file storage's report per call, as before.
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
    static var retryInterval: Duration { StorageFallbackMachine.retryInterval }

    private nonisolated let executor: any SerialExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let environment: Environment
    private let memory: InMemoryEventStorage
    /// The file storage in use; `nil` while batches are kept in memory (or between a read-back and a reopen).
    private var file: BinobanFileEventStorage?
    /// A file storage just opened, until the machine uses it or lets it go.
    private var opened: BinobanFileEventStorage?
    private var machine: StorageFallbackMachine
    /// The events and body bytes of the batches earlier runs left, found when the storage was created.
    nonisolated let foundAtOpen: (events: Int, bytes: Int)

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
        machine = StorageFallbackMachine(
            directoryPath: environment.directoryPath, initial: initial?.batchesAtOpen,
            at: initial == nil ? environment.now() : .zero)
        file = initial
        foundAtOpen = initial?.foundAtOpen ?? (0, 0)
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
        var report = machine.takeUnreported()
        await retryIfDue(&report)
        var rest = events
        var failures = 0
        while let file {
            let outcome: (BinobanStorageWriteReport, BinobanFileStorageError?, settled: Int)
            do {
                outcome = try await file.appendKeepingReport(rest, whenFull: whenFull)
            } catch {
                // A malformed event (a pipeline bug): nothing was written.
                machine.keepUnreported(report)
                return .failure(BinobanStorageAppendFailure(storedEventsBeforeFailure: 0, error: error))
            }
            let (written, failure, settled) = outcome
            report.add(machine.translate(written, from: machine.fileStore))
            guard let failure else { return .success(report) }
            // What the file storage did not settle goes where the batches go next; a refusal is decided there.
            report.refusedEvents -= written.refusedEvents
            rest = Array(rest[settled...])
            report.add(await run(.writeFailed(cause: failure.message, firstInCall: failures == 0)))
            failures += 1
        }
        if !rest.isEmpty {
            // The memory storage never throws.
            let written = (try? await memory.append(rest, whenFull: whenFull)) ?? BinobanStorageWriteReport()
            report.add(machine.translate(written, from: 0))
        }
        return .success(report)
    }

    @discardableResult
    func closeOpenBatch() async throws -> BinobanStorageWriteReport {
        var report = machine.takeUnreported()
        await retryIfDue(&report)
        if file != nil, !environment.lockIsInPlace() {
            report.add(await run(.lockLost))
        }
        var failures = 0
        while let file {
            do {
                report.add(machine.translate(try await file.closeOpenBatch(), from: machine.fileStore))
                return report
            } catch {
                report.add(await run(.writeFailed(cause: "\(error)", firstInCall: failures == 0)))
                failures += 1
            }
        }
        report.add(machine.translate(try await memory.closeOpenBatch(), from: 0))
        return report
    }

    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
        if let file {
            let store = machine.fileStore
            return try await file.finishedBatches(limit: limit).map { machine.identity(of: $0, in: store) }
        }
        return try await memory.finishedBatches(limit: limit).map { machine.identity(of: $0, in: 0) }
    }

    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? {
        guard let place = machine.place(of: batch) else { return nil }
        if place.store == 0 {
            guard var found = try await memory.read(place.id) else {
                machine.forget(batch)
                return nil
            }
            found.id = batch
            return found
        }
        guard let file, place.store == machine.fileStore else { return nil }
        guard var found = try await file.read(place.id) else {
            let vanished = await file.takeVanishedBatches()
            let input = StorageFallbackMachine.Input.batchVanished(
                batch, lost: vanished, lockInPlace: environment.lockIsInPlace())
            machine.keepUnreported(await run(input))
            return nil
        }
        found.id = batch
        return found
    }

    func remove(_ batch: BinobanBatchID) async throws {
        guard let place = machine.place(of: batch) else { return }
        if place.store == 0 {
            try await memory.remove(place.id)
            machine.forget(batch)
            return
        }
        guard let file, place.store == machine.fileStore else {
            machine.forget(batch)
            return
        }
        do {
            try await file.remove(place.id)
            machine.forget(batch)
        } catch {
            // Delivered but not deletable: the directory cannot be written.
            machine.keepUnreported(await run(.deleteFailed(cause: "\(error)", batch: batch)))
        }
    }

    // MARK: Driving the machine

    /// Feeds `retryDue` when the machine's retry deadline has come.
    private func retryIfDue(_ report: inout BinobanStorageWriteReport) async {
        guard let deadline = machine.retryDeadline else { return }
        let now = environment.now()
        guard now >= deadline else { return }
        report.add(await run(.retryDue, at: now))
    }

    /// Feeds `input` to the machine and performs its actions, feeding each result back, until it asks for
    /// nothing more; returns the report of the move it made (empty when none).
    private func run(
        _ input: StorageFallbackMachine.Input, at now: Duration? = nil
    ) async -> BinobanStorageWriteReport {
        var moved = BinobanStorageWriteReport()
        var next: StorageFallbackMachine.Input? = input
        var instant = now
        while let input = next {
            next = nil
            for action in machine.handle(input, at: instant ?? environment.now()) {
                if let result = await perform(action, into: &moved) { next = result }
            }
            instant = nil
        }
        return moved
    }

    /// Performs one action; returns the input its result makes, if it asked for I/O.
    private func perform(
        _ action: StorageFallbackMachine.Action, into moved: inout BinobanStorageWriteReport
    ) async -> StorageFallbackMachine.Input? {
        switch action {
        case .salvageFile(let excluding):
            let salvage = await file?.salvage(excluding: excluding) ?? BinobanFileEventStorage.Salvage()
            file = nil
            let directory =
                salvage.leftInDirectory.isEmpty ? nil : StorageDirectory.identity(of: environment.directoryPath)
            return .salvaged(salvage, directory: directory)
        case .openDirectory(let identify):
            guard let storage = try? environment.openFile(executor) else { return .directoryUnusable }
            opened = storage
            return .directoryOpened(
                entries: storage.batchesAtOpen, found: storage.foundAtOpen,
                directory: identify ? StorageDirectory.identity(of: environment.directoryPath) : nil)
        case .removeCopies(let copies):
            guard let opened else { return .copiesRemoved(false) }
            for copy in copies {
                do {
                    try await opened.remove(copy)
                } catch {
                    return .copiesRemoved(false)
                }
            }
            return .copiesRemoved(true)
        case .useOpenedDirectory:
            file = opened
            opened = nil
            return nil
        case .dropOpenedDirectory:
            opened = nil
            return nil
        case .readMemory:
            // The memory storage never throws.
            let closed = try? await memory.closeOpenBatch()
            var batches: [(id: BinobanBatchID, events: [Data])] = []
            for inner in (try? await memory.finishedBatches(limit: Int.max)) ?? [] {
                guard let events = await memory.events(of: inner) else { continue }
                batches.append((inner, events))
            }
            return .memoryRead(closed: closed, batches: batches)
        case .putInFile(let events):
            var put = StorageFallbackMachine.FilePut()
            guard let file else { return .placedInFile(put) }
            do {
                put.closedBefore = try await file.closeOpenBatch()
                let (written, failure, _) = try await file.appendKeepingReport(events, whenFull: .evictOldest)
                put.written = written
                if failure == nil { put.closedAfter = try await file.closeOpenBatch() }
            } catch {
                // Not stored: the machine reads the file storage back.
            }
            return .placedInFile(put)
        case .putInMemory(let events):
            // The memory storage never throws.
            let closedBefore = try? await memory.closeOpenBatch()
            let written = (try? await memory.append(events, whenFull: .evictOldest)) ?? BinobanStorageWriteReport()
            let closedAfter = try? await memory.closeOpenBatch()
            return .placedInMemory(.init(closedBefore: closedBefore, written: written, closedAfter: closedAfter))
        case .removeFromMemory(let batch):
            try? await memory.remove(batch)
            return nil
        case .setDurable(let durable):
            environment.durable.withLock { $0 = durable }
            return nil
        case .countFallback:
            environment.countFallback()
            return nil
        case .report(let message):
            environment.report(message)
            return nil
        case .finished(let report):
            moved.add(report)
            return nil
        }
    }
}
