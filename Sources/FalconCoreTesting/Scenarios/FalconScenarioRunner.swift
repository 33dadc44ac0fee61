#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Replays a ``FalconScenario`` against a real `FalconClient` wired to the test kit's manual clock and
/// executor, recording surfaces, a recording presenter and a recording beacon transport, then compares what
/// was observed with the scenario's expectations.
///
/// Deterministic: no real time passes. Before each step the clock advances to the step's `at` (firing every
/// timer due by then, in order, and running the executor after each); the input is applied; due timers and
/// executor jobs run again. After the last step the runner waits for in-flight beacons and places each
/// beacon right after the diagnostic it reports.
///
/// ```swift
/// let result = await FalconScenarioRunner.run(scenario)
/// #expect(result.passed, "\(result.report)")
/// ```
public enum FalconScenarioRunner: Sendable {
    /// Runs `scenario` and compares its outputs with the expectations.
    public static func run(_ scenario: FalconScenario) async -> FalconScenarioResult {
        let run = ScenarioRun(configuration: scenario.configuration)
        var problems: [String] = []
        for (index, step) in scenario.steps.enumerated() {
            run.clock.advance(to: .milliseconds(step.at))
            if let problem = run.apply(step.input) {
                problems.append("steps[\(index)] (at \(step.at) ms): \(problem)")
            }
            run.clock.runDueTimers()
        }
        await run.client.waitForPendingBeacons()
        let observed = run.recorder.mergedOutputs()
        return FalconScenarioResult(
            name: scenario.name,
            expected: scenario.expectations,
            observed: observed,
            problems: problems
        )
    }
}

/// The rig of one scenario run.
final class ScenarioRun: Sendable {
    let recorder: ScenarioRecorder
    let executor = ManualFalconExecutor()
    let clock: ManualFalconClock
    let client: FalconClient
    private let presenter: ScenarioPresenter
    private let surfaces = LockedValue([String: ScenarioSurface]())
    private let executions = LockedValue(0)

