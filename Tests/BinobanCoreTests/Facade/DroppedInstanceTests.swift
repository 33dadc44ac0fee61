import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("An instance the host releases without a shutdown")
struct DroppedInstanceTests {
    /// An instance on `directory` that keeps its events until it is flushed (no count or interval upload).
    private static func instance(
        on directory: URL, transport: ScriptedTransport, reports: ReportRecorder
    ) -> Binoban {
        BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SRC") { config in
            config.apiHost = "api.binoban.io"
            config.storageDirectory = directory
            config.transport = transport
            config.errorHandler = reports.handler
            config.flushAt = 1_000
            config.flushInterval = 3_600
        }
    }

    @Test("stores what it accepted, uploads nothing more, ends its thread and gives its directory back")
    func releasedWithoutShutdown() async throws {
        try await withTemporaryDirectory { directory in
            let transport = ScriptedTransport()
            let firstReports = ReportRecorder()
            weak var released: Binoban?
            let thread: LoopThread
            do {
                let binoban = Self.instance(on: directory, transport: transport, reports: firstReports)
                thread = try #require(binoban.runtime?.driver as? PipelineLoop).thread
                for index in 0..<5 { binoban.track(name: "e\(index)") }
                released = binoban
            }
            // Nothing but the host held the facade: it is gone the moment the host let go.
            #expect(released == nil)
            await thread.waitUntilExited()
            #expect(transport.requests.isEmpty)
            #expect(!firstReports.contains(.storage))

            // The directory is free: the next instance takes it (no fallback to memory) and finds every event.
            let reports = ReportRecorder()
            let next = Self.instance(on: directory, transport: transport, reports: reports)
            #expect(next.isStorageDurable)
            #expect(await next.flushAndWait().outcome == .completed)
            #expect(next.statistics.recoveredEvents == 5)
            #expect(try transport.uploadedEvents().map(\.event) == ["e0", "e1", "e2", "e3", "e4"])
            _ = await next.shutdown(gracePeriod: .seconds(5))
            #expect(!reports.contains(.storage), "\(reports.all)")
            #expect(next.statistics.storageFallbacks == 0)
        }
    }

    @Test("released while its upload is out: the loop does not wait for the answer, and the batch stays stored")
    func releasedDuringUpload() async throws {
        try await withTemporaryDirectory { directory in
            let held = HeldTransport()
            let thread: LoopThread
            do {
                let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SRC") { config in
                    config.apiHost = "api.binoban.io"
                    config.storageDirectory = directory
                    config.transport = held
                    config.flushInterval = 3_600
                }
                thread = try #require(binoban.runtime?.driver as? PipelineLoop).thread
                for index in 0..<3 { binoban.track(name: "e\(index)") }
                binoban.flush()
                await held.waitUntilHolding()
            }
            await thread.waitUntilExited()

            let transport = ScriptedTransport()
            let reports = ReportRecorder()
            let next = Self.instance(on: directory, transport: transport, reports: reports)
            #expect(await next.flushAndWait().outcome == .completed)
            #expect(next.statistics.recoveredEvents == 3)
            #expect(try transport.uploadedEvents().map(\.event) == ["e0", "e1", "e2"])
            _ = await next.shutdown(gracePeriod: .seconds(5))
            #expect(!reports.contains(.storage), "\(reports.all)")
            held.open()
        }
    }
}
