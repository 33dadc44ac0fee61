#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the default storage keeps its batches, and how it moves them between its directory and memory: the
/// rules of ``FileOrMemoryEventStorage``, which performs the actions and feeds their results back.
///
/// Rules:
/// - **Leaving the directory.** A failed write (an append or a close), a lock that no longer keeps the directory
///   (the directory or its lock file was removed) or a delivered batch that cannot be deleted makes the storage
///   read back everything the file storage holds (but the undeletable batch) and drop it. The directory is then
///   opened again at once (re-created when it was removed), except after the second write failure of one call:
///   when that works the batches go back into it and one `storage` report says so; otherwise they go to memory,
///   with one `storage` report, one counted fallback, and the directory no longer durable.
/// - **Coming back.** While in memory, the directory is tried again once ``retryInterval`` has passed since the
///   last try (the move to memory counts as one): ``retryDeadline`` is the instant, and the driver feeds
///   `retryDue` at its first write call from then on (there is no timer). When the directory opens, every batch
///   kept in memory moves to it (one `storage` report, durable again); when it does not, the storage stays in
///   memory silently and tries again ``retryInterval`` later.
/// - **One batch at a time.** A moved batch is stored as a batch of its own (a batch always fits one of the same
///   limits) and keeps its identity (``StoredBatchIDMap``); events the new store refuses are lost and reported
///   with the next write. When the file storage fails while a batch goes into it, what it holds is read back
///   (leaving behind the copies that batch made) and the rest goes to memory; a batch that comes from memory
///   stays there.
/// - **Copies.** Batch files a directory that could be read but not written kept (read back, not deletable) are
///   remembered with the directory's device and inode; when the same directory is opened again they are deleted
///   before its batches are counted, and a directory where they cannot be deleted is not usable yet.
/// - **Counts.** What earlier runs left in a directory that is opened is added to the move's report
///   (`recoveredEvents`, `recoveredBytes`); evictions and losses of a move are in it too. Losses found outside a
///   write call are kept for the next one (``takeUnreported()``).
///
/// The machine does no I/O and reads no clock: each input comes with its instant (the instance's elapsed
/// time), and at most one action of a step asks for I/O whose result is the next input.
struct StorageFallbackMachine: Sendable {
    /// How long the storage waits in memory before it tries its directory again.
    static var retryInterval: Duration { .seconds(5) }

    /// Where the batches are.
    enum State: Sendable {
        /// In the file storage numbered `store` (in ``StoredBatchIDMap``'s places).
        case onDisk(store: Int)
        /// In memory since `since`; the directory is tried again at `retryAt`.
        case inMemory(since: Duration, retryAt: Duration)
        /// On their way from one store to another.
        case moving(Move)
    }

    /// A move in progress.
    struct Move: Sendable {
        /// Why the batches move.
        enum Kind: Sendable {
            /// The directory failed (`cause`); it is opened again first when `reopen` says so.
            case leaving(cause: String, reopen: Bool)
            /// A retry at `retryAt - retryInterval`, from memory held since `since`.
            case returning(since: Duration, retryAt: Duration)
        }

        /// What the move waits for.
        enum Step: Sendable {
            /// The file storage `store` being read back (but `excluding`) and dropped; `first` when it starts a
            /// move away from the directory, else the file storage failed while a batch went into it.
            case readingBack(store: Int, excluding: Set<BinobanBatchID>, first: Bool)
            /// The directory being opened.
            case opening
            /// The copies `copies` being deleted from the directory just opened, which holds `entries` and
            /// `found`.
            case removingCopies(entries: [BatchIndexEntry], found: (events: Int, bytes: Int), copies: Set<UInt64>)
            /// Memory's batches being read.
            case readingMemory
            /// The batch at the head of the queue being stored.
            case placing
        }

        var kind: Kind
        var step: Step
        /// The file storage the batches go to; `nil`: memory.
        var target: Int?
        /// The batches still to store, from `next` on.
        var queue: [Batch] = []
        var next = 0
        /// The batches and events the move started with, for its report.
        var batchCount = 0
        var eventCount = 0
        /// What the move evicted, lost and found, returned with ``Action/finished(_:)``.
        var report = BinobanStorageWriteReport()
    }

