import Foundation
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("File event storage: failures become thrown errors")
struct BinobanFileEventStorageFailureTests {
    @Test("A directory removed under the storage makes close and append throw; once it is back, nothing stored is lost")
    func directoryRemovedUnderTheStorage() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("queue", isDirectory: true)
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<3))
            try FileManager.default.removeItem(at: directory)

            do {
                try await storage.closeOpenBatch()
                Issue.record("finishing a batch whose directory is gone must throw")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .ioFailure)
                #expect(error.systemErrorNumber == ENOENT)
            }
            do {
                _ = try await storage.append(TestEvents.events(3..<6))
                Issue.record("creating a batch in a missing directory must throw")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .ioFailure)
                #expect(error.storedEventsBeforeFailure == 0)
            }
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)

            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect(try await storage.append(TestEvents.events(6..<8)).storedEvents == 2)
            try await storage.closeOpenBatch()
            // Events 0...2 were stored before the directory went: kept through the descriptor, first in order.
            #expect(try await TestEvents.storedIndices(storage) == [0, 1, 2, 6, 7])
        }
    }

    @Test("A batch file of ours that cannot be read is left in place and reported", .enabled(if: getuid() != 0))
    func unreadableBatchFile() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
                _ = try await storage.append(TestEvents.events(0..<3))
                try await storage.closeOpenBatch()
            }
            let locked = directory.appendingPathComponent(StorageFiles.name("src", 1))
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: locked.path) }

            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(storage.recoveryIssues.count == 1)
            #expect(storage.recoveryIssues.first?.code == .ioFailure)
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)
            _ = try await storage.append([TestEvents.event(3)])
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20) == [BinobanBatchID(sequence: 2)])
            #expect(FileManager.default.fileExists(atPath: locked.path))
        }
    }
}
