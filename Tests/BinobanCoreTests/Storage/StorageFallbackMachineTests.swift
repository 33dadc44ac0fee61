import Foundation
import Testing

@testable import BinobanCore

/// The default storage's rules as a value machine, driven input by input on instants the test sets: each move,
/// the retry deadline, a failure while moving back, what each move reports and counts.
@Suite("Storage fallback machine: the rules of the moves between the directory and memory")
struct StorageFallbackMachineTests {
    typealias Machine = StorageFallbackMachine

    static let path = "/data/queue"

    /// A batch of `count` events (100 bytes each) as the file storage numbers it.
    static func entry(_ sequence: UInt64, events count: Int) -> BatchIndexEntry {
        BatchIndexEntry(sequence: sequence, fileBytes: 8 + count * 108, eventCount: count, bodyBytes: count * 101 - 1)
    }

    /// What a store says when it put `count` events in its batch `sequence`.
    static func placed(_ count: Int, in sequence: UInt64, oversize: Int = 0) -> BinobanStorageWriteReport {
        var report = BinobanStorageWriteReport(storedEvents: count, rejectedOversizeEvents: oversize)
        report.recordPlacement(of: count, in: BinobanBatchID(sequence: sequence))
        return report
    }

    /// A file storage's read-back of `batches` (inner sequence, events).
    static func salvage(
        _ batches: [(UInt64, [Data])], lost: [UInt64: Int] = [:], left: [UInt64] = []
    ) -> BinobanFileEventStorage.Salvage {
        var salvage = BinobanFileEventStorage.Salvage()
        salvage.batches = batches.map { (BinobanBatchID(sequence: $0.0), $0.1) }
        for (sequence, events) in lost { salvage.lost[BinobanBatchID(sequence: sequence)] = events }
        salvage.leftInDirectory = left.map { BinobanBatchID(sequence: $0) }
        return salvage
    }

    /// A file put that worked: `count` events into the file storage's batch `sequence`.
    static func filePut(_ count: Int, in sequence: UInt64, oversize: Int = 0) -> Machine.FilePut {
        Machine.FilePut(
            closedBefore: BinobanStorageWriteReport(), written: placed(count, in: sequence, oversize: oversize),
            closedAfter: BinobanStorageWriteReport())
    }

    /// A memory put: `count` events into memory's batch `sequence`.
    static func memoryPut(_ count: Int, in sequence: UInt64, oversize: Int = 0) -> Machine.MemoryPut {
        Machine.MemoryPut(closedBefore: nil, written: placed(count, in: sequence, oversize: oversize), closedAfter: nil)
    }

    /// A machine on disk whose file storage (store 1) holds `entries`; returns it with their identities.
    static func onDisk(_ entries: [BatchIndexEntry]) -> (Machine, [BinobanBatchID]) {
        var machine = Machine(directoryPath: path, initial: entries, at: .zero)
        let ids = entries.map { machine.identity(of: BinobanBatchID(sequence: $0.sequence), in: 1) }
        return (machine, ids)
    }

    static func isMoving(_ machine: Machine) -> Bool {
        if case .moving = machine.state { return true }
        return false
    }

    static func messages(_ actions: [Machine.Action]) -> [String] {
        actions.compactMap { if case .report(let message) = $0 { return message } else { return nil } }
    }

    // MARK: Leaving the directory

    @Test("A write failure reads the file storage back, opens the directory again and keeps the batches there")
    func failureReopensTheDirectory() {
        var (machine, ids) = Self.onDisk([Self.entry(1, events: 3), Self.entry(2, events: 2)])
        let events = TestEvents.events(0..<5)

        #expect(
            machine.handle(.writeFailed(cause: "rename failed", firstInCall: true), at: .seconds(1))
                == [.salvageFile(excluding: [])])
        #expect(!machine.isOnDisk && Self.isMoving(machine))
        // A second failure while the move runs starts nothing.
        #expect(machine.handle(.lockLost, at: .seconds(1)).isEmpty)

