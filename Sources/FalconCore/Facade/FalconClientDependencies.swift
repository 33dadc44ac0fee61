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
    /// The beacon transport; the default is ``platformBeaconTransport()``: `URLSession` on Apple platforms,
    /// `nil` on Linux. With `nil` the first beacon that cannot be sent logs one warning naming the fix
    /// (install `URLSessionBeaconTransport` from FalconCoreURLSession), later ones a debug line each.
    public var beaconTransport: (any FalconBeaconTransport)?
    /// Where log lines go (the log hook); the default is ``platformLogSink()``.
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
        beaconTransport: (any FalconBeaconTransport)? = FalconClientDependencies.platformBeaconTransport(),
        logSink: any FalconLogSink = FalconClientDependencies.platformLogSink(),
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

extension FalconClientDependencies {
    /// The default beacon transport: on Apple platforms one that posts with an ephemeral `URLSession` (the
    /// behaviour of `URLSessionBeaconTransport`), so beacons are on by default as in the iOS SDK; `nil` on
    /// Linux, where FalconCore does not link FoundationNetworking. There, install the transport in one line:
    ///
    /// ```swift
    /// Falcon.shared = FalconClient(dependencies: .init(beaconTransport: URLSessionBeaconTransport()))
    /// ```
    public static func platformBeaconTransport() -> (any FalconBeaconTransport)? {
        #if canImport(Darwin)
        return FalconPlatformBeaconTransport()
        #else
        return nil
        #endif
    }

    /// The default log sink: `FalconUnifiedLogSink` (the unified log, subsystem `us.falconlabs.FalconSDK`,
    /// category `diagnostics`) where the `os` module exists, ``FalconStandardErrorLogSink`` elsewhere.
    public static func platformLogSink() -> any FalconLogSink {
        #if canImport(os)
        return FalconUnifiedLogSink()
        #else
        return FalconStandardErrorLogSink()
        #endif
    }
}
