import FalconCoreTesting
import Foundation
import Testing

/// Falcon's statistics snapshot and metrics observer: executions by outcome, diagnostics by code, beacons.
@Suite("Falcon metrics")
struct FalconMetricsTests {
    @Test("executions by outcome, diagnostics by code and beacons reach the snapshot and the observer alike")
    func countsMatch() async {
        let executor = ManualFalconExecutor()
        let clock = ManualFalconClock(executor: executor)
        let metrics = InMemoryMetricsObserver()
        let timeline = FalconTimeline(clock: clock)
        func client(beacons: Bool) -> FalconClient {
            FalconClient(
                dependencies: FalconClientDependencies(
                    executor: executor, clock: clock, idSource: SequentialFalconIDSource(),
                    beaconTransport: beacons ? timeline : nil, logHandler: nil,
                    overlayPresenter: InMemoryOverlayPresenter.unavailable(), metricsObserver: metrics))
        }
        let attributes: JSONValue = ["placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "V"]]
        let withBeacons = client(beacons: true)
        withBeacons.execute(attributes: attributes, placement: .overlay)  // initNotCalled
        withBeacons.initSdk(apiKey: "KEY")
        let loads = ScriptedRenderer(clock: clock, script: [.init(at: .milliseconds(5), .loaded(height: 10))])
        withBeacons.execute(attributes: attributes, placement: .inline(loads))
        let fails = ScriptedRenderer(clock: clock, script: [.init(at: .milliseconds(5), .respond(status: 500))])
        withBeacons.execute(attributes: attributes, placement: .inline(fails))
        let withoutBeacons = client(beacons: false)
        withoutBeacons.initSdk(apiKey: "KEY")
        withoutBeacons.execute(attributes: attributes, placement: .overlay)  // no presenter: fails, beacon dropped
        clock.advance(by: .seconds(1))
        executor.runAll()
        await withBeacons.waitForPendingBeacons()

        let first = withBeacons.statistics
        #expect(first.executionsStarted == 3)
        #expect(first.executionsLoaded == 1)
        #expect(first.executionsFailedInitNotCalled == 1)
        #expect(first.executionsFailedPlacementLoad == 1)
        #expect(first.diagnostics[.initNotCalled] == 1 && first.diagnostics[.webviewHTTPError] == 1)
        #expect(first.beaconsSent == 1 && first.beaconsDropped == 0)
        let second = withoutBeacons.statistics
        #expect(second.executionsFailedPlacementLoad == 1 && second.beaconsDropped == 1)

        #expect(metrics.counter("falcon_executions_started_total") == 4)
        #expect(metrics.counter("falcon_executions_total", ["outcome": "loaded"]) == 1)
        #expect(metrics.counter("falcon_executions_total", ["outcome": "initNotCalled"]) == 1)
        #expect(metrics.counter("falcon_executions_total", ["outcome": "placementLoadError"]) == 2)
        #expect(metrics.counter("falcon_beacons_total", ["outcome": "sent"]) == 1)
        #expect(metrics.counter("falcon_beacons_total", ["outcome": "dropped"]) == 1)
        #expect(metrics.counter("falcon_diagnostics_total", ["code": "webviewHTTPError"]) == 1)
        #expect(Set(metrics.keys.flatMap(\.dimensions.keys)).isSubset(of: ["outcome", "code"]))
    }
}
