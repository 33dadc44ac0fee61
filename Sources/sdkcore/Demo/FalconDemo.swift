import FalconCore
import FalconCoreTesting

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Falcon part of `sdkcore demo`: four placements against the scripted renderer on the real clock.
enum FalconDemo {
    static let loadTimeout: Duration = .milliseconds(300)
    static let layoutId = "APP_NATIVE_ESSENTIAL_0.1"

    struct Scenario: Sendable {
        var title: String
        var placement: Kind
        var script: [ScriptedRenderer.Cue]
        var expected: [FalconTimeline.Entry]
        var expectedBeacons: [FalconDiagnosticCode]

        enum Kind: Sendable {
            case inline
            case overlay
        }
    }

    static let show = FalconTimeline.Entry.callback("onShouldShowLoadingIndicator")
    static let hide = FalconTimeline.Entry.callback("onShouldHideLoadingIndicator")

    static let scenarios: [Scenario] = [
        Scenario(
            title: "inline placement that loads and becomes interactive",
            placement: .inline,
            script: [
                .init(at: .milliseconds(20), .respond(status: 200)),
                .init(at: .milliseconds(30), .finish),
                .init(at: .milliseconds(60), .loaded(height: 180)),
                .init(at: .milliseconds(80), .visibility(0.9)),
            ],
            expected: [show, hide, .callback("onLoad"), .event("placementInteractive")],
            expectedBeacons: []
        ),
        Scenario(
            title: "inline placement that never signals and times out",
            placement: .inline,
            script: [.init(at: .milliseconds(20), .respond(status: 200)), .init(at: .milliseconds(30), .finish)],
            expected: [
                show, .diagnostic(.webviewLoadTimedOut), hide, .callback("onError(placementLoadError)"),
                .event("placementFailure(placementLoadError)"),
            ],
            expectedBeacons: [.webviewLoadTimedOut]
        ),
        Scenario(
            title: "inline placement answered with HTTP 500",
            placement: .inline,
            script: [.init(at: .milliseconds(20), .respond(status: 500))],
            expected: [
                show, .diagnostic(.webviewHTTPError), hide, .callback("onError(placementLoadError)"),
                .event("placementFailure(placementLoadError)"),
            ],
            expectedBeacons: [.webviewHTTPError]
        ),
        Scenario(
            title: "overlay that the web content closes",
            placement: .overlay,
            script: [
                .init(at: .milliseconds(20), .respond(status: 200)),
                .init(at: .milliseconds(40), .loaded(height: 640)),
                .init(at: .milliseconds(150), .close),
            ],
            expected: [show, hide, .callback("onLoad"), .callback("onUnload"), .event("placementCompleted")],
            expectedBeacons: []
        ),
    ]

    /// Runs every scenario in turn and prints its timeline.
    static func run() async -> [DemoResult] {
        print("Falcon demo: \(scenarios.count) placements, scripted renderer, real clock, load timeout 300 ms\n")
        var results: [DemoResult] = []
        for (index, scenario) in scenarios.enumerated() {
            results.append(await run(scenario, number: index + 1))
        }
        return results
    }

    static func run(_ scenario: Scenario, number: Int) async -> DemoResult {
        let clock = FalconSystemClock()
        let timeline = FalconTimeline(clock: clock)
        let renderer = ScriptedRenderer(clock: clock, script: scenario.script)
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                clock: clock,
                idSource: SequentialFalconIDSource(prefix: "demo"),
                beaconTransport: timeline,
                logHandler: InMemoryLogHandler(),
                overlayPresenter: InMemoryOverlayPresenter { renderer },
                loadTimeout: loadTimeout
            )
        )
        client.diagnosticsDelegate = timeline
        client.initSdk(
            apiKey: "DEMO-KEY", config: FalconConfig(diagnosticsURL: URL(string: "https://beacons.invalid/")))
        client.events(layoutId: layoutId, handler: timeline.eventHandler())
        let callbacks = timeline.callbacks()
        client.execute(
            attributes: [
                "user_details": ["email": "jane+demo@example.com", "first_name": "Jane", "last_name": "Smith"],
                "placement_details": ["layout_id": .string(layoutId), "view": "ORDER_STATUS"],
            ],
            placement: scenario.placement == .inline ? .inline(renderer) : .overlay,
            onLoad: callbacks.onLoad,
            onUnload: callbacks.onUnload,
            onError: callbacks.onError,
            onShouldShowLoadingIndicator: callbacks.onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: callbacks.onShouldHideLoadingIndicator
        )
        // Wait (real time) until the expected number of entries arrived, or two seconds passed.
        let deadline = ContinuousClock.now + .seconds(2)
        while timeline.entries(excludingBeacons: true).count < scenario.expected.count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        // Anything unexpected that arrives late would show up in this grace period.
        try? await Task.sleep(for: .milliseconds(100))
        await client.waitForPendingBeacons()

        let matched =
            timeline.entries(excludingBeacons: true) == scenario.expected
            && timeline.beaconCodes == scenario.expectedBeacons
        print("[\(number)] \(scenario.title)")
        for (time, entry) in timeline.timedEntries {
            print("    +\(format(time)) \(entry)")
        }
        for request in timeline.beaconRequests {
            print("    beacon body: \(String(decoding: request.body, as: UTF8.self))")
        }
        print("    \(matched ? "matched" : "MISMATCH, expected: \(scenario.expected.map(\.description))")")
        print("")
        return DemoResult(title: scenario.title, matched: matched)
    }

    /// `0.061s` with millisecond precision.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }
}
