/// What the overlay presenter is asked to do, together with the reporter it answers through.
public struct FalconOverlayRequest: Sendable {
    /// The two presenter operations.
    public enum Operation: Sendable, Hashable {
        /// Present a full-screen modal; answer with ``FalconExecutionReporter/overlayPresented(renderer:)``
        /// or ``FalconExecutionReporter/overlayUnavailable()``.
        case present
        /// Dismiss the modal; answer with ``FalconExecutionReporter/overlayDismissed()`` once it is gone.
        /// A dismissal that arrives while presenting must be queued, never dropped.
        case dismiss
    }

    /// The operation.
    public var operation: Operation
    /// Where to answer.
    public var reporter: FalconExecutionReporter

    /// Creates a request.
    public init(operation: Operation, reporter: FalconExecutionReporter) {
        self.operation = operation
        self.reporter = reporter
    }
}

/// Presents overlay placements (the SDK's "frontmost view controller" lookup on iOS).
///
/// Also reports visibility (1.0 once presented and the app is active) and a dismissal the SDK did not ask for
/// through ``FalconExecutionReporter/overlayDismissedExternally()``.
public protocol FalconOverlayPresenter: Sendable {
    /// Performs one operation. Must not block.
    func perform(_ request: FalconOverlayRequest)
}

/// The default presenter on a platform without UI: there is never anywhere to present, so every overlay
/// fails with ``FalconDiagnosticCode/noPresenter``.
public struct FalconUnavailableOverlayPresenter: FalconOverlayPresenter {
    /// Creates the presenter.
    public init() {}

    /// Answers `present` with ``FalconExecutionReporter/overlayUnavailable()``.
    public func perform(_ request: FalconOverlayRequest) {
        switch request.operation {
        case .present: request.reporter.overlayUnavailable()
        case .dismiss: request.reporter.overlayDismissed()
        }
    }
}
