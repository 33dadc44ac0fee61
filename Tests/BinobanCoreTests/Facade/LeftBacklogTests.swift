import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// What earlier runs left in the storage directory is in the statistics from the moment the storage is open,
/// before anything is uploaded, and leaves them like this run's events.
@Suite("An instance counts the backlog earlier runs left")
struct LeftBacklogTests {
    /// Leaves `count` events of 100 bytes in `directory` (namespace `SRC`): what a previous run stored and did not
    /// upload, half in a finished batch, half in an open one (a killed process's last batch), and closes the storage.
    static func leave(_ count: Int, in directory: URL) async throws {
        let storage = try BinobanFileEventStorage(directory: directory, namespace: "SRC")
        _ = try await storage.append(TestEvents.events(0..<(count / 2)))
        try await storage.closeOpenBatch()
        _ = try await storage.append(TestEvents.events((count / 2)..<count))
        // Given back now: the actor's deallocation can come a moment after this call returns, and an instance
        // created on the directory meanwhile started in memory (recoveredEvents 0 once, in a full run).
        await storage.close()
    }

    static func configuration(_ directory: URL, _ transport: ScriptedTransport) -> Configuration {
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SRC")
        configuration.apiHost = "api.binoban.io"
        configuration.storageDirectory = directory
        configuration.transport = transport
        configuration.clock = ManualClock()
        configuration.uploadMaxRetries = 0
        return configuration
    }

    @Test("Counted in recoveredEvents, queuedEvents and queuedBytes once the storage is open, before any upload")
    func countedBeforeUpload() async throws {
        try await withTemporaryDirectory { directory in
            try await Self.leave(30, in: directory)
            // The ingest fails: nothing leaves the backlog.
            let transport = ScriptedTransport(defaultAnswer: 503)
            let binoban = Binoban.create(configuration: Self.configuration(directory, transport))
            await binoban.waitUntilQuiet()
            let statistics = binoban.statistics
            #expect(statistics.recoveredEvents == 30)
            #expect(statistics.queuedEvents == 30)
            // The events' bytes joined by commas, as they are uploaded.
            #expect(statistics.queuedBytes == 30 * 100 + 28)
            #expect(statistics.uploadedEvents == 0)
            #expect(statistics.oldestQueuedEventAge != nil)
            #expect(binoban.isStorageDurable)
            _ = await binoban.shutdown(gracePeriod: .zero)
        }
    }

    @Test("Uploaded, they leave the queue: accepted + recovered = queued + uploaded + dropped, queue at zero")
    func booksClose() async throws {
        try await withTemporaryDirectory { directory in
            try await Self.leave(30, in: directory)
            let transport = ScriptedTransport()
            let binoban = Binoban.create(configuration: Self.configuration(directory, transport))
            for index in 0..<10 { binoban.track(name: "new-\(index)") }
            #expect(await binoban.flushAndWait().outcome == .completed)
            let statistics = binoban.statistics
            #expect(statistics.recoveredEvents == 30)
            #expect(statistics.uploadedEvents == 40)
            #expect(statistics.queuedEvents == 0)
            #expect(statistics.queuedBytes == 0)
            #expect(
                statistics.acceptedEvents + statistics.recoveredEvents
                    == statistics.queuedEvents + statistics.uploadedEvents + statistics.dropped.total)
            _ = await binoban.shutdown(gracePeriod: .zero)
        }
    }
}