    /// A batch on its way to another store: its identity, its events, and where it is in memory when it comes
    /// from there (it stays there until it is stored elsewhere).
    struct Batch: Sendable {
        var id: BinobanBatchID
        var events: [Data]
        var inMemory: BinobanBatchID?
    }

    /// What the file storage was asked to do to store one batch, as far as it got: the close before, the append
    /// (failed or not) and the close after (present only when everything worked).
    struct FilePut: Sendable {
        var closedBefore: BinobanStorageWriteReport?
        var written: BinobanStorageWriteReport?
        var closedAfter: BinobanStorageWriteReport?
    }

    /// What the memory storage did to store one batch (it never fails).
    struct MemoryPut: Sendable {
        var closedBefore: BinobanStorageWriteReport?
        var written: BinobanStorageWriteReport
        var closedAfter: BinobanStorageWriteReport?
    }

    /// What happened.
    enum Input: Sendable {
        /// A write of the file storage failed (`cause`); `firstInCall` when it is the first of the pipeline's
        /// call (a second one does not open the directory again).
        case writeFailed(cause: String, firstInCall: Bool)
        /// The lock no longer keeps the directory: the directory or its lock file was removed.
        case lockLost
        /// The delivered batch `batch` could not be deleted (`cause`): the directory cannot be written.
        case deleteFailed(cause: String, batch: BinobanBatchID)
        /// Reading `batch` found its file gone; `lost` are the file storage's vanished batches, and
        /// `lockInPlace` whether the lock still keeps the directory.
        case batchVanished(BinobanBatchID, lost: [BinobanBatchID: Int], lockInPlace: Bool)
        /// A write call starts at or after ``retryDeadline``.
        case retryDue
        /// The file storage was read back and dropped; `directory` is the directory's identity when files were
        /// left in it.
        case salvaged(BinobanFileEventStorage.Salvage, directory: [UInt64]?)
        /// The directory opened, holding `entries` (`found`: their events and body bytes); `directory` is its
        /// identity when asked for.
        case directoryOpened(entries: [BatchIndexEntry], found: (events: Int, bytes: Int), directory: [UInt64]?)
        /// The directory could not be opened.
        case directoryUnusable
        /// The copies were deleted (`true`), or one could not be (`false`).
        case copiesRemoved(Bool)
        /// Memory's open batch was closed (`closed`) and its batches read.
        case memoryRead(closed: BinobanStorageWriteReport?, batches: [(id: BinobanBatchID, events: [Data])])
        /// The head batch went to the file storage, as far as `put` says.
        case placedInFile(FilePut)
        /// The head batch went to memory.
        case placedInMemory(MemoryPut)
    }

    /// What the driver does, in order.
    enum Action: Sendable, Equatable {
        /// Read back everything the file storage in use holds but `excluding` (its own identities), drop it, and
        /// feed `salvaged`.
        case salvageFile(excluding: Set<BinobanBatchID>)
        /// Open the directory (take the lock, re-create the directory) and feed `directoryOpened` (with the
        /// directory's identity when `identify`) or `directoryUnusable`.
        case openDirectory(identify: Bool)
        /// Delete these finished batches from the directory just opened and feed `copiesRemoved`.
        case removeCopies([BinobanBatchID])
        /// The directory just opened is the file storage in use from now on.
        case useOpenedDirectory
        /// The directory just opened is not usable yet: let it go.
        case dropOpenedDirectory
        /// Close memory's open batch, read its finished batches and feed `memoryRead`.
        case readMemory
        /// Store these events as a batch of their own in the file storage (close, append, close) and feed
        /// `placedInFile`.
        case putInFile([Data])
        /// Store these events as a batch of their own in memory and feed `placedInMemory`.
        case putInMemory([Data])
        /// Delete this batch from memory (it moved to disk).
        case removeFromMemory(BinobanBatchID)
        /// Whether batches go to the directory now.
        case setDurable(Bool)
        /// Count a move to memory.
        case countFallback
        /// Report a `storage` problem with this message.
        case report(String)
        /// The move ended (or there was none): what it evicted, lost and found.
        case finished(BinobanStorageWriteReport)
    }

