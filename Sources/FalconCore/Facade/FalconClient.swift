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
/// The client turns the actions of each execution's `FalconExecutionStateMachine` into renderer and
/// presenter commands, timers, diagnostics and callbacks. Inputs are processed one at a time in arrival order
/// (an input reported while actions are being performed is queued, never handled re-entrantly). Every
/// host-facing output — callback, event, delegate call, renderer command, presenter operation — is enqueued
/// on the executor in the machine's action order, so none runs inside `execute` and the host sees
/// `onShouldShowLoadingIndicator` before `load`. Timers are armed (and log lines written) at the transition.
public final class FalconClient: Sendable {
    /// The edges this client uses.
    public let dependencies: FalconClientDependencies

    private let state = LockedValue(ClientState())
    /// The host's diagnostics delegate, which is not `Sendable`: it is only stored and read here and called from
    /// executor jobs (one at a time, outside every lock), never from two threads at once.
    private let delegate = LockedValue<(any FalconDiagnosticsDelegate)?>(nil)
    /// The armed timers of each execution, by execution id (hashing one integer, not a key of two fields).
    private let timers = LockedValue([UInt64: ArmedTimers]())
    private let metrics: FalconMetrics

    /// Creates a client; nothing starts until `execute` is called.
    public init(dependencies: FalconClientDependencies = FalconClientDependencies()) {
        self.dependencies = dependencies
        metrics = FalconMetrics(observer: dependencies.metricsObserver)
    }

    /// Cumulative counts since the client was created: executions by outcome, diagnostics by code, beacons.
    public var statistics: FalconStatistics { state.withLock { $0.statistics } }

    // MARK: Configuration

    /// Stores the API key and configuration for executions started from now on.
    public func initSdk(apiKey: String, config: FalconConfig = FalconConfig()) {
        if FalconWebviewURLBuilder.webviewBase(config.baseURL.absoluteString) == nil {
            log(
                .warning, nil,
                "baseURL is refused: it must be https:// (http:// only for 127.0.0.1, localhost or [::1], since the"
                    + " webview URL carries the API key), with a host and without a query or fragment; every"
                    + " execute fails with urlConstructionFailed")
        }
        state.withLock {
            $0.apiKey = apiKey
            $0.config = config
            // Derived once per configuration rather than at every execute (the scheme test builds strings).
            $0.beaconTarget =
                config.diagnosticBeaconsEnabled
                ? Self.beaconTarget(config.diagnosticsURL ?? FalconConfig.defaultDiagnosticsURL) : nil
        }
    }

    /// Whether ``initSdk(apiKey:config:)`` has been called.
    public var isInitialized: Bool { state.withLock { $0.apiKey != nil } }

    /// Receives every diagnostic on the executor; held strongly. `nil` by default.
    ///
    /// The delegate need not be `Sendable`: the client calls it only from executor jobs, one at a time.
    public var diagnosticsDelegate: (any FalconDiagnosticsDelegate)? {
        get { delegate.withLock { $0 } }
        set { delegate.withLock { $0 = newValue } }
    }

    /// How many executions have not reached a terminal state (their closures are still held).
    public var activeExecutionCount: Int { state.withLock { $0.executions.count } }

    // MARK: Events

    /// Registers the events handler for `layoutId` (trimmed), replacing any previous one.
    ///
    /// The handler is looked up when an event is delivered, so a removal takes effect for queued events.
    /// A key that is empty after trimming is ignored.
    public func events(layoutId: String, handler: @escaping @Sendable (FalconEvent) -> Void) {
        guard let key = FalconIdentifier.normalize(layoutId) else {
            log(.debug, nil, "events handler ignored: empty layoutId")
            return
        }
        state.withLock { $0.eventHandlers[key] = handler }
    }

    /// Removes and releases the events handler for `layoutId` (trimmed).
    public func removeEventsHandler(layoutId: String) {
        guard let key = FalconIdentifier.normalize(layoutId) else { return }
        state.withLock { $0.eventHandlers[key] = nil }
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
        let conversion = JSONValue.convert(attributes)
        if !conversion.issues.isEmpty {
            log(.debug, nil, "\(conversion.issues.count) attribute value(s) could not be converted and were dropped")
        }
        return conversion.value
    }

