/// The overlay presenter of a scenario: records `present` and `dismiss`, presents a ``ScenarioSurface``
/// named `overlay` (or is unavailable), and completes dismissals at once or when a step says so.
final class ScenarioPresenter: FalconOverlayPresenter {
    private struct State {
        var available: Bool
        var presented: FalconExecutionReporter?
        var pendingDismissal: FalconExecutionReporter?
    }

    private let recorder: ScenarioRecorder
    private let configuration: FalconScenario.Configuration
    private let makeSurface: @Sendable () -> ScenarioSurface
    private let state: LockedValue<State>

    init(
        recorder: ScenarioRecorder,
        configuration: FalconScenario.Configuration,
        makeSurface: @escaping @Sendable () -> ScenarioSurface
    ) {
        self.recorder = recorder
        self.configuration = configuration
        self.makeSurface = makeSurface
        self.state = LockedValue(State(available: configuration.presenterAvailable))
    }

    /// Whether later `present` requests find somewhere to present.
    func setAvailable(_ available: Bool) {
        state.withLock { $0.available = available }
    }

    func perform(_ request: FalconOverlayRequest) {
        switch request.operation {
        case .present:
            recorder.record("present")
            guard state.withLock({ $0.available }) else {
                request.reporter.overlayUnavailable()
                return
            }
            state.withLock { $0.presented = request.reporter }
            request.reporter.overlayPresented(renderer: makeSurface())
            if let fraction = configuration.overlayVisibility { request.reporter.visibility(fraction) }
        case .dismiss:
            recorder.record("dismiss")
            if configuration.dismissesImmediately {
                state.withLock { $0.presented = nil }
                request.reporter.overlayDismissed()
            } else {
                state.withLock { $0.pendingDismissal = request.reporter }
            }
        }
    }

    /// Completes a pending dismissal; `false` when none is pending.
    func completeDismissal() -> Bool {
        let reporter = state.withLock { state -> FalconExecutionReporter? in
            defer {
                state.pendingDismissal = nil
                state.presented = nil
            }
            return state.pendingDismissal
        }
        reporter?.overlayDismissed()
        return reporter != nil
    }

    /// Dismisses the presented modal without the SDK asking; `false` when nothing is presented.
    func dismissExternally() -> Bool {
        let reporter = state.withLock { state -> FalconExecutionReporter? in
            defer { state.presented = nil }
            return state.presented
        }
        reporter?.overlayDismissedExternally()
        return reporter != nil
    }
}
