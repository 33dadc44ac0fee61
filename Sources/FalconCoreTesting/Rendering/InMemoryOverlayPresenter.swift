/// An overlay presenter for tests: presents a renderer it makes on demand, or reports that there is nowhere to
/// present; dismisses at once or when the test says; can simulate an external dismissal.
public final class InMemoryOverlayPresenter: FalconOverlayPresenter {
    /// When a requested dismissal completes.
    public enum DismissalMode: Sendable, Hashable {
        /// Within the `dismiss` request.
        case immediate
        /// When the test calls ``completeDismissal()``.
        case manual
    }

    private struct State {
        var operations: [FalconOverlayRequest.Operation] = []
        var presented: FalconExecutionReporter?
        var pendingDismissal: FalconExecutionReporter?
    }

    private let makeRenderer: @Sendable () -> (any FalconRenderer)?
    private let dismissal: DismissalMode
    private let visibility: Double?
    private let state = LockedValue(State())

    /// Creates a presenter that presents the renderer `makeRenderer` returns (or is unavailable when it returns
    /// `nil`), reports visibility 1.0 once presented when `reportsVisibility`, and dismisses per `dismissal`.
    public convenience init(
        dismissal: DismissalMode = .immediate,
        reportsVisibility: Bool = true,
        makeRenderer: @escaping @Sendable () -> (any FalconRenderer)?
    ) {
        self.init(dismissal: dismissal, visibility: reportsVisibility ? 1 : nil, makeRenderer: makeRenderer)
    }

    /// Creates a presenter that reports `visibility` (if any) right after presenting.
    init(
        dismissal: DismissalMode,
        visibility: Double?,
        makeRenderer: @escaping @Sendable () -> (any FalconRenderer)?
    ) {
        self.makeRenderer = makeRenderer
        self.dismissal = dismissal
        self.visibility = visibility
    }

    /// A presenter that never finds anywhere to present.
    public static func unavailable() -> InMemoryOverlayPresenter {
        InMemoryOverlayPresenter(makeRenderer: { nil })
    }

    /// Presents or dismisses.
    public func perform(_ request: FalconOverlayRequest) {
        state.withLock { $0.operations.append(request.operation) }
        switch request.operation {
        case .present:
            guard let renderer = makeRenderer() else {
                request.reporter.overlayUnavailable()
                return
            }
            state.withLock { $0.presented = request.reporter }
            request.reporter.overlayPresented(renderer: renderer)
            if let visibility { request.reporter.visibility(visibility) }
        case .dismiss:
            switch dismissal {
            case .immediate:
                state.withLock { $0.presented = nil }
                request.reporter.overlayDismissed()
            case .manual:
                state.withLock { $0.pendingDismissal = request.reporter }
            }
        }
    }

    /// Completes a dismissal requested in ``DismissalMode/manual`` mode; `false` when none is pending.
    @discardableResult
    public func completeDismissal() -> Bool {
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

    /// Simulates a dismissal the SDK did not ask for (the system or the user closed the modal); `false` when
    /// nothing is presented.
    @discardableResult
    public func dismissExternally() -> Bool {
        let reporter = state.withLock { state -> FalconExecutionReporter? in
            defer { state.presented = nil }
            return state.presented
        }
        reporter?.overlayDismissedExternally()
        return reporter != nil
    }

    /// Every operation requested, in order.
    public var operations: [FalconOverlayRequest.Operation] { state.withLock { $0.operations } }

    /// Whether a modal is on screen.
    public var isPresenting: Bool { state.withLock { $0.presented != nil } }
}
