import Foundation
import Testing

@testable import BinobanCore

@Suite("File event storage: append, read, order, rollover")
struct BinobanFileEventStorageTests {
    @Test("Appended events come back as one comma-joined body, byte for byte")
    func roundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            let events = [Data(#"{"a":1}"#.utf8), Data(#"{"b":"x,y"}"#.utf8), Data(#"{"c":[1,2,{"d":null}]}"#.utf8)]
            let report = try await storage.append(events)
            #expect(report == BinobanStorageWriteReport(storedEvents: 3).placing((1, 3)))
            try await storage.closeOpenBatch()

            let ids = try await storage.finishedBatches(limit: 20)
            #expect(ids.count == 1)
            let first = try #require(ids.first)
            let batch = try #require(try await storage.read(first))
            #expect(batch.eventCount == 3)
            #expect(String(decoding: batch.events, as: UTF8.self) == #"{"a":1},{"b":"x,y"},{"c":[1,2,{"d":null}]}"#)
        }
    }

    @Test("The open batch is not listed, not readable and not removable until it is closed")
    func openBatchIsNotFinished() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<3))
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)
            let openID = BinobanBatchID(sequence: 1)
            #expect(try await storage.read(openID) == nil)
            try await storage.remove(openID)
            #expect(
                try StorageFiles.names(directory)
                    == [StorageFiles.name("src", 1, open: true), StorageFiles.lock("src")].sorted())

            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20) == [openID])
            #expect(try await TestEvents.storedIndices(storage) == [0, 1, 2])
        }
    }

    @Test("Closing with nothing open creates no batch and no file")
    func closeWithoutEvents() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            try await storage.closeOpenBatch()
            _ = try await storage.append([])
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)
            #expect(try StorageFiles.names(directory) == [StorageFiles.lock("src")])
        }
    }

    @Test("Batches stay in order across closes and across a re-open (simulated restart)")
    func orderAcrossRestart() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
                _ = try await storage.append(TestEvents.events(0..<10))
                try await storage.closeOpenBatch()
                _ = try await storage.append(TestEvents.events(10..<20))
                try await storage.closeOpenBatch()
                _ = try await storage.append(TestEvents.events(20..<25))  // left open: the process "ends"
                await storage.close()
            }
            let reopened = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(
                reopened.recoveryReport
                    == BinobanStorageRecoveryReport(recoveredBatches: 2, repairedBatches: 1, discardedBytes: 0))
            _ = try await reopened.append(TestEvents.events(25..<30))
            try await reopened.closeOpenBatch()

            let ids = try await reopened.finishedBatches(limit: 20)
            #expect(ids.map(\.sequence) == [1, 2, 3, 4])
            #expect(try await TestEvents.storedIndices(reopened) == Array(0..<30))
        }
    }

    @Test("finishedBatches(limit:) gives the oldest first, at most limit of them")
    func listingLimit() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            for index in 0..<4 {
                _ = try await storage.append([TestEvents.event(index)])
                try await storage.closeOpenBatch()
            }
            #expect(try await storage.finishedBatches(limit: 2).map(\.sequence) == [1, 2])
            #expect(try await storage.finishedBatches(limit: 0).isEmpty)
            #expect(try await storage.finishedBatches(limit: -1).isEmpty)
            #expect(try await storage.finishedBatches(limit: 99).count == 4)
        }
    }

    @Test("With maxTotalBytes below maxBatchBytes a batch file closes before it is over maxTotalBytes")
    func totalBelowBatchSize() async throws {
        try await withTemporaryDirectory { directory in
            // The default 500 000-byte batches with a 2 000-byte cap: one batch filled past 2 000 bytes would be
            // evicted, all of it, the moment it was finished.
            let storage = try BinobanFileEventStorage(
                directory: directory, limits: BinobanStorageLimits(maxTotalBytes: 2_000), namespace: "src")
            var stored = 0
            var evicted = 0
            for index in 0..<30 {
                let report = try await storage.append([TestEvents.event(index)])
                stored += report.storedEvents
                evicted += report.evictedEvents
            }
            evicted += try await storage.closeOpenBatch().evictedEvents
            #expect(stored == 30)
            let kept = try await TestEvents.storedIndices(storage)
            // The newest events are kept, in order; everything older is evicted and counted.
            #expect(!kept.isEmpty)
            #expect(kept == Array((30 - kept.count)..<30))
            #expect(kept.count + evicted == 30)
            var bytes = 0
            for name in try StorageFiles.names(directory) where name != StorageFiles.lock("src") {
                bytes += try Data(contentsOf: directory.appendingPathComponent(name)).count
            }
            #expect(bytes <= 2_000)
        }
    }

    @Test("Rollover: every batch in its real envelope stays below 500 000 bytes, no event is split or lost")
    func rolloverBelowLimit() async throws {
        try await withTemporaryDirectory { directory in
            let writeKey = "source-\u{e9}\u{1F600}\"key\""
            let limits = BinobanStorageLimits(
                envelopeOverheadBytes: BinobanStorageLimits.envelopeOverhead(forWriteKey: writeKey),
                maxFinishedBatches: 1000, maxTotalBytes: 100_000_000)
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            // Sizes cycle through small, mid and near-limit events so that batches end at many different fills.
            let sizes = [120, 31_999, 7_500, 300, 18_000, 999, 25_001]
            let events = (0..<600).map { TestEvents.event($0, bytes: sizes[$0 % sizes.count]) }
            var stored = 0
            for start in stride(from: 0, to: events.count, by: 256) {
                stored += try await storage.append(Array(events[start..<min(start + 256, events.count)])).storedEvents
            }
            try await storage.closeOpenBatch()
            #expect(stored == events.count)

            var indices: [Int] = []
            let ids = try await storage.finishedBatches(limit: 1000)
            #expect(ids.count > 10)
            for (position, id) in ids.enumerated() {
                let batch = try #require(try await storage.read(id))
                var envelope = Data(#"{"batch":["#.utf8)
                envelope.append(batch.events)
                var tail: [UInt8] = Array(#"],"sentAt":"2026-08-02T12:00:30.004Z","writeKey":"#.utf8)
                JSONWriter.appendString(writeKey, to: &tail)
                tail.append(UInt8(ascii: "}"))
                envelope.append(contentsOf: tail)
                #expect(envelope.count < 500_000)
                let decoded = try TestEvents.decode(batch.events)
                indices += decoded.map(\.i)
                if position < ids.count - 1, let last = decoded.last {
                    // The batch was closed only because the next event would not have fit.
                    let next = events[last.i + 1].count
                    #expect(envelope.count + 1 + next >= 500_000)
                }
            }
            #expect(indices == Array(0..<events.count))
        }
    }

    @Test("Rollover at the exact boundary: a batch closes when events plus envelope would reach the limit")
    func rolloverBoundary() async throws {
        try await withTemporaryDirectory { directory in
            // 99-byte events: 9 make 9 * 99 + 8 = 899 body bytes, plus 100 envelope = 999 < 1000; a 10th reaches 1099.
            let limits = BinobanStorageLimits(
                maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100, maxFinishedBatches: 100)
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<27, bytes: 99))
            let ids = try await storage.finishedBatches(limit: 100)
            #expect(ids.count == 2)  // the third holds 9 events but stays open until something closes it
            for id in ids {
                let batch = try #require(try await storage.read(id))
                #expect(batch.eventCount == 9)
                #expect(batch.events.count == 899)
            }
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == Array(0..<27))
        }
    }

    @Test("Oversize events (32 000 bytes or more, or too big for any batch) are refused, counted and never written")
    func oversizeEvents() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            let events = [
                TestEvents.event(0, bytes: 31_999), TestEvents.event(1, bytes: 32_000), TestEvents.event(2),
                TestEvents.event(3, bytes: 1_000_000),
            ]
            let report = try await storage.append(events)
            #expect(report == BinobanStorageWriteReport(storedEvents: 2, rejectedOversizeEvents: 2).placing((1, 2)))
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == [0, 2])

            // With a batch limit below event + envelope, the event could never be uploaded: refused too.
            let tight = BinobanStorageLimits(maxEventBytes: 1_000, maxBatchBytes: 600, envelopeOverheadBytes: 200)
            let small = try BinobanFileEventStorage(directory: directory, limits: tight, namespace: "tight")
            let tightReport = try await small.append([TestEvents.event(0, bytes: 400), TestEvents.event(1, bytes: 399)])
            #expect(
                tightReport == BinobanStorageWriteReport(storedEvents: 1, rejectedOversizeEvents: 1).placing((1, 1)))
        }
    }

    @Test("An event that is not a JSON object is refused with an error and nothing of the call is written")
    func malformedEvent() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            for bad in [Data(), Data("[1]".utf8), Data(#"{"a":1"#.utf8)] {
                await #expect(throws: BinobanFileStorageError.self) {
                    try await storage.append([TestEvents.event(0), bad])
                }
                do {
                    _ = try await storage.append([TestEvents.event(0), bad])
                } catch let error as BinobanFileStorageError {
                    #expect(error.code == .malformedEvent)
                    #expect(error.storedEventsBeforeFailure == 0)
                }
            }
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)
        }
    }

    @Test("remove deletes one finished batch; removing it again or an unknown batch is not an error")
    func removeIsIdempotent() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try await BinobanFileEventStorage.withFinishedBatches(0..<2, 2..<4, in: directory)
            let ids = try await storage.finishedBatches(limit: 20)

            try await storage.remove(ids[0])
            try await storage.remove(ids[0])
            try await storage.remove(BinobanBatchID(sequence: 999))
            #expect(try await storage.finishedBatches(limit: 20) == [ids[1]])
            // The removed batch's file is kept, cut to its header, as the next batch's file (Decision 0232).
            let spare = SpareBatchFile.fileName(sequence: 1, namespace: "src")
            #expect(
                try StorageFiles.names(directory)
                    == [StorageFiles.name("src", 2), spare, StorageFiles.lock("src")].sorted())
            #expect(try Data(contentsOf: directory.appending(path: spare)) == Data(BatchRecordFormat.magic))
            #expect(try await storage.read(ids[0]) == nil)
            #expect(try await TestEvents.storedIndices(storage) == [2, 3])
        }
    }

    @Test("A finished batch is never appended to: its file is unchanged by later appends")
    func finishedBatchIsFrozen() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<5))
            try await storage.closeOpenBatch()
            let before = try StorageFiles.contents(directory, StorageFiles.name("src", 1))
            _ = try await storage.append(TestEvents.events(5..<50))
            try await storage.closeOpenBatch()
            #expect(try StorageFiles.contents(directory, StorageFiles.name("src", 1)) == before)
            #expect(try await storage.finishedBatches(limit: 20).count == 2)
        }
    }

    @Test("A batch file that vanished under the storage reads as not found and leaves the index")
    func vanishedBatch() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<2))
            try await storage.closeOpenBatch()
            try FileManager.default.removeItem(at: directory.appendingPathComponent(StorageFiles.name("src", 1)))
            #expect(try await storage.read(BinobanBatchID(sequence: 1)) == nil)
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)
        }
    }
}