        let back = Self.salvage([(1, Array(events[0..<3])), (2, Array(events[3..<5]))])
        #expect(machine.handle(.salvaged(back, directory: nil), at: .seconds(1)) == [.openDirectory(identify: false)])
        // The re-created directory holds a batch an earlier run left (4 events).
        #expect(
            machine.handle(
                .directoryOpened(entries: [Self.entry(7, events: 4)], found: (4, 403), directory: nil), at: .seconds(1))
                == [.useOpenedDirectory, .putInFile(Array(events[0..<3]))])
        #expect(machine.fileStore == 2)
        #expect(
            machine.handle(.placedInFile(Self.filePut(3, in: 8)), at: .seconds(1)) == [.putInFile(Array(events[3..<5]))]
        )
        let last = machine.handle(.placedInFile(Self.filePut(2, in: 9)), at: .seconds(2))

        var expected = BinobanStorageWriteReport()
        expected.recoveredEvents = 4
        expected.recoveredBytes = 403
        #expect(
            last == [
                .report(
                    "the storage directory /data/queue failed (rename failed); it was opened again and its 2 batches "
                        + "(5 events) were kept in it"),
                .finished(expected),
            ])
        #expect(machine.isOnDisk && machine.retryDeadline == nil)
        // Each batch kept its identity in its new batch; the earlier run's batch has one of its own.
        #expect(machine.place(of: ids[0]) == .init(store: 2, id: BinobanBatchID(sequence: 8)))
        #expect(machine.place(of: ids[1]) == .init(store: 2, id: BinobanBatchID(sequence: 9)))
        #expect(machine.knownBatches == 3)
    }

    @Test(
        "The second write failure of a call goes to memory: one report, one fallback, not durable, a retry deadline 5 s on"
    )
    func secondFailureFallsBackToMemory() {
        var (machine, ids) = Self.onDisk([Self.entry(1, events: 2)])
        let events = TestEvents.events(0..<2)
        #expect(
            machine.handle(.writeFailed(cause: "full", firstInCall: false), at: .seconds(10))
                == [.salvageFile(excluding: [])])
        // The read-back goes straight to memory: no directory is opened.
        #expect(
            machine.handle(.salvaged(Self.salvage([(1, events)], lost: [3: 5]), directory: nil), at: .seconds(10))
                == [.putInMemory(events)])
        let last = machine.handle(
            .placedInMemory(Self.memoryPut(2, in: 1)),
            at: .seconds(11))

        #expect(last.count == 4)
        #expect(Array(last.prefix(2)) == [.setDurable(false), .countFallback])
        #expect(
            Self.messages(last) == [
                "the storage directory /data/queue can no longer be used (full); this instance keeps its batches in "
                    + "memory (1 batches, 2 events, moved there) and tries the directory again every 5.0 seconds"
            ])
        // The events of the batch whose file was already gone are lost, under an identity of the pipeline's.
        guard case .finished(let report) = last.last else {
            Issue.record("no finished action: \(last)")
            return
        }
        #expect(report.lostBatchEvents.values.sorted() == [5])
        #expect(!report.lostBatchEvents.keys.contains(ids[0]))
        #expect(machine.retryDeadline == .seconds(16))
        #expect(machine.place(of: ids[0]) == .init(store: 0, id: BinobanBatchID(sequence: 1)))
        guard case .inMemory(let since, _) = machine.state else {
            Issue.record("not in memory: \(machine.state)")
            return
        }
        #expect(since == .seconds(11))

        // In memory, no failure of a file storage can start another move (nor count another fallback).
        #expect(machine.handle(.writeFailed(cause: "again", firstInCall: true), at: .seconds(12)).isEmpty)
        #expect(machine.handle(.lockLost, at: .seconds(12)).isEmpty)
    }

    @Test("A directory that cannot be re-created: the read-back goes to memory and is counted as one fallback")
    func reopenFailsToMemory() {
        var (machine, _) = Self.onDisk([Self.entry(1, events: 1)])
        let events = TestEvents.events(0..<1)
        #expect(machine.handle(.lockLost, at: .seconds(3)) == [.salvageFile(excluding: [])])
        #expect(
            machine.handle(.salvaged(Self.salvage([(1, events)]), directory: nil), at: .seconds(3))
                == [.openDirectory(identify: false)])
        #expect(machine.handle(.directoryUnusable, at: .seconds(3)) == [.putInMemory(events)])
        let last = machine.handle(
            .placedInMemory(Self.memoryPut(1, in: 1)),
            at: .seconds(3))
        #expect(last.filter { $0 == .countFallback }.count == 1)
        #expect(Self.messages(last).first?.contains("(the directory or its lock file was removed)") == true)
        #expect(machine.retryDeadline == .seconds(8))
    }

    @Test("A delivered batch that cannot be deleted is not taken along, and its identity goes")
    func undeletableBatchIsLeftBehind() {
        var (machine, ids) = Self.onDisk([Self.entry(1, events: 2), Self.entry(2, events: 2)])
        #expect(
            machine.handle(.deleteFailed(cause: "EACCES", batch: ids[0]), at: .seconds(1))
                == [.salvageFile(excluding: [BinobanBatchID(sequence: 1)])])
        #expect(machine.place(of: ids[0]) == nil)
        #expect(machine.place(of: ids[1]) != nil)
    }

    @Test("A vanished batch's events are kept for the next write call; a lost lock then leaves the directory")
    func vanishedBatch() {
        var (machine, ids) = Self.onDisk([Self.entry(1, events: 4)])
        let vanished = [BinobanBatchID(sequence: 1): 4]
        #expect(machine.handle(.batchVanished(ids[0], lost: vanished, lockInPlace: true), at: .zero).isEmpty)
        #expect(machine.takeUnreported().lostBatchEvents == [ids[0]: 4])
        #expect(machine.takeUnreported() == BinobanStorageWriteReport())
        #expect(machine.isOnDisk)

        var (other, otherIDs) = Self.onDisk([Self.entry(1, events: 4)])
        #expect(
            other.handle(.batchVanished(otherIDs[0], lost: vanished, lockInPlace: false), at: .zero)
                == [.salvageFile(excluding: [])])
    }

    // MARK: Coming back

    @Test("In memory from the start: the retry deadline is 5 s on; before it nothing, at it the directory is tried")
    func retryDeadline() {
        var machine = Machine(directoryPath: Self.path, initial: nil, at: .seconds(2))
        #expect(machine.retryDeadline == .seconds(7))
        #expect(machine.fileStore == 0)
        #expect(machine.handle(.retryDue, at: .seconds(6)).isEmpty)
        #expect(machine.retryDeadline == .seconds(7))
        #expect(machine.handle(.retryDue, at: .seconds(7)) == [.openDirectory(identify: false)])
        #expect(machine.retryDeadline == nil)
        // Still unusable: silent, and the next try is 5 s after this one.
        #expect(machine.handle(.directoryUnusable, at: .seconds(8)) == [.finished(BinobanStorageWriteReport())])
        #expect(machine.retryDeadline == .seconds(12))
        guard case .inMemory(let since, _) = machine.state else {
            Issue.record("not in memory: \(machine.state)")
            return
        }
        #expect(since == .seconds(2))
    }

    @Test("Coming back moves every memory batch to disk under its identity: removed from memory, one report, durable")
    func movingBack() {
        var machine = Machine(directoryPath: Self.path, initial: nil, at: .zero)
        let events = TestEvents.events(0..<5)
        let first = machine.identity(of: BinobanBatchID(sequence: 1), in: 0)
        let second = machine.identity(of: BinobanBatchID(sequence: 2), in: 0)
        #expect(machine.handle(.retryDue, at: .seconds(5)) == [.openDirectory(identify: false)])
        #expect(
            machine.handle(.directoryOpened(entries: [], found: (0, 0), directory: nil), at: .seconds(5))
                == [.useOpenedDirectory, .readMemory])
        let memory: [(id: BinobanBatchID, events: [Data])] = [
            (BinobanBatchID(sequence: 1), Array(events[0..<3])), (BinobanBatchID(sequence: 2), Array(events[3..<5])),
        ]
        #expect(
            machine.handle(.memoryRead(closed: BinobanStorageWriteReport(), batches: memory), at: .seconds(5))
                == [.putInFile(Array(events[0..<3]))])
        #expect(
            machine.handle(.placedInFile(Self.filePut(3, in: 1)), at: .seconds(5))
                == [.removeFromMemory(BinobanBatchID(sequence: 1)), .putInFile(Array(events[3..<5]))])
        let last = machine.handle(.placedInFile(Self.filePut(2, in: 2)), at: .seconds(6))
        #expect(
            last == [
                .removeFromMemory(BinobanBatchID(sequence: 2)), .setDurable(true),
                .report(
                    "the storage directory /data/queue is used again: the 2 batches (5 events) kept in memory were "
                        + "moved to it"),
                .finished(BinobanStorageWriteReport()),
            ])
        #expect(machine.isOnDisk && machine.retryDeadline == nil)
        #expect(machine.place(of: first) == .init(store: 1, id: BinobanBatchID(sequence: 1)))
        #expect(machine.place(of: second) == .init(store: 1, id: BinobanBatchID(sequence: 2)))
    }

    @Test(
        "A failure while moving back: the file storage is read back (but the failed batch's copies), what it held goes to memory, the rest stays there; silent, no fallback counted"
    )
    func failureWhileMovingBack() {
        var machine = Machine(directoryPath: Self.path, initial: nil, at: .zero)
        let events = TestEvents.events(0..<5)
        let first = machine.identity(of: BinobanBatchID(sequence: 1), in: 0)
        let second = machine.identity(of: BinobanBatchID(sequence: 2), in: 0)
        _ = machine.handle(.retryDue, at: .seconds(5))
        _ = machine.handle(.directoryOpened(entries: [], found: (0, 0), directory: nil), at: .seconds(5))
        let memory: [(id: BinobanBatchID, events: [Data])] = [
            (BinobanBatchID(sequence: 1), Array(events[0..<3])), (BinobanBatchID(sequence: 2), Array(events[3..<5])),
        ]
        _ = machine.handle(.memoryRead(closed: nil, batches: memory), at: .seconds(5))
        _ = machine.handle(.placedInFile(Self.filePut(3, in: 1)), at: .seconds(5))
        // The second batch's append wrote part of it into file batch 2, then failed.
        let failed = Machine.FilePut(
            closedBefore: BinobanStorageWriteReport(), written: Self.placed(1, in: 2), closedAfter: nil)
        #expect(
            machine.handle(.placedInFile(failed), at: .seconds(6))
                == [.salvageFile(excluding: [BinobanBatchID(sequence: 2)])])
        // The first batch, already moved (and removed from memory), comes back from the file and goes to memory;
        // the second is still in memory and stays there.
        #expect(
            machine.handle(.salvaged(Self.salvage([(1, Array(events[0..<3]))]), directory: nil), at: .seconds(6))
                == [.putInMemory(Array(events[0..<3]))])
        let last = machine.handle(
            .placedInMemory(Self.memoryPut(3, in: 3)),
            at: .seconds(7))
        #expect(last == [.finished(BinobanStorageWriteReport())])
        #expect(!machine.isOnDisk)
        #expect(machine.retryDeadline == .seconds(10))
        #expect(machine.place(of: first) == .init(store: 0, id: BinobanBatchID(sequence: 3)))
        #expect(machine.place(of: second) == .init(store: 0, id: BinobanBatchID(sequence: 2)))
        #expect(machine.knownBatches == 2)
    }

    // MARK: Copies and counts

    @Test(
        "Files a read-only directory kept are deleted when the same directory opens again; until they can be, it is not used"
    )
    func copiesAreDeletedBeforeUse() {
        var (machine, _) = Self.onDisk([Self.entry(1, events: 2)])
        let events = TestEvents.events(0..<2)
        let directory: [UInt64] = [64, 1234]
        _ = machine.handle(.writeFailed(cause: "EROFS", firstInCall: false), at: .zero)
        // The batch was read back but its file stays.
        _ = machine.handle(.salvaged(Self.salvage([(1, events)], left: [1]), directory: directory), at: .zero)
        _ = machine.handle(
            .placedInMemory(Self.memoryPut(2, in: 1)), at: .zero)
        #expect(machine.leftovers == .init(directory: directory, sequences: [1]))

        // First retry: the copy cannot be deleted yet.
        #expect(machine.handle(.retryDue, at: .seconds(5)) == [.openDirectory(identify: true)])
        let entries = [Self.entry(1, events: 2), Self.entry(5, events: 3)]
        #expect(
            machine.handle(.directoryOpened(entries: entries, found: (5, 503), directory: directory), at: .seconds(5))
                == [.removeCopies([BinobanBatchID(sequence: 1)])])
        #expect(
            machine.handle(.copiesRemoved(false), at: .seconds(5))
                == [.dropOpenedDirectory, .finished(BinobanStorageWriteReport())])
        #expect(machine.retryDeadline == .seconds(10))
        #expect(machine.leftovers != nil)
        #expect(machine.fileStore == 1)

        // Second retry: deleted; only the other batch counts as left by an earlier run.
        _ = machine.handle(.retryDue, at: .seconds(10))
        _ = machine.handle(.directoryOpened(entries: entries, found: (5, 503), directory: directory), at: .seconds(10))
        #expect(machine.handle(.copiesRemoved(true), at: .seconds(10)) == [.useOpenedDirectory, .readMemory])
        #expect(machine.leftovers == nil)
        _ = machine.handle(
            .memoryRead(closed: nil, batches: [(BinobanBatchID(sequence: 1), events)]), at: .seconds(10))
        let last = machine.handle(.placedInFile(Self.filePut(2, in: 6)), at: .seconds(10))
        var expected = BinobanStorageWriteReport()
        expected.recoveredEvents = 3
        expected.recoveredBytes = 503 - Self.entry(1, events: 2).bodyBytes
        #expect(last.last == .finished(expected))
    }

    @Test("A directory re-created under the name is not the one that kept the copies: its files are left alone")
    func anotherDirectoryKeepsItsFiles() {
        var (machine, _) = Self.onDisk([Self.entry(1, events: 2)])
        _ = machine.handle(.writeFailed(cause: "EROFS", firstInCall: false), at: .zero)
        _ = machine.handle(
            .salvaged(Self.salvage([(1, TestEvents.events(0..<2))], left: [1]), directory: [64, 1]), at: .zero)
        _ = machine.handle(
            .placedInMemory(Self.memoryPut(2, in: 1)), at: .zero)
        _ = machine.handle(.retryDue, at: .seconds(5))
        #expect(
            machine.handle(
                .directoryOpened(entries: [Self.entry(1, events: 2)], found: (2, 201), directory: [64, 2]),
                at: .seconds(5)) == [.useOpenedDirectory, .readMemory])
    }

    @Test("Events a store refuses while a batch moves are lost under the batch's identity, reported by the next write")
    func refusedWhileMovingAreLost() {
        var (machine, ids) = Self.onDisk([Self.entry(1, events: 3)])
        let events = TestEvents.events(0..<3)
        _ = machine.handle(.writeFailed(cause: "x", firstInCall: false), at: .zero)
        _ = machine.handle(.salvaged(Self.salvage([(1, events)]), directory: nil), at: .zero)
        let last = machine.handle(
            .placedInMemory(Self.memoryPut(2, in: 1, oversize: 1)),
            at: .zero)
        guard case .finished(let report) = last.last else {
            Issue.record("no finished action: \(last)")
            return
        }
        #expect(report.lostBatchEvents.isEmpty)
        #expect(machine.takeUnreported().lostBatchEvents == [ids[0]: 1])
    }

    @Test("Results that no move waits for change nothing")
    func strayResults() {
        var (machine, ids) = Self.onDisk([Self.entry(1, events: 1)])
        #expect(machine.handle(.directoryUnusable, at: .zero).isEmpty)
        #expect(machine.handle(.copiesRemoved(true), at: .zero).isEmpty)
        #expect(machine.handle(.retryDue, at: .seconds(100)).isEmpty)
        #expect(machine.isOnDisk && machine.fileStore == 1)
        #expect(machine.place(of: ids[0]) != nil)
    }
}
