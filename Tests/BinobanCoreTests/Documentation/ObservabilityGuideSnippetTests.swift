import BinobanCore
import Foundation
import Testing

/// Docs/Observability.md's example, kept here so that `swift test` checks what it shows. It once built a
/// disabled instance (no `apiHost`), whose statistics and metrics stay empty. If the guide changes, change it
/// here too (and the other way round); .ci/snippets.sh runs the guide's block with the same checks.
@Suite("Observability guide: the example")
struct ObservabilityGuideSnippetTests {
    @Test("the example's instance is enabled, accepts its event and reports it through both hooks")
    func exampleBuildsAWorkingInstance() async {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("binoban-observability-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // Docs/Observability.md, verbatim from here, except the line marked "differs".
        let logs = InMemoryLogHandler()
        let metrics = InMemoryMetricsObserver()
        var config = Configuration(apiKey: "WRITE_KEY", sourceIdentifier: "orders-service")
        config.apiHost = "api.binoban.io"
        config.logHandler = logs
        config.metricsObserver = metrics
        // differs: not in the guide, which keeps the default directory; a test must not write there.
        config.storageDirectory = directory
        config.transport = nil  // this example uploads nothing; leave the default to upload
        let binoban = Binoban.create(configuration: config)
        binoban.track(name: "started")
        await binoban.flushAndWait()
        print(binoban.statistics.acceptedEvents, metrics.counterTotal("binoban_events_accepted_total"))
        print(logs.records.map(\.message))
        // The guide ends here.

        #expect(binoban.isOperational)
        #expect(binoban.enabled)
        #expect(binoban.statistics.acceptedEvents == 1)
        #expect(metrics.counterTotal("binoban_events_accepted_total") == 1)
        #expect(logs.records.contains { $0.metadata["kind"] == "transportMissing" })
        _ = await binoban.shutdown(gracePeriod: .zero)
    }
}