    init(configuration: FalconScenario.Configuration) {
        let surfaces = self.surfaces
        let clock = ManualFalconClock(
            executor: executor,
            epoch: Date(timeIntervalSince1970: Double(configuration.wallClockStartMilliseconds) / 1000)
        )
        let recorder = ScenarioRecorder(clock: clock)
        self.clock = clock
        self.recorder = recorder
        presenter = ScenarioPresenter(recorder: recorder, configuration: configuration) {
            let surface = ScenarioSurface(name: "overlay", recorder: recorder)
            surfaces.withLock { $0["overlay"] = surface }
            return surface
        }
        let idSource: any FalconIDSource =
            configuration.sessionId.map { FixedFalconIDSource($0) }
            ?? SequentialFalconIDSource(prefix: configuration.sessionIdPrefix)
        client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor,
                clock: clock,
                idSource: idSource,
                beaconTransport: recorder,
                logHandler: InMemoryLogHandler(),
                overlayPresenter: presenter,
                loadTimeout: configuration.loadTimeout,
                platform: configuration.platform
            )
        )
        client.diagnosticsDelegate = recorder
    }

    /// Applies one input; returns a problem when the step cannot be applied.
    func apply(_ input: FalconScenario.Input) -> String? {
        switch input {
        case .initSdk(let apiKey, let config):
            client.initSdk(apiKey: apiKey, config: config)
        case .execute(let execute):
            self.execute(execute)
        case .navigationResponse(let surface, let navigationID, let isMainFrame, let status):
            return report(surface) { reporter, lastID in
                reporter.navigationResponse(
                    navigationID: navigationID ?? lastID, isMainFrame: isMainFrame, status: status)
            }
        case .navigationFinished(let surface, let navigationID):
            return report(surface) { reporter, lastID in
                reporter.navigationFinished(navigationID: navigationID ?? lastID)
            }
        case .navigationFailed(let surface, let navigationID, let phase, let isCancelled, let errorCode):
            return report(surface) { reporter, lastID in
                reporter.navigationFailed(
                    navigationID: navigationID ?? lastID, phase: phase, isCancelled: isCancelled, errorCode: errorCode)
            }
        case .bridge(let surface, let message):
            return report(surface) { reporter, _ in
                switch message {
                case .value(let value): reporter.bridgeMessage(value)
                case .json(let text): reporter.bridgeMessage(json: text)
                }
            }
        case .visibility(let surface, let fraction):
            return report(surface) { reporter, _ in reporter.visibility(fraction) }
        case .touch(let surface):
            return report(surface) { reporter, _ in reporter.userTouch() }
        case .terminate(let surface):
            return report(surface) { reporter, _ in reporter.rendererTerminated() }
        case .hostTeardown(let surface):
            return report(surface) { reporter, _ in reporter.hostTeardown() }
        case .completeDismissal:
            if !presenter.completeDismissal() { return "completeDismissal: no dismissal is pending" }
        case .dismissExternally:
            if !presenter.dismissExternally() { return "dismissExternally: no overlay is presented" }
        case .presenterAvailability(let available):
            presenter.setAvailable(available)
        case .events(let layoutId):
            let recorder = self.recorder
            client.events(layoutId: layoutId) { event in
                var fields: [String: JSONValue] = ["layoutId": .string(layoutId)]
                switch event {
                case .placementInteractive: fields["name"] = "placementInteractive"
                case .placementCompleted: fields["name"] = "placementCompleted"
                case .placementFailure(let error):
                    fields["name"] = "placementFailure"
                    fields["error"] = .string(Self.errorName(error))
                }
                recorder.record("event", fields)
            }
        case .removeEventsHandler(let layoutId):
            client.removeEventsHandler(layoutId: layoutId)
        case .advance:
            break
        }
        return nil
    }

    private func execute(_ execute: FalconScenario.Execute) {
        let number = executions.withLock {
            $0 += 1
            return $0
        }
        let recorder = self.recorder
        let execution = JSONValue.int(number)
        let callback: @Sendable (String) -> Void = { name in
            recorder.record("callback", ["name": .string(name), "execution": execution])
        }
        let placement: FalconPlacement
        switch execute.placement {
        case .overlay:
            placement = .overlay
        case .inline(let name):
            let surface = surfaces.withLock { surfaces in
                if let existing = surfaces[name] { return existing }
                let created = ScenarioSurface(name: name, recorder: recorder)
                surfaces[name] = created
                return created
            }
            placement = .inline(surface)
        }
        client.execute(
            attributes: execute.attributes,
            placement: placement,
            style: execute.style,
            onLoad: { callback("onLoad") },
            onUnload: { callback("onUnload") },
            onError: { error in
                recorder.record(
                    "callback",
                    ["name": "onError", "error": .string(Self.errorName(error)), "execution": execution])
            },
            onShouldShowLoadingIndicator: { callback("onShouldShowLoadingIndicator") },
            onShouldHideLoadingIndicator: { callback("onShouldHideLoadingIndicator") },
            isSandbox: execute.isSandbox
        )
    }

    private func report(
        _ name: String,
        _ body: (FalconExecutionReporter, Int) -> Void
    ) -> String? {
        guard let surface = surfaces.withLock({ $0[name] }) else {
            return "no surface named \"\(name)\" (inline surfaces are created by execute; the overlay's by present)"
        }
        guard let (reporter, navigationID) = surface.lastLoad else {
            return "surface \"\(name)\" has not received a load to report on"
        }
        body(reporter, navigationID)
        return nil
    }

    static func errorName(_ error: any Error) -> String {
        switch error as? FalconError {
        case .initNotCalled?: "initNotCalled"
        case .placementLoadError?: "placementLoadError"
        case nil: "\(error)"
        }
    }
}