    /// Batch files left in a directory that could not be written, whose events were taken elsewhere.
    struct Leftovers: Sendable, Equatable {
        /// The directory's device and inode when they were left.
        var directory: [UInt64]
        var sequences: Set<UInt64>
    }

    private(set) var state: State
    /// The number of the last file storage opened (memory is 0); the file storage in use has it.
    private(set) var fileStore: Int
    private var ids = StoredBatchIDMap()
    /// Losses found outside a write call and losses of moved batches: the next write call returns them.
    private var unreported = BinobanStorageWriteReport()
    private(set) var leftovers: Leftovers?
    /// The directory's path, for the reports.
    private let directoryPath: String

    /// A storage on the file storage opened at creation, holding `initial` (its finished batches), or in memory
    /// from `now` when there is none.
    init(directoryPath: String, initial: [BatchIndexEntry]?, at now: Duration) {
        self.directoryPath = directoryPath
        if let initial {
            for entry in initial {
                _ = ids.id(for: .init(store: 1, id: BinobanBatchID(sequence: entry.sequence)))
            }
            fileStore = 1
            state = .onDisk(store: 1)
        } else {
            fileStore = 0
            state = .inMemory(since: now, retryAt: now + Self.retryInterval)
        }
    }

    /// Whether batches are in a file storage (and no move is in progress).
    var isOnDisk: Bool {
        if case .onDisk = state { return true }
        return false
    }

    /// When the directory is tried again: the first write call from then on feeds `retryDue`. `nil` unless in
    /// memory.
    var retryDeadline: Duration? {
        if case .inMemory(_, let retryAt) = state { return retryAt }
        return nil
    }

    // MARK: Identities

    /// `report` of store `store` in the pipeline's identities (``StoredBatchIDMap/translate(_:store:)``).
    mutating func translate(_ report: BinobanStorageWriteReport, from store: Int) -> BinobanStorageWriteReport {
        ids.translate(report, store: store)
    }

    /// The identity of the batch `inner` of store `store`, given now if it has none.
    mutating func identity(of inner: BinobanBatchID, in store: Int) -> BinobanBatchID {
        ids.id(for: .init(store: store, id: inner))
    }

    /// Where the batch `id` is; `nil` when it is unknown or gone.
    func place(of id: BinobanBatchID) -> StoredBatchIDMap.Place? { ids.place(of: id) }

    /// The batch `id` is gone (removed, or found missing).
    mutating func forget(_ id: BinobanBatchID) { ids.forget(id) }

    /// How many batches have an identity.
    var knownBatches: Int { ids.count }

    /// What is kept for the next write call, handed over now.
    mutating func takeUnreported() -> BinobanStorageWriteReport {
        defer { unreported = BinobanStorageWriteReport() }
        return unreported
    }

    /// Keeps `report` (a move's, outside a write call) for the next write call.
    mutating func keepUnreported(_ report: BinobanStorageWriteReport) {
        unreported.add(report)
    }

    // MARK: Transitions

