/// A renderer that plays a web placement from a script on the injected clock.
///
/// When the core sends `load`, every cue is scheduled at load time + `cue.at`; `stop` and `teardown` cancel
/// what has not played yet (a real web view stops too). ``play(_:)`` reports a step immediately, at any time,
/// even after teardown, to test late reports. An empty script is a placement that hangs.
///
/// ```swift
/// let renderer = ScriptedRenderer(clock: clock, script: [
///     .init(at: .milliseconds(50), .respond(status: 200)),
///     .init(at: .milliseconds(120), .loaded(height: 240)),
/// ])
/// client.execute(attributes: attributes, placement: .inline(renderer))
/// ```
public final class ScriptedRenderer: FalconInlineSurface {
    /// One thing the web placement does.
    public enum Step: Sendable, Hashable {
        /// The main-frame response of the initial navigation, with an HTTP status.
        case respond(status: Int)
        /// The initial navigation finished.
        case finish
        /// The initial navigation failed provisionally.
        case failProvisional(errorCode: Int)
        /// The initial navigation failed after commit.
        case failCommitted(errorCode: Int)
        /// The initial navigation was cancelled (never a failure).
        case cancelNavigation
        /// The content posts a bridge message (iOS shape).
        case post(JSONValue)
        /// The content posts a bridge message as a JSON string (Android shape).
        case postJSON(String)
        /// The visible fraction changes.
        case visibility(Double)
        /// The user touches the placement.
        case touch
        /// The web content process terminates.
        case terminate
        /// The host removes the surface.
        case hostTeardown

        /// The bridge envelope `{"type":"event","name":name,"data":data}`.
        public static func event(_ name: String, _ data: JSONValue = [:]) -> Step {
            .post(["type": "event", "name": .string(name), "data": data])
        }

        /// The content rendered, optionally reporting its height.
        public static func loaded(height: Double?) -> Step {
            event("loaded", height.map { ["height": .double($0)] } ?? [:])
        }

        /// The content reports a height.
        public static func height(_ value: Double) -> Step { event("height", ["height": .double(value)]) }

        /// The content has nothing to show.
        public static let noFill = event("noFill")

        /// The content closes the placement.
        public static let close = event("close", ["closeType": "user"])

        /// The content reports an error (its text must never reach a diagnostic).
        public static func error(_ text: String = "boom") -> Step { event("error", ["message": .string(text)]) }

        /// The content asks to open `url` externally.
        public static func click(_ url: String) -> Step { event("click", ["index": 0, "clickUrl": .string(url)]) }
    }

    /// A step and when it plays, relative to `load`.
    public struct Cue: Sendable, Hashable {
        /// Offset from the `load` command.
        public var at: Duration
        /// What happens.
        public var step: Step

        /// Creates a cue.
        public init(at: Duration, _ step: Step) {
            self.at = at
            self.step = step
        }
    }

    private struct State {
        var commands: [FalconRendererCommand] = []
        var reporter: FalconExecutionReporter?
        var navigationID = 0
        var pending: [any FalconTimerHandle] = []
        var contentHeight: Double = 0
    }

    private let clock: any FalconClock
    private let script: [Cue]
    private let state = LockedValue(State())

    /// Creates a renderer playing `script` on `clock` after each `load`.
    public init(clock: any FalconClock, script: [Cue]) {
        self.clock = clock
        self.script = script
    }

    /// Records the command; `load` schedules the script, `stop` and `teardown` cancel what is pending.
    public func perform(_ request: FalconRenderRequest) {
        let toCancel = state.withLock { state -> [any FalconTimerHandle] in
            state.commands.append(request.command)
            switch request.command {
            case .load(_, let navigationID):
                state.reporter = request.reporter
                state.navigationID = navigationID
                return []
            case .stop, .teardown:
                defer { state.pending = [] }
                return state.pending
            case .setContentHeight(let height):
                state.contentHeight = height
                return []
            case .openExternally:
                return []
            }
        }
        for handle in toCancel { handle.cancel() }
        guard case .load = request.command else { return }
        let start = clock.now()
        for cue in script {
            let handle = clock.schedule(
                // Strong on purpose: a placement whose script is still playing keeps its renderer alive, as a
                // loading web view would; the clock drops the closure once it fires or is cancelled.
                FalconTimerRequest(deadline: start + cue.at) { self.play(cue.step) }
            )
            state.withLock { $0.pending.append(handle) }
        }
    }

    /// Reports `step` now through the reporter of the last `load`.
    public func play(_ step: Step) {
        guard let (reporter, id) = state.withLock({ state in state.reporter.map { ($0, state.navigationID) } }) else {
            return
        }
        switch step {
        case .respond(let status): reporter.navigationResponse(navigationID: id, isMainFrame: true, status: status)
        case .finish: reporter.navigationFinished(navigationID: id)
        case .failProvisional(let code):
            reporter.navigationFailed(navigationID: id, phase: .provisional, isCancelled: false, errorCode: code)
        case .failCommitted(let code):
            reporter.navigationFailed(navigationID: id, phase: .committed, isCancelled: false, errorCode: code)
        case .cancelNavigation:
            reporter.navigationFailed(navigationID: id, phase: .provisional, isCancelled: true, errorCode: -999)
        case .post(let message): reporter.bridgeMessage(message)
        case .postJSON(let text): reporter.bridgeMessage(json: text)
        case .visibility(let fraction): reporter.visibility(fraction)
        case .touch: reporter.userTouch()
        case .terminate: reporter.rendererTerminated()
        case .hostTeardown: reporter.hostTeardown()
        }
    }

    /// Every command received, in order.
    public var commands: [FalconRendererCommand] { state.withLock { $0.commands } }

    /// The last height set by the core (0 until content loads).
    public var contentHeight: Double { state.withLock { $0.contentHeight } }
}
