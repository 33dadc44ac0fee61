import FalconCoreTesting
import Foundation
import Testing

/// The examples of `Docs/Testing.md` (Falcon part), compiled and run with every `swift test`. Each test body
/// is the guide's code block; change both together.
@Suite("Docs/Testing.md: FalconCoreTesting examples")
struct FalconTestingGuideSnippetTests {
    @Test("A placement that never answers times out after 15 virtual seconds")
    func loadTimeout() {
        let rig = FalconTestRig()
        rig.client.initSdk(apiKey: "KEY")
        rig.client.events(layoutId: "L", handler: rig.timeline.eventHandler())
        let silent = rig.renderer([])  // an empty script: the web view never reports anything

        rig.execute(["placement_details": ["layout_id": "L", "view": "ORDER_STATUS"]], placement: .inline(silent))
        rig.clock.advance(by: .seconds(14))
        #expect(rig.timeline.entries(excludingBeacons: true) == [.callback("onShouldShowLoadingIndicator")])

        rig.clock.advance(by: .seconds(1))
        #expect(
            rig.timeline.entries(excludingBeacons: true) == [
                .callback("onShouldShowLoadingIndicator"),
                .diagnostic(.webviewLoadTimedOut),
                .callback("onShouldHideLoadingIndicator"),
                .callback("onError(placementLoadError)"),
                .event("placementFailure(placementLoadError)"),
            ])
        #expect(silent.commands.contains(.teardown))
    }

    @Test("An overlay closed by its content unloads and completes once the presenter has dismissed it")
    func overlayClose() {
        let executor = ManualFalconExecutor()
        let clock = ManualFalconClock(executor: executor)  // advancing the clock also runs the executor's jobs
        let presenter = InMemoryOverlayPresenter(dismissal: .manual) {
            ScriptedRenderer(
                clock: clock,
                script: [
                    .init(at: .milliseconds(100), .loaded(height: nil)),
                    .init(at: .seconds(3), .close),
                ])
        }
        let timeline = FalconTimeline(clock: clock)
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor, clock: clock, beaconTransport: timeline,
                logHandler: InMemoryLogHandler(), overlayPresenter: presenter))
        client.diagnosticsDelegate = timeline
        client.initSdk(apiKey: "KEY")
        client.events(layoutId: "L", handler: timeline.eventHandler())
        let callbacks = timeline.callbacks()

        client.execute(
            attributes: ["placement_details": ["layout_id": "L", "view": "ORDER_STATUS"]],
            placement: .overlay,
            onLoad: callbacks.onLoad,
            onUnload: callbacks.onUnload,
            onError: callbacks.onError
        )
        clock.advance(by: .seconds(4))
        // The content closed at 3 s, but the overlay is still on screen: no onUnload yet.
        #expect(timeline.entries == [.callback("onLoad"), .event("placementInteractive")])
        #expect(presenter.isPresenting)

        presenter.completeDismissal()
        executor.runAll()
        #expect(timeline.entries.suffix(2) == [.callback("onUnload"), .event("placementCompleted")])
    }

    @Test("A scenario document runs through the kit's runner")
    func scenario() async throws {
        let document = """
            {
              "format": 1, "core": "falcon", "name": "http-404-fails",
              "description": "A main-frame HTTP 404 fails the load.",
              "steps": [
                {"at": 0, "input": {"type": "initSdk", "apiKey": "KEY"}},
                {"at": 0, "input": {"type": "execute", "placement": "inline", "surface": "main",
                                    "attributes": {"placement_details": {"view": "ORDER_STATUS"}}}},
                {"at": 100, "input": {"type": "navigationResponse", "surface": "main", "status": 404}}
              ],
              "expect": [
                {"type": "callback", "name": "onShouldShowLoadingIndicator", "at": 0},
                {"type": "load", "surface": "main", "at": 0},
                {"type": "diagnostic", "code": "webviewHTTPError", "placement": "ORDER_STATUS", "at": 100},
                {"type": "beacon", "body": {"sdkv": "$SDK_VERSION", "code": "webviewHTTPError",
                  "placement": "ORDER_STATUS", "layoutId": null, "platform": "test", "ts": 1783512000100}},
                {"type": "stop", "surface": "main", "at": 100},
                {"type": "teardown", "surface": "main", "at": 100},
                {"type": "callback", "name": "onShouldHideLoadingIndicator", "at": 100},
                {"type": "callback", "name": "onError", "error": "placementLoadError", "at": 100}
              ]
            }
            """
        let scenario = try FalconScenarioDecoder.decode(Data(document.utf8))
        let result = await FalconScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.report)")

        // A wrong expectation fails with a readable report instead of passing quietly.
        var wrong = scenario
        wrong.expectations.removeLast()
        let failed = await FalconScenarioRunner.run(wrong)
        #expect(!failed.passed)
        #expect(failed.report.contains("onError"))
    }
}
