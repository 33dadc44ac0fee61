#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One Falcon SDK instance: configuration, events handlers, the diagnostics delegate and the driver of every
/// execution.
///
/// The static ``Falcon`` facade delegates to ``Falcon/shared``. Tests and server apps create their own
/// clients with injected ``FalconClientDependencies``.
///
/// The client forwards every call to its driver, which runs the registry of executions: nothing is decided
/// here. Every host-facing output (callback, event, delegate call, renderer command, presenter operation) is
/// delivered on the executor in the order the executions' machines emit it, so none runs inside `execute` and
/// the host sees `onShouldShowLoadingIndicator` before `load`.
public final class FalconClient: Sendable {
    /// The edges this client uses.
    package let dependencies: FalconClientDependencies

    private let driver: FalconDriver

    /// Creates a client; nothing starts until `execute` is called.
    public init(dependencies: FalconClientDependencies = FalconClientDependencies()) {
        self.dependencies = dependencies
        driver = FalconDriver(dependencies: dependencies)
    }

    /// Cumulative counts since the client was created: executions by outcome, diagnostics by code, beacons.
    public var statistics: FalconStatistics { driver.core.withLock { $0.registry.statistics } }

    // MARK: Configuration

    /// Stores the API key and configuration for executions started from now on.
    public func initSdk(apiKey: String, config: FalconConfig = FalconConfig()) {
        driver.configure(apiKey: apiKey, config: config)
    }

    /// Whether ``initSdk(apiKey:config:)`` has been called.
    package var isInitialized: Bool { driver.core.withLock { $0.apiKey != nil } }

    /// Receives every diagnostic on the executor; held strongly. `nil` by default.
    ///
    /// The delegate need not be `Sendable`: the client calls it only from executor jobs, one at a time.
    public var diagnosticsDelegate: (any FalconDiagnosticsDelegate)? {
        get { driver.delegate.withLock { $0 } }
        set { driver.delegate.withLock { $0 = newValue } }
    }

    /// How many executions have not reached a terminal state (their closures are still held).
    package var activeExecutionCount: Int { driver.core.withLock { $0.registry.activeExecutionCount } }

    // MARK: Events

    /// Registers the events handler for `layoutId` (trimmed), replacing any previous one.
    ///
    /// The handler is looked up when an event is delivered, so a removal takes effect for queued events.
    /// A key that is empty after trimming is ignored.
    public func events(layoutId: String, handler: @escaping @Sendable (FalconEvent) -> Void) {
        driver.setEventsHandler(handler, layoutId: layoutId)
    }

    /// Removes and releases the events handler for `layoutId` (trimmed).
    public func removeEventsHandler(layoutId: String) {
        driver.setEventsHandler(nil, layoutId: layoutId)
    }

    // MARK: Execute

    /// Executes a placement with attributes given as `[String: Any]`, as in the iOS SDK.
    ///
    /// The dictionary is converted with `JSONValue.convert(_:)` (booleans stay booleans); values JSON
    /// cannot carry are dropped and counted in a debug log line.
    public func execute(
        attributes: [String: Any],
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) {
        start(
            FalconExecuteRequest(
                attributes: convert(attributes), placement: placement, style: style, onLoad: onLoad,
                onUnload: onUnload, onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
                onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox))
    }

    /// Executes a placement: resolves the attributes, builds the URL and renders it inline or as an overlay.
    ///
    /// Never throws and never calls back synchronously: `onShouldShowLoadingIndicator` is the first callback,
    /// delivered on the executor, and every failure arrives through `onError` after a diagnostic.
    public func execute(
        attributes: JSONValue,
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        onLoad: @escaping @Sendable () -> Void = {},
        onUnload: @escaping @Sendable () -> Void = {},
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onShouldShowLoadingIndicator: @escaping @Sendable () -> Void = {},
        onShouldHideLoadingIndicator: @escaping @Sendable () -> Void = {},
        isSandbox: Bool = false
    ) {
        start(
            FalconExecuteRequest(
                attributes: attributes, placement: placement, style: style, onLoad: onLoad, onUnload: onUnload,
                onError: onError, onShouldShowLoadingIndicator: onShouldShowLoadingIndicator,
                onShouldHideLoadingIndicator: onShouldHideLoadingIndicator, isSandbox: isSandbox))
    }

    /// `attributes` as JSON; values JSON cannot carry are dropped and counted in a debug log line.
    func convert(_ attributes: [String: Any]) -> JSONValue {
        driver.convert(attributes)
    }

    /// Creates an execution and returns its id.
    @discardableResult
    func start(_ request: FalconExecuteRequest) -> UInt64 {
        driver.start(request)
    }

    // MARK: Beacons

    /// Waits until every beacon dispatched so far has finished (sent, failed or dropped).
    ///
    /// Beacons are fire-and-forget; this exists for tests and for a graceful shutdown.
    public func waitForPendingBeacons() async {
        await driver.beacons.waitForPending()
    }

    // MARK: Inputs

    func submit(_ input: FalconExecutionStateMachine.Input, executionID: UInt64) {
        driver.submit(input, executionID: executionID)
    }
}
