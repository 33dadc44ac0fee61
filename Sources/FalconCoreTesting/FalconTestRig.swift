/// A `FalconClient` wired to deterministic doubles: a manual executor and clock, sequential session ids,
/// a recording log sink and a ``FalconTimeline`` as diagnostics delegate and beacon transport.
///
/// ```swift
/// let rig = FalconTestRig()
/// rig.client.initSdk(apiKey: "KEY")
/// let renderer = rig.renderer([.init(at: .milliseconds(100), .loaded(height: 120))])
/// rig.execute(["placement_details": ["view": "ORDER_STATUS"]], placement: .inline(renderer))
/// rig.clock.advance(by: .seconds(1))
/// rig.timeline.entries  // [callback onShouldShowLoadingIndicator, callback onShouldHideLoadingIndicator, callback onLoad]
/// ```
public struct FalconTestRig: Sendable {
    /// Runs callbacks only when the clock advances (or `executor.runAll()`).
    public let executor: ManualFalconExecutor
    /// The manual clock, linked to ``executor``.
    public let clock: ManualFalconClock
    /// Every log line.
    public let logs: InMemoryLogHandler
    /// Callbacks, events, diagnostics and beacons.
    public let timeline: FalconTimeline
    /// The client under test.
    public let client: FalconClient

    /// Creates a rig. `presenter` defaults to one that is never available.
    public init(
        loadTimeout: Duration = .seconds(15),
        presenter: (any FalconOverlayPresenter)? = nil,
        beaconTransport: (any FalconBeaconTransport)? = nil,
        platform: String = "test"
    ) {
        let executor = ManualFalconExecutor()
        let clock = ManualFalconClock(executor: executor)
        let logs = InMemoryLogHandler()
        let timeline = FalconTimeline(clock: clock)
        self.executor = executor
        self.clock = clock
        self.logs = logs
        self.timeline = timeline
        self.client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor,
                clock: clock,
                idSource: SequentialFalconIDSource(),
                beaconTransport: beaconTransport ?? timeline,
                logHandler: logs,
                overlayPresenter: presenter ?? InMemoryOverlayPresenter.unavailable(),
                loadTimeout: loadTimeout,
                platform: platform
            )
        )
        client.diagnosticsDelegate = timeline
    }

    /// A scripted renderer on this rig's clock.
    public func renderer(_ script: [ScriptedRenderer.Cue]) -> ScriptedRenderer {
        ScriptedRenderer(clock: clock, script: script)
    }

    /// Executes with every callback recorded in ``timeline``.
    public func execute(
        _ attributes: JSONValue,
        placement: FalconPlacement,
        style: FalconStyle? = nil,
        isSandbox: Bool = false
    ) {
        let callbacks = timeline.callbacks()
        client.execute(
            attributes: attributes,
            placement: placement,
            style: style,
            onLoad: callbacks.onLoad,
            onUnload: callbacks.onUnload,
            onError: callbacks.onError,
            onShouldShowLoadingIndicator: callbacks.onShouldShowLoadingIndicator,
            onShouldHideLoadingIndicator: callbacks.onShouldHideLoadingIndicator,
            isSandbox: isSandbox
        )
    }
}