    /// Creates an execution, queues its `start` and drains; returns the execution's id.
    @discardableResult
    func start(_ request: FalconExecuteRequest) -> UInt64 {
        let sessionId = dependencies.idSource.makeSessionID()
        let (apiKey, config, configuredBeaconTarget) = state.withLock { ($0.apiKey, $0.config, $0.beaconTarget) }
        let resolved = FalconAttributeResolver.resolve(request.attributes, mapping: config.placementMapping)
        if resolved.droppedUserValueCount > 0 {
            log(.debug, nil, "\(resolved.droppedUserValueCount) user_details value(s) were empty or not scalars")
        }
        var preflight = Self.preflight(request, resolved, apiKey: apiKey, config: config, sessionId: sessionId)
        let surfaceKind: FalconExecutionStateMachine.Surface
        let surfaceID: ObjectIdentifier?
        let inlineSurface: (any FalconInlineSurface)?
        switch request.placement {
        case .inline(let surface):
            surfaceKind = .inline
            surfaceID = ObjectIdentifier(surface)
            inlineSurface = surface
        case .overlay:
            surfaceKind = .overlay
            surfaceID = nil
            inlineSurface = nil
        }
        let beaconTarget = apiKey != nil ? configuredBeaconTarget : nil
        // A negative or absurd override cannot break the timer arithmetic: clamp to [0, one day].
        let loadTimeout = min(max(dependencies.loadTimeout, .zero), .seconds(86_400))
        let (id, shouldDrain) = state.withLock { state -> (UInt64, Bool) in
            state.nextExecutionID += 1
            let id = state.nextExecutionID
            if surfaceKind == .overlay, case .ready = preflight {
                if state.activeOverlay != nil {
                    preflight = .overlayAlreadyActive
                } else {
                    state.activeOverlay = id
                }
            }
            if let surfaceID {
                // The same live surface supersedes its previous execution. An identifier is an address, and a
                // released surface's address can be reused by the next one: that previous execution is not
                // superseded, it meets its released surface at its next input as any other would.
                if let previous = state.surfaces[surfaceID],
                    let previousSurface = state.executions[previous]?.context.inlineSurface,
                    previousSurface === inlineSurface
                {
                    state.inbox.append((previous, .superseded))
                }
                state.surfaces[surfaceID] = id
            }
            state.executions[id] = Execution(
                machine: FalconExecutionStateMachine(surface: surfaceKind, loadTimeout: loadTimeout),
                context: Context(
                    callbacks: request.callbacks,
                    layoutId: resolved.layoutId,
                    diagnosticPlacement: resolved.diagnosticPlacement,
                    diagnosticLayoutId: resolved.diagnosticLayoutId,
                    surfaceID: surfaceID,
                    inlineSurface: inlineSurface,
                    reporter: FalconExecutionReporter(client: self, executionID: id),
                    beaconTarget: beaconTarget
                )
            )
            state.inbox.append((id, .start(preflight)))
            state.statistics.count(.executionStarted)
            return (id, state.beginDrain())
        }
        metrics.forward(.executionStarted)
        if shouldDrain { drain() }
        return id
    }

    /// The preflight checks that need no client state, in spec order: initialized, resolved, URL built.
    private static func preflight(
        _ request: FalconExecuteRequest,
        _ resolved: FalconResolvedAttributes,
        apiKey: String?,
        config: FalconConfig,
        sessionId: String
    ) -> FalconExecutionStateMachine.Preflight {
        guard let apiKey else { return .notInitialized }
        guard let placementId = resolved.placementId else { return .unresolvedAttributes }
        let built = FalconWebviewURLBuilder.build(
            baseURL: config.baseURL,
            apiKey: apiKey,
            placementId: placementId,
            sessionId: sessionId,
            userAttributes: resolved.userAttributes,
            isSandbox: request.isSandbox,
            style: request.style
        )
        switch built {
        case .success(let url): return .ready(url)
        case .failure: return .invalidURL
        }
    }

    // MARK: Beacons

