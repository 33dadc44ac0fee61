#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The life of one `Falcon.execute` call (spec §e) as a value type.
///
/// Each input returns the actions to perform, in order. The machine reads no clock, does no I/O and holds no
/// closures: time comes in as `now`, timers are ``Action/armTimer(_:deadline:generation:)`` actions the
/// driver schedules, and every callback, event, diagnostic, renderer command and presenter operation is an
/// action the driver delivers on the host executor in this order. A terminal state ignores every input.
///
/// ```swift
/// var machine = FalconExecutionStateMachine(surface: .inline)
/// machine.handle(.start(.ready(url)), at: .zero)
/// // [.callback(.showLoadingIndicator), .renderer(.load(url, navigationID: 1)),
/// //  .armTimer(.loadTimeout, deadline: .seconds(15), generation: 1)]
/// ```
package struct FalconExecutionStateMachine: Sendable {
    /// The renderer's navigation phases (the public edge type).
    package typealias NavigationPhase = FalconNavigationPhase
    /// The renderer commands (the public edge type).
    package typealias RendererCommand = FalconRendererCommand

    /// Where the execution renders.
    package enum Surface: Sendable, Hashable {
        /// A host surface whose height the SDK drives.
        case inline
        /// A modal shown by the overlay presenter.
        case overlay
    }

    /// The states of spec §e.
    package enum State: Sendable, Hashable {
        /// Created, not started (a SwiftUI wrapper waits one executor turn here).
        case idle
        /// Overlay only: waiting for the presenter's answer.
        case presenting
        /// The URL is loading; the load timeout is armed.
        case loading
        /// Content rendered (`onLoad` delivered).
        case loaded
        /// Settled without content. Terminal for callbacks.
        case noFill
        /// Overlay only: the web content closed it; waiting for the dismissal to finish.
        case closing
        /// Overlay only: failed; waiting for the dismissal before `onError`.
        case failing
        /// Terminal: removed from the UI after it was on screen (`onUnload` delivered).
        case unloaded
        /// Terminal: failed (`onError` delivered).
        case failed
        /// Terminal: superseded or torn down by the host before it reached the screen.
        case cancelled

        /// Whether no further input has any effect.
        package var isTerminal: Bool {
            switch self {
            case .noFill, .unloaded, .failed, .cancelled: true
            default: false
            }
        }
    }

    /// The outcome of the preflight checks, evaluated by the driver in spec order.
    package enum Preflight: Sendable, Hashable {
        /// Every check passed; load this URL.
        case ready(URL)
        /// `initSdk` has not been called.
        case notInitialized
        /// The attributes did not resolve to a placement.
        case unresolvedAttributes
        /// The webview URL could not be built.
        case invalidURL
        /// Another overlay execution is still active.
        case overlayAlreadyActive
    }

    /// The two timers of an execution.
    package enum Timer: Sendable, Hashable {
        /// No settle signal within the load timeout.
        case loadTimeout
        /// The visibility dwell (> 50 % for one second).
        case dwell
    }

    /// Everything the renderer, presenter, clock or host can report.
    package enum Input: Sendable, Hashable {
        /// The execution starts with the preflight outcome.
        case start(Preflight)
        /// The overlay presenter showed the modal.
        case overlayPresented
        /// The overlay presenter found nowhere to present.
        case overlayUnavailable
        /// A navigation response arrived (`status` for HTTP responses).
        case navigationResponse(navigationID: Int, isMainFrame: Bool, status: Int?)
        /// A navigation finished.
        case navigationFinished(navigationID: Int)
        /// A navigation failed; `isCancelled` for cancellations (policy or superseded loads).
        case navigationFailed(navigationID: Int, phase: NavigationPhase, isCancelled: Bool, errorCode: Int?)
        /// A decoded bridge message.
        case bridge(FalconBridgeMessage)
        /// The visible fraction of the placement, 0...1.
        case visibility(Double)
        /// The user touched the placement.
        case userTouch
        /// A timer armed with `generation` fired.
        case timerFired(Timer, generation: Int)
        /// The overlay finished dismissing; `external` when the SDK did not ask for it.
        case overlayDismissed(external: Bool)
        /// The web content process terminated.
        case rendererTerminated
        /// The host removed the surface (view removed, deallocated, unmounted).
        case hostTeardown
        /// A new execute started on the same inline surface.
        case superseded
        /// The host let the inline surface go without reporting a teardown (the driver found its weak reference
        /// empty): handled as a teardown, with a warning when the placement had not settled yet.
        case surfaceReleased

        /// Whether this is a bridge message that decoded to ``FalconBridgeMessage/ignored``.
        package var isIgnoredBridgeMessage: Bool {
            if case .bridge(.ignored) = self { true } else { false }
        }
    }

    /// Host callbacks of one execution.
    package enum Callback: Sendable, Hashable {
        /// `onShouldShowLoadingIndicator`.
        case showLoadingIndicator
        /// `onShouldHideLoadingIndicator`.
        case hideLoadingIndicator
        /// `onLoad`.
        case load
        /// `onUnload`.
        case unload
        /// `onError`.
        case error(FalconError)
    }

    /// Events routed to the handler of the execution's layout id.
    package enum Event: Sendable, Hashable {
        /// `.placementInteractive`.
        case interactive
        /// `.placementCompleted`.
        case completed
        /// `.placementFailure`.
        case failure(FalconError)
    }

    /// What the driver must do, in order.
    package enum Action: Sendable, Hashable {
        /// Enqueue a host callback.
        case callback(Callback)
        /// Enqueue an event for the layout id's handler.
        case event(Event)
        /// Emit a diagnostic on the log sink, the delegate and (if allowed) as a beacon.
        case diagnose(FalconDiagnosticCode, message: String)
        /// Send a command to the renderer.
        case renderer(RendererCommand)
        /// Ask the overlay presenter to present.
        case presentOverlay
        /// Ask the overlay presenter to dismiss.
        case dismissOverlay
        /// Schedule `timer` at `deadline`; it reports back with `generation`.
        case armTimer(Timer, deadline: Duration, generation: Int)
        /// Cancel `timer`.
        case cancelTimer(Timer)
        /// Warn the host that its inline surface was released before the placement settled (a view it forgot to
        /// keep); a log line, not a diagnostic.
        case warnSurfaceReleasedEarly
        /// The execution reached a terminal state: release its closures and renderer.
        case finished

        /// Whether this is ``finished`` (a pattern test: no equality on payloads that hold a `URL`).
        package var isFinished: Bool {
            if case .finished = self { true } else { false }
        }
    }

    /// The current state.
    package private(set) var state: State = .idle
    /// Whether `show` was emitted.
    package private(set) var shown = false
    /// Whether `hide` was emitted.
    package private(set) var hidden = false
    /// Whether `interactive` was emitted.
    package private(set) var interactiveFired = false
    /// The last height sent to the inline surface.
    package private(set) var contentHeight: Double = 0

    /// The surface kind.
    package let surface: Surface
    /// The load timeout (15 s in production).
    package let loadTimeout: Duration
    /// The visibility dwell (1 s).
    package let dwell: Duration

    /// The navigation id of the initial load.
    static let initialNavigationID = 1

    private var url: URL?
    private var generation = 0
    private var loadTimerGeneration: Int?
    private var dwellGeneration: Int?
    private var lastVisibility: Double = 0
    private var lastTouch: Duration?
    private var pendingFailureNeedsHide = false
    private var actions: [Action] = []

    /// Creates a machine in ``State/idle``.
    package init(surface: Surface, loadTimeout: Duration = .seconds(15), dwell: Duration = .seconds(1)) {
        self.surface = surface
        self.loadTimeout = loadTimeout
        self.dwell = dwell
    }

    /// Feeds one input at `now` and returns the actions to perform, in order.
    package mutating func handle(_ input: Input, at now: Duration) -> [Action] {
        var actions: [Action] = []
        handle(input, at: now, appendingTo: &actions)
        return actions
    }

    /// Feeds one input at `now` and appends the actions to perform, in order, to `buffer`.
    ///
    /// The same step as ``handle(_:at:)``; the driver passes one buffer it empties and reuses (keeping its
    /// storage), so a step allocates no array of its own.
    package mutating func handle(_ input: Input, at now: Duration, appendingTo buffer: inout [Action]) {
        // The step appends to `actions`; the caller's buffer stands in for it during the step, so the machine
        // keeps no storage between steps.
        swap(&actions, &buffer)
        defer { swap(&actions, &buffer) }
        step(input, at: now)
    }

    private mutating func step(_ input: Input, at now: Duration) {
        guard !state.isTerminal else { return }
        switch input {
        case .start(let preflight): start(preflight, at: now)
        case .overlayPresented: overlayPresented(at: now)
        case .overlayUnavailable:
            if state == .presenting {
                failPreflight(.noPresenter, "no presenter is available for the overlay")
            }
        case .navigationResponse(let id, let isMainFrame, let status):
            if state == .loading, id == Self.initialNavigationID, isMainFrame, let status, status >= 400 {
                failLoad(.webviewHTTPError, "the main-frame response had HTTP status \(status)")
            }
        case .navigationFinished:
            break  // Not a load signal: content must report through the bridge.
        case .navigationFailed(let id, let phase, let isCancelled, let errorCode):
            if state == .loading, id == Self.initialNavigationID, !isCancelled {
                let suffix = errorCode.map { " (error code \($0))" } ?? ""
                switch phase {
                case .provisional:
                    failLoad(.webviewProvisionalNavigationFailed, "provisional navigation failed\(suffix)")
                case .committed: failLoad(.webviewNavigationFailed, "navigation failed\(suffix)")
                }
            }
        case .bridge(let message): bridge(message, at: now)
        case .visibility(let fraction): visibility(fraction, at: now)
        case .userTouch: lastTouch = now
        case .timerFired(let timer, let firedGeneration): timerFired(timer, firedGeneration)
        case .overlayDismissed(let external): overlayDismissed(external: external)
        case .rendererTerminated:
            fail(.webviewNavigationFailed, "the web content process terminated")
        case .hostTeardown, .superseded: cancel()
        case .surfaceReleased:
            if state == .idle || state == .loading { emit(.warnSurfaceReleasedEarly) }
            cancel()
        }
    }

    // MARK: Start

    private mutating func start(_ preflight: Preflight, at now: Duration) {
        guard state == .idle else { return }
        shown = true
        emit(.callback(.showLoadingIndicator))
        switch preflight {
        case .notInitialized:
            failPreflight(.initNotCalled, "execute was called before initSdk", error: .initNotCalled)
        case .unresolvedAttributes:
            failPreflight(.attributeMappingFailed, "attributes did not resolve to a placement")
        case .invalidURL:
            failPreflight(.urlConstructionFailed, "the webview URL could not be built")
        case .overlayAlreadyActive:
            failPreflight(.noPresenter, "another overlay is already active")
        case .ready(let url):
            self.url = url
            switch surface {
            case .inline: beginLoad(at: now)
            case .overlay:
                state = .presenting
                emit(.presentOverlay)
            }
        }
    }

    private mutating func overlayPresented(at now: Duration) {
        guard state == .presenting else { return }
        beginLoad(at: now)
    }

    private mutating func beginLoad(at now: Duration) {
        guard let url else { return }
        state = .loading
        emit(.renderer(.load(url, navigationID: Self.initialNavigationID)))
        generation += 1
        loadTimerGeneration = generation
        emit(.armTimer(.loadTimeout, deadline: now + loadTimeout, generation: generation))
    }

    // MARK: Bridge and visibility

    private mutating func bridge(_ message: FalconBridgeMessage, at now: Duration) {
        switch (state, message) {
        case (.loading, .loaded(let height)):
            if let height, height == 0 { noFill() } else { settleLoaded(height: height, at: now) }
        case (.loading, .height(let height)):
            if height > 0 { settleLoaded(height: height, at: now) }
        case (.loading, .noFill):
            noFill()
        case (.loaded, .height(let height)):
            guard surface == .inline, abs(height - contentHeight) >= 1 else { return }
            contentHeight = height.rounded(.up)
            emit(.renderer(.setContentHeight(contentHeight)))
        case (.loading, .error), (.loaded, .error):
            fail(.bridgeReportedError, "the web content reported an error")
        case (.loading, .close), (.loaded, .close):
            close()
        case (.loading, .click(let url)), (.loaded, .click(let url)):
            let decision = FalconNavigationPolicy.decideClick(url: url, sinceLastTouch: lastTouch.map { now - $0 })
            if case .openExternally(let target) = decision { emit(.renderer(.openExternally(target))) }
        default:
            break
        }
    }

    private mutating func settleLoaded(height: Double?, at now: Duration) {
        cancelTimers()
        state = .loaded
        hide()
        if surface == .inline, let height {
            contentHeight = height.rounded(.up)
            emit(.renderer(.setContentHeight(contentHeight)))
        }
        emit(.callback(.load))
        if lastVisibility > 0.5 { armDwell(at: now) }
    }

    private mutating func noFill() {
        cancelTimers()
        state = .noFill
        if surface == .overlay { emit(.dismissOverlay) }
        hide()
        emit(.finished)
    }

    private mutating func visibility(_ fraction: Double, at now: Duration) {
        lastVisibility = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        guard state == .loaded else { return }
        if lastVisibility > 0.5 {
            armDwell(at: now)
        } else if dwellGeneration != nil {
            dwellGeneration = nil
            emit(.cancelTimer(.dwell))
        }
    }

    private mutating func armDwell(at now: Duration) {
        guard !interactiveFired, dwellGeneration == nil else { return }
        generation += 1
        dwellGeneration = generation
        emit(.armTimer(.dwell, deadline: now + dwell, generation: generation))
    }

    private mutating func timerFired(_ timer: Timer, _ firedGeneration: Int) {
        switch timer {
        case .loadTimeout:
            guard state == .loading, loadTimerGeneration == firedGeneration else { return }
            loadTimerGeneration = nil
            failLoad(.webviewLoadTimedOut, "the placement produced no signal within the load timeout")
        case .dwell:
            guard dwellGeneration == firedGeneration else { return }
            dwellGeneration = nil
            guard state == .loaded, lastVisibility > 0.5, !interactiveFired else { return }
            interactiveFired = true
            emit(.event(.interactive))
        }
    }

    // MARK: Close, dismissal, cancellation

    private mutating func close() {
        cancelTimers()
        hide()
        switch surface {
        case .inline:
            contentHeight = 0
            emit(.renderer(.setContentHeight(0)))
            emit(.renderer(.teardown))
            unloaded(completed: true)
        case .overlay:
            state = .closing
            emit(.dismissOverlay)
        }
    }

    private mutating func overlayDismissed(external: Bool) {
        guard surface == .overlay else { return }
        switch state {
        case .closing:
            unloaded(completed: true)
        case .failing:
            if pendingFailureNeedsHide { hide() }
            finishFailure(.placementLoadError)
        case .presenting, .loading, .loaded:
            cancelTimers()
            hide()
            unloaded(completed: false)
        default:
            break
        }
    }

    private mutating func unloaded(completed: Bool) {
        state = .unloaded
        emit(.callback(.unload))
        if completed { emit(.event(.completed)) }
        emit(.finished)
    }

    /// Host teardown, supersede or a released surface. A placement that is on screen — an inline one that has
    /// loaded, an overlay whose presentation completed — is removed from the UI, so it gets `onUnload` (without
    /// `completed`: nobody engaged with it); one that never reached the screen ends silently, with only its
    /// pending `hide` (Docs/Decisions/0111).
    private mutating func cancel() {
        switch state {
        case .idle:
            state = .cancelled
            emit(.finished)
        case .presenting, .loading, .loaded:
            let onScreen = state == .loaded || (surface == .overlay && state == .loading)
            cancelTimers()
            switch surface {
            case .inline: emit(.renderer(.teardown))
            case .overlay: emit(.dismissOverlay)
            }
            if shown { hide() }
            if onScreen {
                unloaded(completed: false)
            } else {
                state = .cancelled
                emit(.finished)
            }
        default:
            break  // Closing/Failing: the dismissal in flight finishes the execution.
        }
    }

    // MARK: Failure

    /// FAILLOAD from Loading, FAILLATE from Loaded; ignored elsewhere.
    private mutating func fail(_ code: FalconDiagnosticCode, _ message: String) {
        switch state {
        case .loading: failLoad(code, message)
        case .loaded: failLate(code, message)
        default: break
        }
    }

    private mutating func failPreflight(
        _ code: FalconDiagnosticCode,
        _ message: String,
        error: FalconError = .placementLoadError
    ) {
        emit(.diagnose(code, message: message))
        hide()
        finishFailure(error)
    }

    private mutating func failLoad(_ code: FalconDiagnosticCode, _ message: String) {
        emit(.diagnose(code, message: message))
        cancelTimers()
        emit(.renderer(.stop))
        switch surface {
        case .inline:
            emit(.renderer(.teardown))
            hide()
            finishFailure(.placementLoadError)
        case .overlay:
            state = .failing
            pendingFailureNeedsHide = true
            emit(.dismissOverlay)
        }
    }

    private mutating func failLate(_ code: FalconDiagnosticCode, _ message: String) {
        emit(.diagnose(code, message: message))
        cancelTimers()
        emit(.renderer(.stop))
        switch surface {
        case .inline:
            contentHeight = 0
            emit(.renderer(.setContentHeight(0)))
            emit(.renderer(.teardown))
            finishFailure(.placementLoadError)
        case .overlay:
            state = .failing
            pendingFailureNeedsHide = false
            emit(.dismissOverlay)
        }
    }

    private mutating func finishFailure(_ error: FalconError) {
        state = .failed
        emit(.callback(.error(error)))
        emit(.event(.failure(error)))
        emit(.finished)
    }

    // MARK: Helpers

    /// Appends `action` to this step's list. The first one into an empty buffer without storage reserves room
    /// for a whole step (a failure emits up to seven actions): one allocation instead of the growth steps of an
    /// empty array, and none for the many inputs that emit nothing (visibility, touches).
    private mutating func emit(_ action: Action) {
        if actions.capacity == 0 { actions.reserveCapacity(8) }
        actions.append(action)
    }

    private mutating func hide() {
        guard shown, !hidden else { return }
        hidden = true
        emit(.callback(.hideLoadingIndicator))
    }

    private mutating func cancelTimers() {
        if loadTimerGeneration != nil {
            loadTimerGeneration = nil
            emit(.cancelTimer(.loadTimeout))
        }
        if dwellGeneration != nil {
            dwellGeneration = nil
            emit(.cancelTimer(.dwell))
        }
    }
}
