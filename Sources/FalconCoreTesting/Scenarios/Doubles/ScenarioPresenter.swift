/// The overlay presenter of a scenario: records `present` and `dismiss` as outputs and otherwise behaves as an
/// ``InMemoryOverlayPresenter`` that presents a ``ScenarioSurface`` named `overlay` while it is available.
final class ScenarioPresenter: FalconOverlayPresenter {
    private let recorder: ScenarioRecorder
    private let available: LockedValue<Bool>
    private let presenter: InMemoryOverlayPresenter

    init(
        recorder: ScenarioRecorder,
        configuration: FalconScenario.Configuration,
        makeSurface: @escaping @Sendable () -> ScenarioSurface
    ) {
        let available = LockedValue(configuration.presenterAvailable)
        self.recorder = recorder
        self.available = available
        self.presenter = InMemoryOverlayPresenter(
            dismissal: configuration.dismissesImmediately ? .immediate : .manual,
            visibility: configuration.overlayVisibility,
            makeRenderer: { available.withLock { $0 } ? makeSurface() : nil }
        )
    }

    /// Whether later `present` requests find somewhere to present.
    func setAvailable(_ available: Bool) {
        self.available.withLock { $0 = available }
    }

    func perform(_ request: FalconOverlayRequest) {
        switch request.operation {
        case .present: recorder.record("present")
        case .dismiss: recorder.record("dismiss")
        }
        presenter.perform(request)
    }

    /// Completes a pending dismissal; `false` when none is pending.
    func completeDismissal() -> Bool { presenter.completeDismissal() }

    /// Dismisses the presented modal without the SDK asking; `false` when nothing is presented.
    func dismissExternally() -> Bool { presenter.dismissExternally() }
}