    /// Waits until every beacon dispatched so far has finished (sent, failed or dropped).
    ///
    /// Beacons are fire-and-forget; this exists for tests and for a graceful shutdown.
    public func waitForPendingBeacons() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.beacons.inFlight == 0 { return true }
                state.beacons.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    // MARK: Inputs

    func submit(_ input: FalconExecutionStateMachine.Input, executionID: UInt64) {
        let shouldDrain = state.withLock { state -> Bool in
            state.inbox.append((executionID, input))
            return state.beginDrain()
        }
        if shouldDrain { drain() }
    }

    func overlayPresented(executionID: UInt64, renderer: any FalconRenderer) {
        state.withLock { state in
            if state.executions[executionID]?.overlayRenderer == nil {
                state.executions[executionID]?.overlayRenderer = OverlayRenderer(renderer)
            }
        }
        submit(.overlayPresented, executionID: executionID)
    }

    /// Handles queued inputs one at a time; actions are performed outside the lock.
    private func drain() {
        // One action buffer for the whole drain, kept in the state between drains (only one drain runs at a
        // time): a step appends to it and the buffer is emptied, keeping its storage, once performed.
        var actions: [FalconExecutionStateMachine.Action] = []
        var holdsBuffer = false
        while true {
            let step = state.withLock { state -> Step? in
                if !holdsBuffer {
                    swap(&actions, &state.spareActions)
                    holdsBuffer = true
                }
                guard let (id, next) = state.nextInput() else {
                    state.draining = false
                    swap(&actions, &state.spareActions)
                    return nil
                }
                guard let index = state.executions.index(forKey: id) else {
                    return Step(id: id, ignoredBridgeMessage: next.isIgnoredBridgeMessage)
                }
                // The execution is stepped in place (one mutating access, no copy of it); only the parts the
                // actions need leave the lock.
                let step = state.executions.values[index].step(
                    next, of: id, at: dependencies.clock.now(), appendingTo: &actions)
                state.statistics.count(actions)
                if actions.contains(where: \.isFinished) {
                    state.executions.remove(at: index)
                    if let surfaceID = step.execution?.context.surfaceID, state.surfaces[surfaceID] == id {
                        state.surfaces[surfaceID] = nil
                    }
                    if state.activeOverlay == id { state.activeOverlay = nil }
                }
                return step
            }
            guard let step else { return }
            if step.ignoredBridgeMessage {
                log(.debug, nil, "bridge message ignored (malformed, unknown name or not an event)")
            }
            if let execution = step.execution {
                for action in actions { perform(action, execution, step.id) }
            }
            actions.removeAll(keepingCapacity: true)
        }
    }

    private func perform(_ action: FalconExecutionStateMachine.Action, _ execution: Delivery, _ id: UInt64) {
        // Counted at the transition, under the lock; the observer hears of it now, in action order.
        metrics.forward(action)
        switch action {
        case .callback(let callback):
            dependencies.executor.enqueue(execution.callbacks.job(for: callback))
        case .event(let event):
            guard let layoutId = execution.layoutId else { return }
            let delivered: FalconEvent
            switch event {
            case .interactive: delivered = .placementInteractive
            case .completed: delivered = .placementCompleted
            case .failure(let error): delivered = .placementFailure(error)
            }
            dependencies.executor.enqueue { [weak self] in
                guard let handler = self?.state.withLock({ $0.eventHandlers[layoutId] }) else { return }
                handler(delivered)
            }
        case .diagnose(let code, let message):
            diagnose(code, message, execution)
        case .renderer(let command):
            // The renderer is resolved now and held by the queued job until delivery (one executor turn), so
            // every command the machine emitted reaches it, even after the execution ended (a teardown).
            // The inline surface is captured as the class it is: no optional existential to copy per command.
            let request = FalconRenderRequest(command: command, reporter: execution.reporter)
            if let surface = execution.context.inlineSurface {
                dependencies.executor.enqueue { surface.perform(request) }
            } else if let overlay = execution.overlayRenderer {
                dependencies.executor.enqueue { overlay.renderer.perform(request) }
            }
        case .presentOverlay:
            present(.present, execution)
        case .dismissOverlay:
            present(.dismiss, execution)
        case .warnSurfaceReleasedEarly:
            log(
                .warning, nil,
                "inline surface released before its placement settled (layoutId \(execution.diagnosticLayoutId ?? "-")); "
                    + "the execution was cancelled. Keep a strong reference to the surface until onLoad or onError")
        case .armTimer(let timer, let deadline, let generation):
            let handle = dependencies.clock.schedule(
                FalconTimerRequest(deadline: deadline) { [weak self] in
                    self?.submit(.timerFired(timer, generation: generation), executionID: id)
                }
            )
            let replaced = timers.withLock { $0[id, default: ArmedTimers()].replace(timer, with: handle) }
            if let replaced { replaced.cancel() }
        case .cancelTimer(let timer):
            let removed = timers.withLock { timers -> (any FalconTimerHandle)? in
                guard let index = timers.index(forKey: id) else { return nil }
                let removed = timers.values[index].replace(timer, with: nil)
                if timers.values[index].isEmpty { timers.remove(at: index) }
                return removed
            }
            if let removed { removed.cancel() }
        case .finished:
            // The machine cancels its timers before it finishes (which removed the entry): whatever is left is
            // cancelled here, so no handle outlives its execution.
            if let armed = timers.withLock({ $0.removeValue(forKey: id) }) {
                armed.loadTimeout?.cancel()
                armed.dwell?.cancel()
            }
        }
    }