    /// Takes one input at `now` and returns what to do, in order.
    mutating func handle(_ input: Input, at now: Duration) -> [Action] {
        switch input {
        case .writeFailed(let cause, let firstInCall):
            return leave(because: cause, excluding: [], reopen: firstInCall)
        case .lockLost:
            return leave(because: "the directory or its lock file was removed", excluding: [], reopen: true)
        case .deleteFailed(let cause, let batch):
            // Delivered: not taken along, and its file is deleted when the directory is opened again.
            let place = ids.place(of: batch)
            ids.forget(batch)
            guard let place, case .onDisk(let store) = state, place.store == store else { return [] }
            return leave(because: cause, excluding: [place.id], reopen: true)
        case .batchVanished(let batch, let lost, let lockInPlace):
            // Its file was removed by something else: the events are lost (counted with the next write).
            unreported.add(ids.translate(Self.lost(lost), store: fileStore))
            ids.forget(batch)
            if lockInPlace { return [] }
            return leave(because: "the directory or its lock file was removed", excluding: [], reopen: true)
        case .retryDue:
            guard case .inMemory(let since, let retryAt) = state, now >= retryAt else { return [] }
            let move = Move(
                kind: .returning(since: since, retryAt: now + Self.retryInterval), step: .opening, target: nil)
            state = .moving(move)
            return [.openDirectory(identify: leftovers != nil)]
        case .salvaged, .directoryOpened, .directoryUnusable, .copiesRemoved, .memoryRead, .placedInFile,
            .placedInMemory:
            guard case .moving(var move) = state else {
                // A result with no move waiting for it: the driver feeds results only to the action that asked.
                return []
            }
            // The move leaves the state while it changes, so that its arrays are not copied.
            state = .onDisk(store: fileStore)
            var actions: [Action] = []
            step(&move, input, at: now, &actions)
            return actions
        }
    }

    /// Starts reading back the file storage in use, unless there is none.
    private mutating func leave(because cause: String, excluding: Set<BinobanBatchID>, reopen: Bool) -> [Action] {
        guard case .onDisk(let store) = state else {
            // In memory, or moving already: nothing of a file storage to leave.
            return []
        }
        let step = Move.Step.readingBack(store: store, excluding: excluding, first: true)
        state = .moving(Move(kind: .leaving(cause: cause, reopen: reopen), step: step))
        return [.salvageFile(excluding: excluding)]
    }

    /// One result of the move's I/O, and the actions that follow it. Puts the move back in the state, or ends it.
    private mutating func step(_ move: inout Move, _ input: Input, at now: Duration, _ actions: inout [Action]) {
        switch (move.step, input) {
        case (.readingBack(let store, let excluding, let first), .salvaged(let salvage, let directory)):
            let back = takeBack(salvage, of: store, excluding: excluding, directory: directory, into: &move.report)
            move.target = nil
            if first, case .leaving(_, let reopen) = move.kind {
                // The move's first read-back: what it moves and reports.
                move.queue = back
                move.batchCount = back.count
                move.eventCount = back.reduce(0) { $0 + $1.events.count }
                if reopen {
                    move.step = .opening
                    state = .moving(move)
                    actions.append(.openDirectory(identify: leftovers != nil))
                    return
                }
            } else {
                // The file storage failed while a batch went into it: its batches go first, then the rest.
                move.queue = back + move.queue[move.next...]
                move.next = 0
            }
            placeNext(&move, at: now, &actions)
        case (.opening, .directoryOpened(let entries, let found, let directory)):
            var copies: Set<UInt64> = []
            if let leftovers, let directory, directory == leftovers.directory {
                copies = Set(entries.lazy.map(\.sequence).filter(leftovers.sequences.contains))
            }
            guard copies.isEmpty else {
                move.step = .removingCopies(entries: entries, found: found, copies: copies)
                state = .moving(move)
                let ordered = entries.lazy.map(\.sequence).filter(copies.contains)
                actions.append(.removeCopies(ordered.map { BinobanBatchID(sequence: $0) }))
                return
            }
            adopt(entries, found: found, copies: [], &move, at: now, &actions)
        case (.removingCopies(let entries, let found, let copies), .copiesRemoved(let removed)):
            guard removed else {
                // Still not writable.
                actions.append(.dropOpenedDirectory)
                openFailed(&move, at: now, &actions)
                return
            }
            adopt(entries, found: found, copies: copies, &move, at: now, &actions)
        case (.opening, .directoryUnusable):
            openFailed(&move, at: now, &actions)
        case (.readingMemory, .memoryRead(let closed, let batches)):
            if let closed { move.report.add(ids.translate(closed, store: 0)) }
            move.queue = batches.map {
                Batch(id: ids.id(for: .init(store: 0, id: $0.id)), events: $0.events, inMemory: $0.id)
            }
            move.next = 0
            move.batchCount = move.queue.count
            move.eventCount = move.queue.reduce(0) { $0 + $1.events.count }
            placeNext(&move, at: now, &actions)
        case (.placing, .placedInFile(let put)):
            placedInFile(put, &move, at: now, &actions)
        case (.placing, .placedInMemory(let put)):
            let batch = move.queue[move.next]
            if let closed = put.closedBefore { move.report.add(ids.translate(closed, store: 0)) }
            move.report.add(Self.evictions(of: ids.translate(put.written, store: 0)))
            if let closed = put.closedAfter { move.report.add(ids.translate(closed, store: 0)) }
            keepIdentity(
                of: batch, storedIn: put.written.placements.map(\.batch), store: 0,
                droppedEvents: put.written.rejectedOversizeEvents)
            move.next += 1
            placeNext(&move, at: now, &actions)
        case (.readingBack, _), (.opening, _), (.removingCopies, _), (.readingMemory, _), (.placing, _):
            // A result for another step: the driver feeds each result to the step that asked for it, so this
            // does not happen; the move waits on.
            state = .moving(move)
        }
    }

