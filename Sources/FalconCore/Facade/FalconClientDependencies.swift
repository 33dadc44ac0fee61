/// Everything a ``FalconClient`` talks to, each with a working default.
///
/// Tests build a client from FalconCoreTesting doubles (manual clock and executor, recording transport and
/// log sink, scripted renderer); apps install platform edges (main-queue executor, URLSession beacon
/// transport, a UIKit overlay presenter).
public struct FalconClientDependencies: Sendable {
    /// Where every host-facing output runs (serial, FIFO): callbacks, events, delegate calls, renderer commands
    /// and presenter operations. Pass the main queue on Apple platforms.
    public var executor: any FalconExecutor
    /// Time for timers and beacon timestamps.
    public var clock: any FalconClock
    /// The `sessionId` source.
    public var idSource: any FalconIDSource
    /// The beacon transport; `nil` (the default in FalconCore) drops each beacon with a debug log line
    /// until the host installs one, such as `URLSessionBeaconTransport` from FalconCoreURLSession.
    public var beaconTransport: (any FalconBeaconTransport)?
    /// Where log lines go.
    public var logSink: any FalconLogSink
    /// Presents overlays.
    public var overlayPresenter: any FalconOverlayPresenter
    /// The load timeout (15 s; tests and demos shorten it).
    public var loadTimeout: Duration
    /// The `platform` field of beacons.
    public var platform: String

    /// Creates dependencies; every parameter has a working default.
    public init(
        executor: any FalconExecutor = FalconDispatchQueueExecutor(),
        clock: any FalconClock = FalconSystemClock(),
        idSource: any FalconIDSource = FalconUUIDSource(),
        beaconTransport: (any FalconBeaconTransport)? = nil,
        logSink: any FalconLogSink = FalconStandardErrorLogSink(),
        overlayPresenter: any FalconOverlayPresenter = FalconUnavailableOverlayPresenter(),
        loadTimeout: Duration = .seconds(15),
        platform: String = FalconPlatform.current
    ) {
        self.executor = executor
        self.clock = clock
        self.idSource = idSource
        self.beaconTransport = beaconTransport
        self.logSink = logSink
        self.overlayPresenter = overlayPresenter
        self.loadTimeout = loadTimeout
        self.platform = platform
    }
}