    private func present(_ operation: FalconOverlayRequest.Operation, _ execution: Delivery) {
        let presenter = dependencies.overlayPresenter
        let request = FalconOverlayRequest(operation: operation, reporter: execution.reporter)
        dependencies.executor.enqueue { presenter.perform(request) }
    }

    // MARK: Diagnostics

    private func diagnose(_ code: FalconDiagnosticCode, _ message: String, _ execution: Delivery) {
        log(.error, code, message)
        let diagnostic = FalconDiagnostic(
            code: code,
            message: message,
            placement: execution.diagnosticPlacement,
            layoutId: execution.diagnosticLayoutId
        )
        dependencies.executor.enqueue { [weak self] in
            self?.delegate.withLock({ $0 })?.falconDidEncounter(diagnostic)
        }
        guard code != .initNotCalled, let target = execution.beaconTarget else { return }
        let beacon = FalconBeacon(
            sdkv: Falcon.version,
            code: code,
            placement: execution.diagnosticPlacement,
            layoutId: execution.diagnosticLayoutId,
            platform: dependencies.platform,
            ts: FalconBeacon.milliseconds(since1970: dependencies.clock.wallTime())
        )
        guard let transport = dependencies.beaconTransport else {
            let first = state.withLock { state in
                state.statistics.count(.beaconDropped)
                defer { state.beacons.warnedMissingTransport = true }
                return !state.beacons.warnedMissingTransport
            }
            metrics.forward(.beaconDropped)
            if first {
                log(.warning, code, Self.missingBeaconTransportWarning)
            } else {
                log(.debug, code, "beacon not sent: no beacon transport installed")
            }
            return
        }
        let request = FalconBeaconRequest(
            url: target,
            headers: ["Content-Type": "application/json"],
            body: beacon.jsonBody()
        )
        state.withLock { $0.beacons.inFlight += 1 }
        Task.detached { [weak self] in
            let answered = (try? await transport.send(request)) != nil
            self?.beaconFinished(answered ? .beaconSent : .beaconFailed)
        }
    }

    /// The warning logged once per client for the first beacon dropped for want of a transport.
    static let missingBeaconTransportWarning =
        "beacon not sent: no beacon transport installed, so no diagnostic beacon will be sent. Install one at "
        + "launch: Falcon.shared = FalconClient(dependencies: .init(beaconTransport: URLSessionBeaconTransport())) "
        + "(import FalconCoreURLSession)"

