import Foundation
import Testing

@testable import BinobanCore

/// The default storage's moves between its directory and memory, driven directly (real files, a time the test
/// sets): identities that survive a move, losses counted, one report per move.
@Suite("File-or-memory storage: moves between the directory and memory")
struct FileOrMemoryEventStorageTests {
    /// A storage on `directory` (namespace `src`), its reports and its durability flag, at the time `now` holds.
    final class Fixture: Sendable {
        let claim: StorageDirectoryClaim
        let now = LockedValue(Duration.zero)
        let reports = LockedValue<[String]>([])
        let fallbacks = LockedValue(0)
        let durable = LockedValue(false)
        let executor = StorageExecutor(label: "test.file-or-memory")

        init(_ directory: URL) {
            claim = StorageDirectoryClaim(directory: directory, namespace: "src", lock: nil)
        }

        func makeStorage(initial: Bool) throws -> FileOrMemoryEventStorage {
            let (claim, now, reports, fallbacks) = (claim, now, reports, fallbacks)
            let environment = FileOrMemoryEventStorage.Environment(
                openFile: { executor in
                    try BinobanFileEventStorage(
                        lock: claim.take(), limits: BinobanStorageLimits(maxBatchBytes: 2_000), namespace: "src",
                        durability: .survivesProcessCrash, executor: executor)
                },
                directoryPath: try StorageDirectory.fileSystemPath(of: claim.directory),
                lockIsInPlace: { claim.lockIsInPlace },
                now: { now.withLock { $0 } },
                report: { message in reports.withLock { $0.append(message) } },
                countFallback: { fallbacks.withLock { $0 += 1 } },
                durable: durable)
            let first = initial ? try environment.openFile(executor) : nil
            return FileOrMemoryEventStorage(
                environment: environment, initial: first, limits: BinobanStorageLimits(maxBatchBytes: 2_000),
                writeKey: "src", executor: executor)
        }
    }

    @Test(
        "A batch read in memory and moved to disk keeps its identity: removing it after the move removes the moved copy"
    )
    func identitySurvivesTheMoveToDisk() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("queue", isDirectory: true)
            // Another holder has the directory: the storage starts in memory.
            let other = try NamespaceLock.acquire(directory: directory, namespace: "src")
            let fixture = Fixture(directory)
            let storage = try fixture.makeStorage(initial: false)
            #expect(!fixture.durable.withLock { $0 })
            _ = try await storage.append(TestEvents.events(0..<10))
            try await storage.closeOpenBatch()
            let listed = try await storage.finishedBatches(limit: 10)
            #expect(listed.count == 1)
            let held = try #require(try await storage.read(listed[0]))  // an upload in flight

            // The holder goes; not yet time to try: still memory.
            other.release()
            fixture.now.withLock { $0 = .seconds(4) }
            _ = try await storage.append(TestEvents.events(10..<12))
            #expect(!fixture.durable.withLock { $0 })

            fixture.now.withLock { $0 = .seconds(5) }
            let report = try await storage.append(TestEvents.events(12..<14))
            #expect(report.storedEvents == 2)
            #expect(fixture.durable.withLock { $0 })
            #expect(fixture.reports.withLock { $0 }.count == 1)
            #expect(fixture.reports.withLock { $0 }.first?.contains("used again") == true)
            // On disk: the moved batch (10 events), the open batch of the first retry (2) moved too, the new 2.
            let onDisk = try StoredBacklogReader(directory: directory, namespace: "src").batches()
            #expect(onDisk.reduce(0) { $0 + $1.eventCount } == 14)

            // The upload that read it in memory succeeds: its removal deletes the copy on disk.
            try await storage.remove(held.id)
            try await storage.closeOpenBatch()
            var left: [Int] = []
            for id in try await storage.finishedBatches(limit: 10) {
                #expect(id != held.id)
                let batch = try #require(try await storage.read(id))
                left += try TestEvents.decode(batch.events).map(\.i)
            }
            #expect(left == Array(10..<14))
        }
    }

    @Test(
        "A batch file deleted under the storage: reading it finds nothing, and the next write reports its events as lost"
    )
    func deletedFileIsLost() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("queue", isDirectory: true)
            let fixture = Fixture(directory)
            let storage = try fixture.makeStorage(initial: true)
            _ = try await storage.append(TestEvents.events(0..<5))
            try await storage.closeOpenBatch()
            let id = try #require(try await storage.finishedBatches(limit: 1).first)
            for name in try StorageFiles.names(directory) where name.hasSuffix(".batch") {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
            #expect(try await storage.read(id) == nil)
            let report = try await storage.append(TestEvents.events(5..<6))
            #expect(report.lostBatchEvents == [id: 5])
            #expect(report.storedEvents == 1)
            // The directory itself is fine: no move, no report.
            #expect(fixture.durable.withLock { $0 })
            #expect(fixture.reports.withLock { $0 }.isEmpty)
        }
    }

    @Test("A directory that cannot be made again: one report, one fallback, and the read-back events stored in memory")
    func fallbackIsReportedOnce() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("queue", isDirectory: true)
            let fixture = Fixture(directory)
            let storage = try fixture.makeStorage(initial: true)
            _ = try await storage.append(TestEvents.events(0..<5))  // the open batch
            try FileManager.default.removeItem(at: directory)
            try Data().write(to: directory)  // a file in its place: it cannot be made again

            var stored = 0
            for chunk in 0..<10 {
                // Enough to finish batches: the first failure moves everything to memory.
                stored += try await storage.append(TestEvents.events((5 + chunk * 10)..<(15 + chunk * 10))).storedEvents
            }
            try await storage.closeOpenBatch()
            #expect(stored == 100)
            #expect(!fixture.durable.withLock { $0 })
            #expect(fixture.fallbacks.withLock { $0 } == 1)
            #expect(fixture.reports.withLock { $0 }.count == 1)
            var events: [Int] = []
            for id in try await storage.finishedBatches(limit: 100) {
                let batch = try #require(try await storage.read(id))
                events += try TestEvents.decode(batch.events).map(\.i)
            }
            #expect(events == Array(0..<105))
        }
    }
}
