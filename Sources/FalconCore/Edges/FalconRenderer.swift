/// A command for a renderer together with the reporter it answers through.
public struct FalconRenderRequest: Sendable {
    /// What to do.
    public var command: FalconRendererCommand
    /// Where to report navigation, HTTP status, bridge messages, visibility and termination.
    public var reporter: FalconExecutionReporter

    /// Creates a request.
    package init(command: FalconRendererCommand, reporter: FalconExecutionReporter) {
        self.command = command
        self.reporter = reporter
    }
}

/// The host's web view for one placement (in place of `WKWebView`).
///
/// The core sends commands (load, stop, set content height, tear down, open a URL externally); the renderer
/// reports what happens through the request's ``FalconExecutionReporter``. Contract: a non-persistent data
/// store per execution; the bridge handler held weakly; keep the navigation delegate until teardown
/// completes; report the main-frame HTTP status from the navigation response.
///
/// **Delivery.** Commands are delivered on the client's ``FalconExecutor`` (the main queue on Apple
/// platforms), in one FIFO with the execution's callbacks, events and diagnostics and in the order the state
/// machine emitted them: `load` arrives after `onShouldShowLoadingIndicator`, never inside `execute`. A
/// command queued for an execution that ended before it was delivered (a `teardown` after a supersede) is
/// still delivered; the queued command holds the renderer until then.
public protocol FalconRenderer: Sendable {
    /// Performs one command, on the executor. Must not block; may report back at once (from inside this call)
    /// or later, on any thread: reports are queued and handled one at a time, never re-entrantly.
    func perform(_ request: FalconRenderRequest)
}

/// A renderer embedded in the host's layout, identified by object identity.
///
/// A new execute on the same surface supersedes the execution still running on it. The SDK holds the surface
/// weakly (the host owns its views): report ``FalconExecutionReporter/hostTeardown()`` when the surface is
/// removed or deallocated. A surface found released when the SDK next handles an input for its execution
/// counts as torn down (commands emitted after that have nowhere to go and are dropped).
public protocol FalconInlineSurface: FalconRenderer, AnyObject {}