    private func beaconFinished(_ outcome: FalconMetrics.Occurrence) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.statistics.count(outcome)
            state.beacons.inFlight -= 1
            guard state.beacons.inFlight == 0 else { return [] }
            defer { state.beacons.waiters = [] }
            return state.beacons.waiters
        }
        metrics.forward(outcome)
        for waiter in waiters { waiter.resume() }
    }

    /// Logs why a bridge message's JSON text was rejected (the reason and offset only, never the text).
    func logRejectedBridgeMessage(
        _ error: JSONParsingError, file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.debug, nil, "bridge message rejected: \(error)", file: file, function: function, line: line)
    }

    /// Writes one line to the log hook, if the host installed one; the message is built only then. The record
    /// names the caller's file, function and line.
    private func log(
        _ level: SDKCoreLogLevel, _ code: FalconDiagnosticCode?, _ message: @autoclosure () -> String,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        guard let handler = dependencies.logHandler else { return }
        handler.log(
            SDKCoreLogRecord(
                level: level, message: message(), metadata: code.map { ["code": $0.rawValue] } ?? [:],
                source: FalconUnifiedLogEntry.source, file: file, function: function, line: line))
    }

    /// `url` when its scheme is `http` or `https`, else `nil` (such beacons are dropped).
    static func beaconTarget(_ url: URL) -> URL? {
        let scheme = (url.scheme ?? "").lowercased()
        return scheme == "http" || scheme == "https" ? url : nil
    }
}

// MARK: - Driver state

extension FalconClient {
    /// One execution as the client keeps it: the machine and the overlay renderer change; everything else is
    /// fixed at `execute` and shared through one ``Context`` object.
    struct Execution: Sendable {
        var machine: FalconExecutionStateMachine
        /// The overlay's content renderer, from the presenter.
        var overlayRenderer: OverlayRenderer?
        let context: Context

        /// Feeds `input` to the machine, its actions appended to `actions`, and returns what performing them
        /// needs. A mutating method, so the driver reaches the execution in the dictionary through one in-place
        /// access: reading its fields one by one there copied the whole execution each time.
        mutating func step(
            _ input: FalconExecutionStateMachine.Input, of id: UInt64, at now: Duration,
            appendingTo actions: inout [FalconExecutionStateMachine.Action]
        ) -> Step {
            let delivery = Delivery(context: context, overlayRenderer: overlayRenderer)
            if context.rendersInline, context.inlineSurface == nil {
                // The host released its surface without reporting a teardown; the machine decides what follows.
                machine.handle(.surfaceReleased, at: now, appendingTo: &actions)
                return Step(id: id, execution: delivery)
            }
            // The input is borrowed, never copied: it may hold a `URL`, whose copies go through the runtime.
            machine.handle(input, at: now, appendingTo: &actions)
            return Step(id: id, execution: delivery, ignoredBridgeMessage: input.isIgnoredBridgeMessage)
        }
    }

    /// What performing one input's actions needs, taken out of the lock: two references, not the machine.
    struct Delivery: Sendable {
        let context: Context
        let overlayRenderer: OverlayRenderer?

        var callbacks: FalconCallbacks { context.callbacks }
        var layoutId: String? { context.layoutId }
        var diagnosticPlacement: String? { context.diagnosticPlacement }
        var diagnosticLayoutId: String? { context.diagnosticLayoutId }
        var reporter: FalconExecutionReporter { context.reporter }
        var beaconTarget: URL? { context.beaconTarget }
    }

    /// The overlay's renderer in a box of its own: the driver copies a step's `Delivery` at every action, and a
    /// class reference copies with one retain where an optional existential of a protocol that is not
    /// class-bound goes through the runtime's generic copy (a few hundred instructions each time).
    final class OverlayRenderer: Sendable {
        let renderer: any FalconRenderer

        init(_ renderer: any FalconRenderer) {
            self.renderer = renderer
        }
    }

    /// What an execution keeps from its `execute` call until it ends.
    final class Context: Sendable {
        let callbacks: FalconCallbacks
        let layoutId: String?
        let diagnosticPlacement: String?
        let diagnosticLayoutId: String?
        let surfaceID: ObjectIdentifier?
        /// Whether the execution renders on a host surface (which ``inlineSurface`` held until released).
        let rendersInline: Bool
        /// The host's inline surface, held weakly: the host owns its views, and a surface it releases must be
        /// able to deallocate (and report its teardown) while a placement is still showing. A weak field of
        /// this object rather than a box of its own: one allocation per execute fewer.
        weak let inlineSurface: (any FalconInlineSurface)?
        let reporter: FalconExecutionReporter
        let beaconTarget: URL?

