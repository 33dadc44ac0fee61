/// Everything a ``FalconClient`` talks to, each with a working default.
///
/// Tests build a client from FalconCoreTesting doubles (manual clock and executor, recording transport and
/// log handler, scripted renderer); apps install platform edges (main-queue executor, URLSession beacon
/// transport, a UIKit overlay presenter). A host sets the edges once, through the initializer; the client
/// reads them.
public struct FalconClientDependencies: Sendable {
    /// Where every host-facing output runs.
    package var executor: any FalconExecutor
    /// Time for timers and beacon timestamps.
    package var clock: any FalconClock
    /// The `sessionId` source.
    package var idSource: any FalconIDSource
    /// The beacon transport, or `nil` for none.
    package var beaconTransport: (any FalconBeaconTransport)?
    /// Where log lines go, or `nil` for nowhere.
    package var logHandler: (any SDKCoreLogHandler)?
    /// Receives the client's counters as they change, or `nil`.
    package var metricsObserver: (any SDKCoreMetricsObserver)?
    /// Presents overlays.
    package var overlayPresenter: any FalconOverlayPresenter
    /// The load timeout.
    package var loadTimeout: Duration
    /// The `platform` field of beacons.
    package var platform: String

    /// Creates dependencies; every parameter has a working default.
    ///
    /// - Parameters:
    ///   - executor: Where every host-facing output runs (serial, FIFO): callbacks, events, delegate calls,
    ///     renderer commands and presenter operations. The default is the main queue on Apple platforms and a
    ///     private serial queue elsewhere.
    ///   - clock: Time for timers and beacon timestamps; the default is the system's continuous clock.
    ///   - idSource: The `sessionId` source; the default makes a random UUID per execution.
    ///   - beaconTransport: The beacon transport: by default `URLSession` on Apple platforms,
    ///     ``CurlBeaconTransport`` (libcurl) on Linux. With `nil` the first beacon that cannot be sent logs one
    ///     warning naming the fix, later ones a debug line each.
    ///   - logHandler: Where log lines go (the package's one log hook): by default `FalconUnifiedLogHandler`
    ///     (the unified log) on Apple platforms, nothing elsewhere. Messages never carry the URL, attributes,
    ///     the API key or text posted by the web content; error and warning lines carry the diagnostic's `code`
    ///     in their metadata.
    ///   - overlayPresenter: Presents overlays; by default there is nowhere to present, so every overlay fails
    ///     with ``FalconDiagnosticCode/noPresenter``.
    ///   - metricsObserver: Receives the client's counters as they change (executions by outcome, diagnostics
    ///     by code, beacons sent, failed and dropped; see ``FalconStatistics``). Default `nil`.
    ///   - loadTimeout: The load timeout (15 s; tests and demos shorten it).
    ///   - platform: The `platform` field of beacons (`iOS`, `macOS`, `linux`, … by default).
    public init(
        executor: any FalconExecutor = FalconDispatchQueueExecutor(),
        clock: any FalconClock = FalconSystemClock(),
        idSource: any FalconIDSource = FalconUUIDSource(),
        beaconTransport: (any FalconBeaconTransport)? = FalconClientDependencies.platformBeaconTransport(),
        logHandler: (any SDKCoreLogHandler)? = FalconClientDependencies.platformLogHandler(),
        overlayPresenter: any FalconOverlayPresenter = FalconUnavailableOverlayPresenter(),
        metricsObserver: (any SDKCoreMetricsObserver)? = nil,
        loadTimeout: Duration = .seconds(15),
        platform: String = FalconPlatform.current
    ) {
        self.executor = executor
        self.clock = clock
        self.idSource = idSource
        self.beaconTransport = beaconTransport
        self.logHandler = logHandler
        self.overlayPresenter = overlayPresenter
        self.metricsObserver = metricsObserver
        self.loadTimeout = loadTimeout
        self.platform = platform
    }
}

extension FalconClientDependencies {
    /// The default beacon transport: on Apple platforms one that posts with an ephemeral `URLSession` (the
    /// behaviour of `URLSessionBeaconTransport`), so beacons are on by default as in the iOS SDK; on Linux
    /// ``CurlBeaconTransport`` (libcurl's multi interface, loaded at run time; FalconCore still links no
    /// FoundationNetworking); `nil` elsewhere.
    @usableFromInline package static func platformBeaconTransport() -> (any FalconBeaconTransport)? {
        #if canImport(Darwin)
        return FalconPlatformBeaconTransport()
        #elseif os(Linux)
        return CurlBeaconTransport()
        #else
        return nil
        #endif
    }

    /// The default log handler: `FalconUnifiedLogHandler` (the unified log, subsystem `us.falconlabs.FalconSDK`,
    /// category `diagnostics`, as the iOS SDK writes it) where the `os` module exists; `nil` elsewhere, so
    /// nothing is printed unless the host installs a handler (such as `SDKCoreStreamLogHandler`).
    @usableFromInline package static func platformLogHandler() -> (any SDKCoreLogHandler)? {
        #if canImport(os)
        return FalconUnifiedLogHandler()
        #else
        return nil
        #endif
    }
}
