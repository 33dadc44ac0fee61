import Foundation
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("File event storage: crash consistency and foreign files")
struct BinobanFileEventStorageRecoveryTests {
    /// Writes `events` through a storage and returns the bytes of the open batch file it leaves behind.
    private static func openBatchBytes(_ events: [Data]) async throws -> Data {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(Array(events.prefix(3)))
            _ = try await storage.append(Array(events.dropFirst(3)))
            return try StorageFiles.contents(directory, StorageFiles.name("src", 1, open: true))
        }
    }

    @Test("A batch file cut at every byte offset keeps exactly the complete events before the cut")
    func truncationAtEveryOffset() async throws {
        // Varied sizes, and content with commas, braces, quotes, newlines and multi-byte characters.
        let events = (0..<12).map { index -> Data in
            let text = String(repeating: "{,}\\\"\n\u{e9}\u{1F600}", count: index % 4)
            let json = try? JSONEncoder().encode(TestEvents.Decoded(i: index, p: text))
            return json ?? Data()
        }
        let file = try await Self.openBatchBytes(events)
        // Where each record ends: 8 bytes of magic, then 8 bytes of header plus the payload per record.
        var ends: [Int] = []
        var offset = BatchRecordFormat.magic.count
        for event in events {
            offset += BatchRecordFormat.recordHeaderBytes + event.count
            ends.append(offset)
        }
        #expect(offset == file.count)

        try await withTemporaryDirectory { base in
            // Eight lanes of offsets, each in its own directory, so that the syncs of the repairs overlap.
            let lanes = 8
            let recordEnds = ends
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<lanes {
                    let directory = base.appendingPathComponent("lane-\(lane)", isDirectory: true)
                    group.addTask {
                        for cut in stride(from: lane, through: file.count, by: lanes) {
                            try await Self.checkRepair(
                                of: file.prefix(cut), events: events, ends: recordEnds, in: directory)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// Leaves `cutFile` as an open batch in `directory`, re-opens the storage and checks that exactly the records
    /// ending at or before the cut come back, then removes them again.
    private static func checkRepair(of cutFile: Data, events: [Data], ends: [Int], in directory: URL) async throws {
        let cut = cutFile.count
        let name = StorageFiles.name("src", 1, open: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try StorageFiles.write(cutFile, directory, name)
        // The lane's storage of the previous cut was dropped when that call returned; its lock may still be held.
        // The previous cut's storage was closed before that call returned: the namespace is free.
        let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
        let complete = ends.filter { $0 <= cut }.count
        let intact = complete == 0 ? 0 : ends[complete - 1]
        let ids = try await storage.finishedBatches(limit: 20)
        if complete == 0 {
            #expect(ids.isEmpty, "cut at \(cut)")
            #expect(
                storage.recoveryReport == BinobanStorageRecoveryReport(discardedBytes: cut, removedCorruptFiles: 1))
            #expect(try StorageFiles.names(directory) == [StorageFiles.lock("src")])
            await storage.close()
            return
        }
        #expect(
            storage.recoveryReport == BinobanStorageRecoveryReport(repairedBatches: 1, discardedBytes: cut - intact),
            "cut at \(cut)")
        let first = try #require(ids.first)
        let batch = try #require(try await storage.read(first))
        let decoded = try TestEvents.decode(batch.events)
        #expect(decoded.map(\.i) == Array(0..<complete), "cut at \(cut)")
        #expect(batch.events == Data(events.prefix(complete).joined(separator: Data(",".utf8))))
        #expect(try StorageFiles.names(directory) == [StorageFiles.name("src", 1), StorageFiles.lock("src")].sorted())
        try await storage.remove(ids[0])
        await storage.close()
    }

    @Test("A half-written trailing record and a zero-filled tail are discarded; the events before survive")
    func tornTails() async throws {
        let events = TestEvents.events(0..<5)
        let file = try await Self.openBatchBytes(events)
        var header: [UInt8] = []
        BatchRecordFormat.appendRecord(TestEvents.event(5, bytes: 300), to: &header)
        let halfRecord = Data(header.prefix(150))
        let zeros = Data(repeating: 0, count: 4096)

        for tail in [halfRecord, zeros, Data(#"{"i":5,"p":"x"}"#.utf8)] {
            try await withTemporaryDirectory { directory in
                try StorageFiles.write(file + tail, directory, StorageFiles.name("src", 1, open: true))
                let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
                #expect(storage.recoveryReport.discardedBytes == tail.count)
                #expect(try await TestEvents.storedIndices(storage) == Array(0..<5))
                // New events go to a new batch after the repaired one.
                _ = try await storage.append([TestEvents.event(5)])
                try await storage.closeOpenBatch()
                #expect(try await TestEvents.storedIndices(storage) == Array(0..<6))
            }
        }
    }

    @Test("A flipped byte fails its record's checksum: that record and everything after it are dropped")
    func corruptMiddleRecord() async throws {
        let events = TestEvents.events(0..<6)
        var file = try await Self.openBatchBytes(events)
        let thirdRecordPayload = BatchRecordFormat.magic.count + 2 * (8 + 100) + 8
        file[thirdRecordPayload + 10] ^= 0x01
        try await withTemporaryDirectory { directory in
            try StorageFiles.write(file, directory, StorageFiles.name("src", 4))
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(storage.recoveryReport == BinobanStorageRecoveryReport(repairedBatches: 1, discardedBytes: 4 * 108))
            #expect(try await TestEvents.storedIndices(storage) == [0, 1])
        }
    }

    @Test("A finished batch corrupted after open is salvaged on read, or deleted when nothing is intact")
    func corruptionAfterOpen() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try await BinobanFileEventStorage.withFinishedBatches(0..<3, 3..<6, in: directory)
            let first = StorageFiles.name("src", 1)
            let bytes = try StorageFiles.contents(directory, first)
            try StorageFiles.write(bytes.prefix(bytes.count - 1), directory, first)
            try StorageFiles.write(Data("garbage".utf8), directory, StorageFiles.name("src", 2))

            let salvaged = try #require(try await storage.read(BinobanBatchID(sequence: 1)))
            #expect(try TestEvents.decode(salvaged.events).map(\.i) == [0, 1])
            do {
                _ = try await storage.read(BinobanBatchID(sequence: 2))
                Issue.record("a batch without an intact event must not be returned")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .corruptBatch)
            }
            #expect(try await storage.finishedBatches(limit: 20) == [BinobanBatchID(sequence: 1)])
            #expect(try StorageFiles.names(directory) == [first, StorageFiles.lock("src")].sorted())
        }
    }

    @Test("Garbage files with this storage's names are removed and counted; new batches sort after them")
    func garbageWithOurNames() async throws {
        try await withTemporaryDirectory { directory in
            try StorageFiles.write(Data("hello world".utf8), directory, StorageFiles.name("src", 7))
            try StorageFiles.write(
                Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) }), directory,
                StorageFiles.name("src", 8, open: true))
            try StorageFiles.write(Data(), directory, StorageFiles.name("src", 9, open: true))
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(
                storage.recoveryReport == BinobanStorageRecoveryReport(discardedBytes: 311, removedCorruptFiles: 3))
            #expect(try StorageFiles.names(directory) == [StorageFiles.lock("src")])
            _ = try await storage.append([TestEvents.event(0)])
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20) == [BinobanBatchID(sequence: 10)])
        }
    }

    @Test("An open file beside a finished batch of the same number never replaces it")
    func openTwinOfFinishedBatch() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
                _ = try await storage.append(TestEvents.events(0..<3))
                try await storage.closeOpenBatch()
                await storage.close()
            }
            let finished = try StorageFiles.contents(directory, StorageFiles.name("src", 1))
            let other = try await Self.openBatchBytes(TestEvents.events(50..<55))
            try StorageFiles.write(other, directory, StorageFiles.name("src", 1, open: true))
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(storage.recoveryReport.removedCorruptFiles == 1)
            #expect(try StorageFiles.contents(directory, StorageFiles.name("src", 1)) == finished)
            #expect(try await TestEvents.storedIndices(storage) == [0, 1, 2])
        }
    }

    @Test("Foreign files, other namespaces, directories and links survive open, caps and removes")
    func foreignFilesSurvive() async throws {
        try await withTemporaryDirectory { directory in
            let manager = FileManager.default
            try StorageFiles.write(Data("mine".utf8), directory, "notes.txt")
            try StorageFiles.write(Data("short number".utf8), directory, "src-3.batch")
            try StorageFiles.write(Data("other suffix".utf8), directory, StorageFiles.name("src", 4) + ".bak")
            try StorageFiles.write(Data("upper case".utf8), directory, StorageFiles.name("SRC", 5))
            try manager.createDirectory(
                at: directory.appendingPathComponent(StorageFiles.name("src", 6)), withIntermediateDirectories: false)
            try manager.createSymbolicLink(
                at: directory.appendingPathComponent(StorageFiles.name("src", 2)),
                withDestinationURL: directory.appendingPathComponent("notes.txt"))
            // A real batch of another namespace that shares the prefix.
            let other = try BinobanFileEventStorage(directory: directory, namespace: "src-1")
            _ = try await other.append(TestEvents.events(100..<103))
            try await other.closeOpenBatch()
            let foreign = try StorageFiles.names(directory)

            let limits = BinobanStorageLimits(
                maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100, maxFinishedBatches: 2)
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            #expect(storage.recoveryReport == BinobanStorageRecoveryReport())
            let report = try await storage.append(TestEvents.events(0..<50, bytes: 99))
            #expect(report.evictedBatches == 3)  // 5 finished, 2 kept: caps evict only our own batches
            for id in try await storage.finishedBatches(limit: 20) {
                try await storage.remove(id)
            }
            try await storage.closeOpenBatch()

            let names = try StorageFiles.names(directory)
            #expect(Set(foreign).isSubset(of: Set(names)))
            #expect(try String(decoding: StorageFiles.contents(directory, "notes.txt"), as: UTF8.self) == "mine")
            #expect(try await TestEvents.storedIndices(other) == [100, 101, 102])
            #expect(try await TestEvents.storedIndices(storage) == Array(45..<50))

            // Re-opening a namespace that is in use is refused; once its storage is closed, re-opening finds its
            // own batches only. Closed, not just released: an actor's last reference can outlive the test's last
            // await on it for a moment, and with it the lock (`directoryInUse` once, under load).
            #expect(throws: BinobanFileStorageError.self) {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src-1")
            }
            await other.close()
            let reopenedOther = try BinobanFileEventStorage(directory: directory, namespace: "src-1")
            #expect(reopenedOther.recoveryReport == BinobanStorageRecoveryReport(recoveredBatches: 1))
        }
    }

    @Test("A FIFO with this storage's name neither blocks the open nor gets touched")
    func fifoWithOurName() async throws {
        try await withTemporaryDirectory { directory in
            let fifo = directory.appendingPathComponent(StorageFiles.name("src", 3, open: true))
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(storage.recoveryReport == BinobanStorageRecoveryReport())
            _ = try await storage.append([TestEvents.event(0)])
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20) == [BinobanBatchID(sequence: 4)])
            #expect(try StorageFiles.names(directory).contains(fifo.lastPathComponent))
        }
    }

    @Test("A batch file far larger than any batch is read only up to a bound; the excess is discarded")
    func hugeFileIsBounded() async throws {
        let limits = BinobanStorageLimits(maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100)
        let readLimit = BatchRecordFormat.readLimit(maxBatchBytes: 1000)
        let events = TestEvents.events(0..<5, bytes: 99)
        let file = try await Self.openBatchBytes(events)
        try await withTemporaryDirectory { directory in
            let tail = Data(repeating: 0x7B, count: readLimit * 3)
            try StorageFiles.write(file + tail, directory, StorageFiles.name("src", 1))
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            #expect(
                storage.recoveryReport == BinobanStorageRecoveryReport(repairedBatches: 1, discardedBytes: tail.count))
            #expect(try StorageFiles.contents(directory, StorageFiles.name("src", 1)) == file)
            #expect(try await TestEvents.storedIndices(storage) == Array(0..<5))
        }
    }
}