    /// What a file storage's read-back means: its evictions and losses counted, the batches left behind
    /// remembered, the rest to store elsewhere.
    private mutating func takeBack(
        _ salvage: BinobanFileEventStorage.Salvage, of store: Int, excluding: Set<BinobanBatchID>,
        directory: [UInt64]?, into report: inout BinobanStorageWriteReport
    ) -> [Batch] {
        report.add(ids.translate(salvage.evictions, store: store))
        report.add(ids.translate(Self.lost(salvage.lost), store: store))
        for inner in excluding {
            ids.forget(ids.id(for: .init(store: store, id: inner)))
        }
        if !salvage.leftInDirectory.isEmpty, let directory {
            var sequences = Set(salvage.leftInDirectory.map(\.sequence))
            if let earlier = leftovers, earlier.directory == directory { sequences.formUnion(earlier.sequences) }
            leftovers = Leftovers(directory: directory, sequences: sequences)
        }
        return salvage.batches.map { Batch(id: ids.id(for: .init(store: store, id: $0.id)), events: $0.events) }
    }

    /// The directory opened and holds no copy left to delete: it is the file storage in use; what earlier runs
    /// left there is counted.
    private mutating func adopt(
        _ entries: [BatchIndexEntry], found: (events: Int, bytes: Int), copies: Set<UInt64>, _ move: inout Move,
        at now: Duration, _ actions: inout [Action]
    ) {
        leftovers = nil
        fileStore += 1
        move.target = fileStore
        var found = found
        for entry in entries {
            if copies.contains(entry.sequence) {
                found.events -= entry.eventCount
                found.bytes -= entry.bodyBytes
            } else {
                _ = ids.id(for: .init(store: fileStore, id: BinobanBatchID(sequence: entry.sequence)))
            }
        }
        move.report.recoveredEvents += found.events
        move.report.recoveredBytes += found.bytes
        actions.append(.useOpenedDirectory)
        if case .returning = move.kind {
            move.step = .readingMemory
            state = .moving(move)
            actions.append(.readMemory)
            return
        }
        placeNext(&move, at: now, &actions)
    }

    /// The directory could not be opened (or its copies deleted): a leave goes on to memory, a return ends.
    private mutating func openFailed(_ move: inout Move, at now: Duration, _ actions: inout [Action]) {
        move.target = nil
        if case .returning = move.kind {
            finish(move, at: now, &actions)
            return
        }
        placeNext(&move, at: now, &actions)
    }

    /// Asks for the next batch to be stored, skipping those that stay in memory; ends the move when none is left.
    private mutating func placeNext(_ move: inout Move, at now: Duration, _ actions: inout [Action]) {
        while move.next < move.queue.count {
            let batch = move.queue[move.next]
            if move.target != nil {
                move.step = .placing
                state = .moving(move)
                actions.append(.putInFile(batch.events))
                return
            }
            if batch.inMemory == nil {
                move.step = .placing
                state = .moving(move)
                actions.append(.putInMemory(batch.events))
                return
            }
            // It comes from memory and is still there.
            move.next += 1
        }
        finish(move, at: now, &actions)
    }

