#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// The life of one `Falcon.execute` call (spec §e) as a value type.
///
/// Each input returns the actions to perform, in order. The machine reads no clock, does no I/O and holds no
/// closures: time comes in as `now`, timers are deadlines the machine announces with
/// ``Action/armTimer(_:deadline:generation:)`` (the registry keeps them and feeds `timerFired` back when one is
/// due; ``nextDeadline`` says which is next), and every callback, event, diagnostic, renderer command and
/// presenter operation is an action the driver delivers on the host executor in this order.
///
/// Each state carries its own data (``Stage``): the URL while presenting, the armed load timeout while loading,
/// the content height and the visibility dwell once loaded, whether a hide is still owed while failing. Every
/// input is handled in every state; those with no effect in a state say why. A terminal state ignores every
/// input. A timer's generation tells a current report from a stale one (cancelled, or re-armed since).
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

        /// Whether this is a bridge message that decoded to `FalconBridgeMessage.ignored`.
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

    /// An armed timer: the number it was armed with (a late report of an older one is stale) and its deadline.
    struct Armed: Sendable, Hashable {
        let generation: Int
        let deadline: Duration
    }

    /// The visibility dwell of a loaded placement.
    enum Dwell: Sendable, Hashable {
        /// Not armed: the placement is not more than half visible, or has not been since it loaded.
        case waiting
        /// More than half visible since `armed.deadline - dwell`.
        case armed(Armed)
        /// `interactive` was emitted; it is emitted once.
        case fired
    }

    /// The states of spec §e with the data each one holds (``state`` names them without it).
    enum Stage: Sendable, Hashable {
        case idle
        /// Waiting for the presenter; `url` loads once the modal is on screen.
        case presenting(url: URL)
        /// The initial navigation is loading; `loadTimer` until the load timeout fired.
        case loading(loadTimer: Armed?)
        /// Content rendered; `height` is the last height sent to the inline surface (0 for an overlay).
        case loaded(height: Double, dwell: Dwell)
        case noFill
        case closing
        /// Waiting for the dismissal before `onError`; `needsHide` when the hide is still owed.
        case failing(needsHide: Bool)
        case unloaded
        case failed
        case cancelled
    }

    /// The loading indicator: shown at `start`, hidden once.
    enum Indicator: Sendable, Hashable {
        case notShown
        case shown
        case hidden
    }

    /// The current state with its data.
    private(set) var stage = Stage.idle
    private var indicator = Indicator.notShown
    /// The last visible fraction reported (kept from before the load: a placement already visible when it loads
    /// starts its dwell at once).
    private var lastVisibility: Double = 0
    /// When the user last touched the placement (the click gate).
    private var lastTouch: Duration?
    /// The number of the last timer armed.
    private var generation = 0
    private var actions: [Action] = []

    /// The surface kind.
    package let surface: Surface
    /// The load timeout (15 s in production).
    package let loadTimeout: Duration
    /// The visibility dwell (1 s).
    package let dwell: Duration

    /// The navigation id of the initial load.
    static let initialNavigationID = 1

    /// The current state.
    package var state: State {
        switch stage {
        case .idle: .idle
        case .presenting: .presenting
        case .loading: .loading
        case .loaded: .loaded
        case .noFill: .noFill
        case .closing: .closing
        case .failing: .failing
        case .unloaded: .unloaded
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    /// Whether `show` was emitted.
    package var shown: Bool { indicator != .notShown }
    /// Whether `hide` was emitted.
    package var hidden: Bool { indicator == .hidden }
    /// Whether `interactive` was emitted while the placement is loaded.
    package var interactiveFired: Bool {
        if case .loaded(_, .fired) = stage { true } else { false }
    }
    /// The last height sent to the inline surface while loaded (0 otherwise).
    package var contentHeight: Double {
        if case .loaded(let height, _) = stage { height } else { 0 }
    }

    /// The earliest deadline of an armed timer: when the driver must report it fired (`nil`: none is armed).
    package var nextDeadline: Duration? {
        switch stage {
        case .loading(let load?): load.deadline
        case .loaded(_, .armed(let dwell)): dwell.deadline
        case .idle, .presenting, .loading(nil), .loaded(_, .waiting), .loaded(_, .fired), .noFill, .closing,
            .failing, .unloaded, .failed, .cancelled:
            nil
        }
    }

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
        case .overlayPresented:
            // Only a presentation the machine asked for starts the load.
            guard case .presenting(let url) = stage else { return }
            beginLoad(url, at: now)
        case .overlayUnavailable:
            guard case .presenting = stage else { return }
            failPreflight(.noPresenter, "no presenter is available for the overlay")
        case .navigationResponse(let id, let isMainFrame, let status):
            guard case .loading = stage, id == Self.initialNavigationID, isMainFrame, let status, status >= 400 else {
                return  // Only the initial main-frame load fails the placement, and only while it is loading.
            }
            failLoad(.webviewHTTPError, "the main-frame response had HTTP status \(status)")
        case .navigationFinished:
            break  // Not a load signal: content must report through the bridge.
        case .navigationFailed(let id, let phase, let isCancelled, let errorCode):
            guard case .loading = stage, id == Self.initialNavigationID, !isCancelled else { return }
            let suffix = errorCode.map { " (error code \($0))" } ?? ""
            switch phase {
            case .provisional:
                failLoad(.webviewProvisionalNavigationFailed, "provisional navigation failed\(suffix)")
            case .committed: failLoad(.webviewNavigationFailed, "navigation failed\(suffix)")
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
            switch stage {
            case .idle, .loading: emit(.warnSurfaceReleasedEarly)
            case .presenting, .loaded, .noFill, .closing, .failing, .unloaded, .failed, .cancelled: break
            }
            cancel()
        }
    }

    // MARK: Start

    private mutating func start(_ preflight: Preflight, at now: Duration) {
        guard case .idle = stage else { return }  // A second start of the same execution has no effect.
        indicator = .shown
        emit(.callback(.showLoadingIndicator))
        // The outcome is the one `FalconConfig.placementURL` returns; only a missing initSdk has an error of its own.
        switch preflight.outcome {
        case .success(let url):
            switch surface {
            case .inline: beginLoad(url, at: now)
            case .overlay:
                stage = .presenting(url: url)
                emit(.presentOverlay)
            }
        case .failure(let diagnosis):
            failPreflight(
                diagnosis.code, diagnosis.message,
                error: diagnosis.code == .initNotCalled ? .initNotCalled : .placementLoadError)
        }
    }

    private mutating func beginLoad(_ url: URL, at now: Duration) {
        emit(.renderer(.load(url, navigationID: Self.initialNavigationID)))
        generation += 1
        let deadline = now + loadTimeout
        stage = .loading(loadTimer: Armed(generation: generation, deadline: deadline))
        emit(.armTimer(.loadTimeout, deadline: deadline, generation: generation))
    }

    // MARK: Bridge and visibility

    private mutating func bridge(_ message: FalconBridgeMessage, at now: Duration) {
        switch (stage, message) {
        case (.loading, .loaded(let height)):
            if let height, height == 0 { noFill() } else { settleLoaded(height: height, at: now) }
        case (.loading, .height(let height)):
            if height > 0 { settleLoaded(height: height, at: now) }
        case (.loading, .noFill):
            noFill()
        case (.loaded(let current, let dwell), .height(let height)):
            guard surface == .inline, abs(height - current) >= 1 else { return }
            let rounded = height.rounded(.up)
            stage = .loaded(height: rounded, dwell: dwell)
            emit(.renderer(.setContentHeight(rounded)))
        case (.loading, .error), (.loaded, .error):
            fail(.bridgeReportedError, "the web content reported an error")
        case (.loading, .close), (.loaded, .close):
            close()
        case (.loading, .click(let url)), (.loaded, .click(let url)):
            let decision = FalconNavigationPolicy.decideClick(url: url, sinceLastTouch: lastTouch.map { now - $0 })
            if case .openExternally(let target) = decision { emit(.renderer(.openExternally(target))) }
        case (.loaded, .loaded), (.loaded, .noFill):
            break  // Already settled: a second settle signal changes nothing.
        case (_, .ignored):
            break  // Decoded to nothing (logged by the driver).
        case (.idle, _), (.presenting, _), (.noFill, _), (.closing, _), (.failing, _), (.unloaded, _), (.failed, _),
            (.cancelled, _):
            break  // No content is loading or showing (or it is leaving): the web content has no say.
        }
    }

    private mutating func settleLoaded(height: Double?, at now: Duration) {
        cancelTimers()
        hide()
        let sent = surface == .inline ? height.map { $0.rounded(.up) } : nil
        stage = .loaded(height: sent ?? 0, dwell: .waiting)
        if let sent { emit(.renderer(.setContentHeight(sent))) }
        emit(.callback(.load))
        if lastVisibility > 0.5 { armDwell(at: now) }
    }

    private mutating func noFill() {
        cancelTimers()
        stage = .noFill
        if surface == .overlay { emit(.dismissOverlay) }
        hide()
        emit(.finished)
    }

    private mutating func visibility(_ fraction: Double, at now: Duration) {
        lastVisibility = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        guard case .loaded(let height, let dwell) = stage else { return }
        if lastVisibility > 0.5 {
            armDwell(at: now)
        } else if case .armed = dwell {
            stage = .loaded(height: height, dwell: .waiting)
            emit(.cancelTimer(.dwell))
        }
    }

    private mutating func armDwell(at now: Duration) {
        guard case .loaded(let height, .waiting) = stage else { return }  // Armed already, or fired once.
        generation += 1
        let deadline = now + dwell
        stage = .loaded(height: height, dwell: .armed(Armed(generation: generation, deadline: deadline)))
        emit(.armTimer(.dwell, deadline: deadline, generation: generation))
    }

    private mutating func timerFired(_ timer: Timer, _ firedGeneration: Int) {
        switch (timer, stage) {
        case (.loadTimeout, .loading(let load?)) where load.generation == firedGeneration:
            stage = .loading(loadTimer: nil)
            failLoad(.webviewLoadTimedOut, "the placement produced no signal within the load timeout")
        case (.dwell, .loaded(let height, .armed(let armed))) where armed.generation == firedGeneration:
            guard lastVisibility > 0.5 else {
                stage = .loaded(height: height, dwell: .waiting)
                return
            }
            stage = .loaded(height: height, dwell: .fired)
            emit(.event(.interactive))
        case (.loadTimeout, _), (.dwell, _):
            break  // Stale: cancelled, re-armed since, or the state it was armed in has ended.
        }
    }

    // MARK: Close, dismissal, cancellation

    private mutating func close() {
        cancelTimers()
        hide()
        switch surface {
        case .inline:
            emit(.renderer(.setContentHeight(0)))
            emit(.renderer(.teardown))
            unloaded(completed: true)
        case .overlay:
            stage = .closing
            emit(.dismissOverlay)
        }
    }

    private mutating func overlayDismissed(external: Bool) {
        guard surface == .overlay else { return }
        switch stage {
        case .closing:
            unloaded(completed: true)
        case .failing(let needsHide):
            if needsHide { hide() }
            finishFailure(.placementLoadError)
        case .presenting, .loading, .loaded:
            cancelTimers()
            hide()
            unloaded(completed: false)
        case .idle:
            break  // Nothing was presented yet: the report has nothing to end.
        case .noFill, .unloaded, .failed, .cancelled:
            break  // Terminal (the step ignores every input there).
        }
    }

    private mutating func unloaded(completed: Bool) {
        stage = .unloaded
        emit(.callback(.unload))
        if completed { emit(.event(.completed)) }
        emit(.finished)
    }

    /// Host teardown, supersede or a released surface. A placement that is on screen — an inline one that has
    /// loaded, an overlay whose presentation completed — is removed from the UI, so it gets `onUnload` (without
    /// `completed`: nobody engaged with it); one that never reached the screen ends silently, with only its
    /// pending `hide` (Docs/Decisions/0111).
    private mutating func cancel() {
        let onScreen: Bool
        switch stage {
        case .idle:
            stage = .cancelled
            emit(.finished)
            return
        case .presenting: onScreen = false
        case .loading: onScreen = surface == .overlay
        case .loaded: onScreen = true
        case .closing, .failing:
            return  // The dismissal in flight finishes the execution.
        case .noFill, .unloaded, .failed, .cancelled:
            return  // Terminal.
        }
        cancelTimers()
        switch surface {
        case .inline: emit(.renderer(.teardown))
        case .overlay: emit(.dismissOverlay)
        }
        hide()
        if onScreen {
            unloaded(completed: false)
        } else {
            stage = .cancelled
            emit(.finished)
        }
    }

    // MARK: Failure

    /// FAILLOAD from Loading, FAILLATE from Loaded.
    private mutating func fail(_ code: FalconDiagnosticCode, _ message: String) {
        switch stage {
        case .loading: failLoad(code, message)
        case .loaded: failLate(code, message)
        case .idle, .presenting:
            break  // Nothing is rendering yet.
        case .closing, .failing:
            break  // The dismissal in flight finishes the execution.
        case .noFill, .unloaded, .failed, .cancelled:
            break  // Terminal.
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
            stage = .failing(needsHide: true)
            emit(.dismissOverlay)
        }
    }

    private mutating func failLate(_ code: FalconDiagnosticCode, _ message: String) {
        emit(.diagnose(code, message: message))
        cancelTimers()
        emit(.renderer(.stop))
        switch surface {
        case .inline:
            emit(.renderer(.setContentHeight(0)))
            emit(.renderer(.teardown))
            finishFailure(.placementLoadError)
        case .overlay:
            stage = .failing(needsHide: false)
            emit(.dismissOverlay)
        }
    }

    private mutating func finishFailure(_ error: FalconError) {
        stage = .failed
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
        guard indicator == .shown else { return }
        indicator = .hidden
        emit(.callback(.hideLoadingIndicator))
    }

    /// Cancels the armed timer of the current state, if any (the caller then leaves the state).
    private mutating func cancelTimers() {
        switch stage {
        case .loading(.some):
            stage = .loading(loadTimer: nil)
            emit(.cancelTimer(.loadTimeout))
        case .loaded(let height, .armed):
            stage = .loaded(height: height, dwell: .waiting)
            emit(.cancelTimer(.dwell))
        case .idle, .presenting, .loading(nil), .loaded(_, .waiting), .loaded(_, .fired), .noFill, .closing, .failing,
            .unloaded, .failed, .cancelled:
            break
        }
    }
}