        init(
            callbacks: FalconCallbacks, layoutId: String?, diagnosticPlacement: String?, diagnosticLayoutId: String?,
            surfaceID: ObjectIdentifier?, inlineSurface: (any FalconInlineSurface)?, reporter: FalconExecutionReporter,
            beaconTarget: URL?
        ) {
            self.callbacks = callbacks
            self.layoutId = layoutId
            self.diagnosticPlacement = diagnosticPlacement
            self.diagnosticLayoutId = diagnosticLayoutId
            self.surfaceID = surfaceID
            self.rendersInline = inlineSurface != nil
            self.inlineSurface = inlineSurface
            self.reporter = reporter
            self.beaconTarget = beaconTarget
        }
    }

    struct ClientState: Sendable {
        var apiKey: String?
        var config = FalconConfig()
        /// Where `config` sends beacons: `nil` when they are disabled or the URL is not `http(s)`.
        var beaconTarget: URL?
        var eventHandlers: [String: @Sendable (FalconEvent) -> Void] = [:]
        var executions: [UInt64: Execution] = [:]
        var surfaces: [ObjectIdentifier: UInt64] = [:]
        var activeOverlay: UInt64?
        var nextExecutionID: UInt64 = 0
        /// Inputs not yet handled start at `inboxHead`; the array is emptied (keeping its storage) once all
        /// are, so taking the next input costs O(1) instead of shifting the rest.
        var inbox: [(UInt64, FalconExecutionStateMachine.Input)] = []
        var inboxHead = 0
        var draining = false
        /// The drain's action buffer while no drain runs (emptied, its storage kept).
        var spareActions: [FalconExecutionStateMachine.Action] = []
        var statistics = FalconStatistics()
        var beacons = BeaconTracker()

        /// The oldest input not yet handled, or `nil` when there is none (the inbox is then empty).
        mutating func nextInput() -> (UInt64, FalconExecutionStateMachine.Input)? {
            guard inboxHead < inbox.count else {
                inbox.removeAll(keepingCapacity: inbox.capacity <= 1024)
                inboxHead = 0
                return nil
            }
            // Moved out, a payload-free placeholder left behind: what the input held (a URL, a bridge message) is
            // released with it, and nothing is copied (inputs hold a `URL`, whose copies go through the runtime).
            var next: (UInt64, FalconExecutionStateMachine.Input) = (0, .superseded)
            swap(&next, &inbox[inboxHead])
            inboxHead += 1
            return next
        }

        /// Marks the inbox as being drained; `true` when the caller must drain it.
        mutating func beginDrain() -> Bool {
            if draining { return false }
            draining = true
            return true
        }
    }

    /// One handled input, as the drain performs it (its actions are in the drain's buffer). It keeps what the
    /// drain logs about the input, not the input: a copy of an input goes through the runtime (it may hold a
    /// `URL`, a resilient type).
    struct Step {
        var id: UInt64
        /// `nil` when the execution had already ended: the input had no effect.
        var execution: Delivery?
        /// Whether the input was a bridge message that decoded to nothing (logged at debug level).
        var ignoredBridgeMessage = false
    }

    /// The handles of one execution's armed timers: at most one of each kind.
    struct ArmedTimers {
        var loadTimeout: (any FalconTimerHandle)?
        var dwell: (any FalconTimerHandle)?

        /// Whether no timer of the execution is armed.
        var isEmpty: Bool { loadTimeout == nil && dwell == nil }

        /// Stores `handle` (or nothing) for `timer` and returns the handle it replaces.
        mutating func replace(
            _ timer: FalconExecutionStateMachine.Timer, with handle: (any FalconTimerHandle)?
        ) -> (any FalconTimerHandle)? {
            switch timer {
            case .loadTimeout:
                defer { loadTimeout = handle }
                return loadTimeout
            case .dwell:
                defer { dwell = handle }
                return dwell
            }
        }
    }

    struct BeaconTracker {
        var inFlight = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var warnedMissingTransport = false
    }
}