    /// The head batch's trip to the file storage: kept under its identity, or, when the file storage failed on
    /// the way, that storage read back (but the copies the batch made) and everything left goes to memory.
    private mutating func placedInFile(_ put: FilePut, _ move: inout Move, at now: Duration, _ actions: inout [Action])
    {
        guard let store = move.target else {
            state = .moving(move)
            return
        }
        let batch = move.queue[move.next]
        if let closed = put.closedBefore { move.report.add(ids.translate(closed, store: store)) }
        let placed = put.written?.placements.map(\.batch) ?? []
        if let written = put.written { move.report.add(Self.evictions(of: ids.translate(written, store: store))) }
        guard let closed = put.closedAfter else {
            // The copies it made stay in the file storage's directory, unread (their identities go).
            move.step = .readingBack(store: store, excluding: Set(placed), first: false)
            state = .moving(move)
            actions.append(.salvageFile(excluding: Set(placed)))
            return
        }
        move.report.add(ids.translate(closed, store: store))
        keepIdentity(
            of: batch, storedIn: placed, store: store, droppedEvents: put.written?.rejectedOversizeEvents ?? 0)
        move.next += 1
        if let inMemory = batch.inMemory { actions.append(.removeFromMemory(inMemory)) }
        placeNext(&move, at: now, &actions)
    }

    /// The moved batch keeps its identity in its first new batch; events the new store refused are lost.
    private mutating func keepIdentity(
        of batch: Batch, storedIn placed: [BinobanBatchID], store: Int, droppedEvents: Int
    ) {
        if let first = placed.first {
            ids.forget(ids.id(for: .init(store: store, id: first)))
            ids.move(batch.id, to: .init(store: store, id: first))
        }
        if droppedEvents > 0 { unreported.lostBatchEvents[batch.id, default: 0] += droppedEvents }
        if placed.isEmpty { ids.forget(batch.id) }
    }

    /// The move is over: the state it leads to, and its report.
    private mutating func finish(_ move: Move, at now: Duration, _ actions: inout [Action]) {
        let path = directoryPath
        switch (move.kind, move.target) {
        case (.leaving(let cause, _), let store?):
            state = .onDisk(store: store)
            actions.append(
                .report(
                    "the storage directory \(path) failed (\(cause)); it was opened again and its \(move.batchCount) "
                        + "batches (\(move.eventCount) events) were kept in it"))
        case (.leaving(let cause, _), nil):
            state = .inMemory(since: now, retryAt: now + Self.retryInterval)
            actions.append(.setDurable(false))
            actions.append(.countFallback)
            actions.append(
                .report(
                    "the storage directory \(path) can no longer be used (\(cause)); this instance keeps its batches "
                        + "in memory (\(move.batchCount) batches, \(move.eventCount) events, moved there) and tries "
                        + "the directory again every \(Self.retryInterval)"))
        case (.returning, let store?):
            state = .onDisk(store: store)
            actions.append(.setDurable(true))
            actions.append(
                .report(
                    "the storage directory \(path) is used again: the \(move.batchCount) batches "
                        + "(\(move.eventCount) events) kept in memory were moved to it"))
        case (.returning(let since, let retryAt), nil):
            // Silent: it stays in memory and tries again later.
            state = .inMemory(since: since, retryAt: retryAt)
        }
        actions.append(.finished(move.report))
    }

    private static func lost(_ batches: [BinobanBatchID: Int]) -> BinobanStorageWriteReport {
        var report = BinobanStorageWriteReport()
        report.lostBatchEvents = batches
        return report
    }

    /// Only the evictions and losses of a translated report (a move stores no event of the pipeline's call).
    private static func evictions(of report: BinobanStorageWriteReport) -> BinobanStorageWriteReport {
        var only = BinobanStorageWriteReport()
        only.addEvictions(of: report)
        only.lostBatchEvents = report.lostBatchEvents
        return only
    }
}
