import Foundation
import Testing

@testable import BinobanCore

@Suite("File event storage: the newest batch's body read from memory")
struct RecentBatchBodyTests {
    /// The body a read of the file itself gives (the path every batch took before the body was kept).
    private static func bodyOnDisk(_ directory: URL, _ sequence: UInt64) throws -> (Data, Int) {
        let bytes = try StorageFiles.contents(directory, StorageFiles.name("src", sequence))
        return bytes.withUnsafeBytes { BatchRecordFormat.body(of: $0) }
    }

    @Test("A batch read right after it was finished equals its file's body, over several appends and batches")
    func memoryEqualsFile() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            var next = 0
            for (sequence, appends) in [(UInt64(1), [1, 3, 2]), (2, [1]), (3, [5, 1])] {
                for count in appends {
                    _ = try await storage.append(TestEvents.events(next..<(next + count)))
                    next += count
                }
                try await storage.closeOpenBatch()
                let batch = try #require(try await storage.read(BinobanBatchID(sequence: sequence)))
                let (body, count) = try Self.bodyOnDisk(directory, sequence)
                #expect(batch.events == body)
                #expect(batch.eventCount == count)
                #expect(count == appends.reduce(0, +))
            }
            // The older batches (no longer the newest) are read from their files and are unchanged.
            let first = try #require(try await storage.read(BinobanBatchID(sequence: 1)))
            #expect(first.events == (try Self.bodyOnDisk(directory, 1)).0)
        }
    }

    @Test("A finished batch whose file was removed by something else is still found missing, and its events lost")
    func removedFileIsMissing() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<4))
            try await storage.closeOpenBatch()
            let id = BinobanBatchID(sequence: 1)
            try FileManager.default.removeItem(at: directory.appending(path: StorageFiles.name("src", 1)))
            #expect(try await storage.read(id) == nil)
            #expect(await storage.takeVanishedBatches() == [id: 4])
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)
        }
    }

    @Test("The newest batch's file cut after it was finished is read from the file: its intact events only")
    func cutFileIsReadFromDisk() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<3))
            try await storage.closeOpenBatch()
            let name = StorageFiles.name("src", 1)
            let bytes = try StorageFiles.contents(directory, name)
            try StorageFiles.write(bytes.prefix(bytes.count - 1), directory, name)
            let batch = try #require(try await storage.read(BinobanBatchID(sequence: 1)))
            #expect(try TestEvents.decode(batch.events).map(\.i) == [0, 1])
        }
    }

    @Test("The newest batch is read from memory, not from its file (a same-size overwrite is not seen)")
    func readsFromMemory() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<3))
            try await storage.closeOpenBatch()
            let name = StorageFiles.name("src", 1)
            let size = try StorageFiles.contents(directory, name).count
            // Read from the file, these bytes hold no intact event (the read would throw `corruptBatch`).
            try StorageFiles.write(Data(repeating: 0x20, count: size), directory, name)
            let batch = try #require(try await storage.read(BinobanBatchID(sequence: 1)))
            #expect(try TestEvents.decode(batch.events).map(\.i) == [0, 1, 2])
        }
    }

    @Test("A removed batch is not read back from memory")
    func removedBatchIsGone() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<2))
            try await storage.closeOpenBatch()
            let id = BinobanBatchID(sequence: 1)
            try await storage.remove(id)
            #expect(try await storage.read(id) == nil)
            #expect(await storage.takeVanishedBatches().isEmpty)
        }
    }

    @Test("A body that outgrows the limit is let go; its batch is read from the file")
    func limitLetsGo() {
        var recent = RecentBatchBody(limit: 300)
        recent.began(7)
        var records: [UInt8] = []
        BatchRecordFormat.appendRecord(TestEvents.event(0), to: &records)
        recent.wrote(records: records, to: 7)
        #expect(recent.open?.eventCount == 1)
        recent.wrote(records: records + records, to: 7)
        #expect(recent.open == nil)
        recent.finished(7)
        #expect(recent.body(of: 7, eventCount: 3) == nil)
        // Judged by the records before they are copied: records of exactly the limit fit, one byte more does not.
        var exact = RecentBatchBody(limit: records.count)
        exact.began(1)
        exact.wrote(records: records, to: 1)
        #expect(exact.open?.eventCount == 1)
        var short = RecentBatchBody(limit: records.count - 1)
        short.began(1)
        short.wrote(records: records, to: 1)
        #expect(short.open == nil)
    }

    @Test("A body is used only for its batch with the batch's event count; a failed write lets it go")
    func bodyMatchesItsBatch() {
        var recent = RecentBatchBody()
        recent.began(3)
        var records: [UInt8] = []
        BatchRecordFormat.appendRecord(Data(#"{"a":1}"#.utf8), to: &records)
        BatchRecordFormat.appendRecord(Data(#"{"b":2}"#.utf8), to: &records)
        recent.wrote(records: records, to: 3)
        recent.wrote(records: records, to: 4)  // another batch's write: ignored
        recent.finished(3)
        #expect(
            recent.body(of: 3, eventCount: 2).map { String(decoding: $0.events, as: UTF8.self) } == #"{"a":1},{"b":2}"#)
        #expect(recent.body(of: 3, eventCount: 3) == nil)
        #expect(recent.body(of: 4, eventCount: 2) == nil)
        recent.began(4)
        recent.wrote(records: records, to: 4)
        recent.lostTrack(of: 4)
        recent.finished(4)
        #expect(recent.body(of: 4, eventCount: 2) == nil)
        // A torn record (never written by the storage) lets the body go rather than keep a partial one.
        recent.began(5)
        recent.wrote(records: Array(records.dropLast()), to: 5)
        #expect(recent.open == nil)
    }
}
