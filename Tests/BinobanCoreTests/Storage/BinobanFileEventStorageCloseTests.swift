import Foundation
import Testing

@testable import BinobanCore

@Suite("File event storage: close() gives the directory back")
struct BinobanFileEventStorageCloseTests {
    @Test("After close() returns the namespace opens again at once, with every event, the open batch's too")
    func reopenAfterClose() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<3))
            try await storage.closeOpenBatch()
            _ = try await storage.append(TestEvents.events(3..<5))  // left in the open batch
            #expect(throws: BinobanFileStorageError.self) {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
            }

            await storage.close()
            // No retry: the lock was released before close() returned, while the storage is still referenced.
            let reopened = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(reopened.recoveryReport == BinobanStorageRecoveryReport(recoveredBatches: 1, repairedBatches: 1))
            #expect(try await TestEvents.storedIndices(reopened) == Array(0..<5))
        }
    }

    @Test("A closed storage touches no file: every call throws closed, and closing again does nothing")
    func callsAfterClose() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<2))
            try await storage.closeOpenBatch()
            let id = try #require(try await storage.finishedBatches(limit: 1).first)
            let names = try StorageFiles.names(directory)

            await storage.close()
            await storage.close()
            func expectClosed(_ call: () async throws -> Void) async {
                do {
                    try await call()
                    Issue.record("a call of a closed storage returned")
                } catch let error as BinobanFileStorageError {
                    #expect(error.code == .closed, "\(error)")
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            await expectClosed { _ = try await storage.append([TestEvents.event(9)]) }
            await expectClosed { _ = try await storage.closeOpenBatch() }
            await expectClosed { _ = try await storage.finishedBatches(limit: 10) }
            await expectClosed { _ = try await storage.read(id) }
            await expectClosed { try await storage.remove(id) }
            let progress = await storage.appendReportingProgress([TestEvents.event(9)], whenFull: .refuse)
            guard case .failure(let failure) = progress else {
                Issue.record("appendReportingProgress on a closed storage succeeded")
                return
            }
            #expect(failure.storedEventsBeforeFailure == 0)
            #expect((failure.error as? BinobanFileStorageError)?.code == .closed)
            #expect(try StorageFiles.names(directory) == names)
        }
    }
}
