import BinobanCore
import BinobanCoreTesting
import Testing

/// Where a ported iOS app would behave differently from the seed: the default transport and the public surface.
@Suite("Binoban seed parity: default transport, server extension")
struct BinobanSeedParityTests {
    @Test("The platform default transport is URLSession on Apple platforms, libcurl on Linux")
    func platformDefaultTransport() {
        let configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SOURCE")
        #if canImport(Darwin)
        #expect(Configuration.platformDefaultTransport() != nil)
        #expect(configuration.transport != nil)
        #elseif os(Linux)
        #expect(Configuration.platformDefaultTransport() is CurlEventTransport)
        #expect(configuration.transport is CurlEventTransport)
        #endif
    }

    @Test("Without a transport, creation reports once, at warning level, with the line that fixes it")
    func missingTransportReportedOnceAtCreation() async {
        let harness = PipelineHarness { $0.transport = nil }
        // Before any event or flush: the report came from create.
        let atCreation = harness.reports.all.filter { $0.kind == .transportMissing }
        #expect(atCreation.count == 1)
        #expect(atCreation.first?.severity == .warning)
        #if os(Linux)
        let fix = "config.transport = CurlEventTransport()"
        #else
        let fix = "config.transport = URLSessionEventTransport()  // import BinobanCoreURLSession"
        #endif
        #expect(atCreation.first?.message.contains(fix) == true)

        harness.binoban.track(name: "a")
        for _ in 0..<3 { #expect(await harness.binoban.flushAndWait().outcome == .keptForRetry) }
        harness.clock.advance(by: .seconds(60))
        #expect(await harness.binoban.flushAndWait().outcome == .keptForRetry)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
        let all = harness.reports.all.filter { $0.kind == .transportMissing }
        #expect(all.count == 1 && all.first?.suppressedCount == 0)
    }

    @Test("With a transport nothing is said about transports")
    func transportPresent() async {
        let harness = PipelineHarness()
        await harness.settle()
        #expect(!harness.reports.all.contains { $0.kind == .transportMissing })
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Severity follows the kind")
    func severities() {
        #expect(BinobanError(kind: .transportMissing, message: "m").severity == .warning)
        #expect(BinobanError(kind: .configurationAdjusted, message: "m").severity == .warning)
        #expect(BinobanError(kind: .uploadFailed, message: "m").severity == .error)
        #expect(BinobanError(kind: .invalidConfiguration, message: "m").severity == .error)
    }

    @Test("Screen views live in the server extension: a screen event with the title as its name")
    func serverScreen() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        harness.binoban.server.screen(title: "Checkout", properties: ["step": 2])
        let loose: [String: Any] = ["from": "menu"]
        harness.binoban.server.screen(title: "Home", properties: loose)
        _ = await harness.binoban.flushAndWait()
        let uploaded = try harness.uploadedEvents()
        #expect(uploaded.map(\.type) == ["screen", "screen"])
        #expect(uploaded.map(\.name) == ["Checkout", "Home"])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }
}
