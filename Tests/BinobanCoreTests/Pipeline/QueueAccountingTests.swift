import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Queued events through the loop, on real files", .timeLimit(.minutes(10)))
struct QueueAccountingTests {
    @Test("A previous run's batch uploaded while this run's events are stored leaves them queued, to the byte")
    func previousRunBatchLeavesThisRunQueued() async throws {
        try await withTemporaryDirectory { directory in
            // A batch of 10 events the instance did not store, as a previous run leaves it.
            let files = try BinobanFileEventStorage(directory: directory, namespace: "src")
            let old = (0..<10).map { Data(#"{"type":"track","event":"old","properties":{"i":\#($0)}}"#.utf8) }
            _ = try await files.append(old, whenFull: .refuse)
            try await files.closeOpenBatch()

            let ingest = HeldTransport()
            let storage = ObservableEventStorage(files)
            let second = PipelineHarness {
                $0.storage = storage
                $0.transport = ingest
                $0.flushAt = 1_000
            }
            let binoban = second.binoban
            // The startup pass sends the old batch; the ingest holds it while this run stores 3 events.
            await ingest.waitUntilHolding()
            for index in 0..<3 { binoban.track(name: "new", properties: ["i": .int(index)]) }
            try await storage.waitForStoredEvents(count: 3)
            ingest.open()
            await binoban.waitUntilQuiet()
            var statistics = binoban.statistics
            #expect(statistics.uploadedEvents == 10)
            #expect(statistics.queuedEvents == 3)
            let bytesOfThree = statistics.queuedBytes
            #expect(bytesOfThree > 3 * 100)

            await binoban.flushAndWait()
            await binoban.waitUntilQuiet()
            statistics = binoban.statistics
            #expect(statistics.uploadedEvents == 13)
            #expect(statistics.queuedEvents == 0)
            #expect(statistics.queuedBytes == 0)
            #expect(statistics.oldestQueuedEventAge == nil)
            _ = await binoban.shutdown(gracePeriod: .zero)
        }
    }
}
