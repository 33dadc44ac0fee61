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
    package init(operation: Operation, reporter: FalconExecutionReporter) {
        self.operation = operation
        self.reporter = reporter
    }
}

/// Presents overlay placements (the SDK's "frontmost view controller" lookup on iOS).
///
/// Also reports visibility (1.0 once presented and the app is active) and a dismissal the SDK did not ask for
/// through ``FalconExecutionReporter/overlayDismissedExternally()``.
///
/// **Delivery.** Operations are delivered on the client's ``FalconExecutor`` (the main queue on Apple
/// platforms, where view controllers must be presented), in one FIFO with the execution's callbacks and
/// renderer commands: `present` arrives after `onShouldShowLoadingIndicator`, never inside `execute`. Every
/// operation the SDK emitted is delivered, so a `dismiss` queued behind a `present` of an execution that was
/// cancelled meanwhile still arrives and the modal does not stay on screen.
public protocol FalconOverlayPresenter: Sendable {
    /// Performs one operation, on the executor. Must not block; may answer at once (from inside this call)
    /// or later, on any thread.
    func perform(_ request: FalconOverlayRequest)
}

/// The default presenter on a platform without UI: there is never anywhere to present, so every overlay
/// fails with ``FalconDiagnosticCode/noPresenter``.
@usableFromInline package struct FalconUnavailableOverlayPresenter: FalconOverlayPresenter {
    /// Creates the presenter.
    @usableFromInline package init() {}

    /// Answers `present` with ``FalconExecutionReporter/overlayUnavailable()``.
    @usableFromInline package func perform(_ request: FalconOverlayRequest) {
        switch request.operation {
        case .present: request.reporter.overlayUnavailable()
        case .dismiss: request.reporter.overlayDismissed()
        }
    }
}
