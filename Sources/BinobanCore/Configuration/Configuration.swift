#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Everything a ``Binoban`` instance is created with: credentials, thresholds, bounds and edges.
///
/// Set options in the closure given to ``BinobanFactory/create(apiKey:sourceIdentifier:configs:)``:
///
/// ```swift
/// let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SOURCE") { config in
///     config.apiHost = "api.binoban.io"
///     config.flushAt = 10
/// }
/// ```
///
/// Invalid values never throw: a blank `apiHost`, `apiKey` or `sourceIdentifier` (or a host that is not a
/// host) creates a disabled instance, and out-of-range thresholds are clamped; both are reported to
/// ``errorHandler``.
public struct Configuration: Sendable {
    /// The API key, sent as `Authorization: Basic base64(apiKey + ":")`. Never logged.
    public var apiKey: String
    /// The source identifier, sent as the batch envelope's `writeKey`.
    public var sourceIdentifier: String
    /// The ingest host, such as `api.binoban.io` (optionally with a port or a path prefix). Required.
    ///
    /// A scheme (`https://`) or a trailing slash is removed and reported. `http://` is kept only for loopback
    /// hosts (`127.0.0.1`, `localhost`, `::1`), or for any host when ``allowsCleartextHost`` is `true`;
    /// otherwise every host is reached over HTTPS.
    public var apiHost: String = ""
    /// Whether an `apiHost` written with `http://` is reached over plain HTTP even when it is not loopback: an
    /// ingest inside a private network that terminates no TLS. Default `false`: `http://` is replaced by HTTPS
    /// (reported) for every host but loopback.
    ///
    /// Only an explicit `http://` is affected: a host without a scheme, or with `https://`, is still reached over
    /// HTTPS. Events, user ids and the API key cross the network unencrypted, so turn it on only for a network
    /// you trust; every instance that uses it reports it once (``BinobanError/Kind/configurationAdjusted``).
    public var allowsCleartextHost: Bool = false
    /// The upload path appended to the host. Default `/b`.
    public var uploadPath: String = "/b"
    /// Upload once this many events are stored. Default 20; values below 1 become 20 (reported).
    public var flushAt: Int = 20
    /// Upload at this interval, in seconds. Default 30; values of 0 or less (or not finite) become 30 (reported).
    ///
    /// The one time option that is not a `Duration`: the seed spells it as a number of seconds.
    public var flushInterval: Double = 30
    /// Retries of one batch after its first transient failure, per flush. Default 3. The first batch of a flush
    /// that still fails after them is kept for a later flush, and so is the rest of that flush (the ingest counts
    /// as down): a persistent failure ends an awaited flush within the backoff of these retries.
    public var uploadMaxRetries: Int = 3
    /// The backoff before the first retry is drawn from zero up to this (millisecond precision). Default 1 second;
    /// a negative value becomes zero (reported).
    public var backoffBase: Duration = .seconds(1)
    /// The growth of the backoff ceiling per retry. Default 2.0.
    public var backoffFactor: Double = 2.0
    /// The largest backoff ceiling (millisecond precision). Default 60 seconds; a negative value becomes zero
    /// (reported).
    ///
    /// Within one flush, a batch's retry `n` waits a random share of `min(backoffMax, backoffBase ×
    /// backoffFactor^(n−1))` (at most 1 + 2 + 4 s for the default three retries), whatever other batches or
    /// earlier flushes failed; the first batch that still fails ends the flush and keeps the rest. Between flushes
    /// the wait grows with the consecutive failed rounds (during a long outage it reaches this ceiling) and
    /// resets at the first answer that is not transient.
    public var backoffMax: Duration = .seconds(60)
    /// The longest `Retry-After` honoured (delay-seconds or an HTTP-date); a longer one is shortened to this.
    /// No request of any batch is sent before a `Retry-After` has elapsed. Default 10 minutes.
    public var retryAfterLimit: Duration = .seconds(600)
    /// The oldest an event may be when it is uploaded. Default `nil`: no limit.
    ///
    /// An event's age is from its `timestamp` (when it was tracked, or the caller's
    /// `BinobanMessageFields.timestamp`) to ``wallClock``'s time when its batch is read for upload. Older events are
    /// left out of the request and deleted with their batch, counted in ``BinobanStatistics/Drops/expired``,
    /// reported as ``BinobanError/Kind/expiredEvent`` and to the ``deliveryObserver`` as `.dropped(.expired)`; a
    /// batch whose events all expired is deleted without a request. Set it for an ingest that deduplicates by
    /// `messageId` only within a window: an event retried after the window (a long outage, a backlog an earlier
    /// run left) would be counted twice if its first upload had in fact arrived. A zero or negative value is
    /// ignored (reported).
    public var maxEventAge: Duration?
    /// How long an awaited flush (``Binoban/flushAndWait()``, and `run()`'s final flush) waits for the upload
    /// gate to open. Default 60 seconds, the default ``backoffMax``: a backoff alone never ends an awaited flush,
    /// but a `Retry-After` longer than a minute does.
    ///
    /// When requests are held (a backoff, or a server's `Retry-After`) until later than this from now, the
    /// flushes awaiting them end at once as ``BinobanFlushResult/Outcome/keptForRetry``: without the limit, four
    /// 429s asking for 10 minutes each would hold the caller for 40. The batches stay stored and are sent when
    /// the gate opens, as any batch kept for retry. A negative value becomes zero (reported).
    public var awaitedFlushGateLimit: Duration = .seconds(60)
    /// Requests in flight at once: while one batch waits for its answer, others may go. Default 1 on iOS,
    /// tvOS, watchOS and visionOS (as the mobile SDK), 4 elsewhere.
    public var maxConcurrentUploads: Int = Configuration.platformConcurrentUploads
    /// At most this many batches are uploaded per flush. Default 20.
    public var maxFilesPerFlush: Int = 20
    /// Whether upload bodies are gzip-compressed and sent with `Content-Encoding: gzip`. Default `false`.
    ///
    /// A batch of small events shrinks to about a tenth. Turn it on when the ingest accepts gzip request
    /// bodies (Segment-compatible ingests do); an ingest that does not answers with an error, and a rejected
    /// batch is dropped. Decision 0212 records why it is off by default.
    public var compressesUploads: Bool = false
    /// Whether `context.device.id` carries a persisted random device identifier (otherwise the anonymousId).
    public var collectDeviceId: Bool = true
    /// Whether application lifecycle events are tracked when the host reports lifecycle. Default `true`.
    ///
    /// Nothing is observed automatically: the host forwards its callbacks to
    /// ``Binoban/applicationDidFinishLaunching(version:build:)``, ``Binoban/applicationWillEnterForeground()``
    /// and ``Binoban/applicationDidEnterBackground()``, which track `Application Installed`, `Application
    /// Updated`, `Application Opened` and `Application Backgrounded`. With `false` no lifecycle event is
    /// tracked, but the launch's version and build are still persisted and entering the background still
    /// uploads what is stored.
    public var trackApplicationLifecycleEvents: Bool = true
    /// The capacity, in events, of the write stage between `track()` and storage. Default 1000 on iOS, tvOS,
    /// watchOS and visionOS (as the mobile SDK), 100 000 elsewhere, so a server's burst waits here only while
    /// the storage writes it (events are handed to storage as fast as it takes them). When it is full, what
    /// happens follows ``backpressure``: the oldest event is dropped (``BinobanBackpressure/dropOldest``) or
    /// the new one (otherwise), counted and reported; `trackAwaitingRoom(name:properties:)` waits instead, from
    /// 1 024 queued events on.
    public var writeStageCapacity: Int = Configuration.platformWriteStageCapacity
    /// The bounds every event storage enforces: ``BinobanStorageLimits/platformDefault`` (the mobile SDK's
    /// 20 batches and 5 MB on iOS, tvOS, watchOS and visionOS; 10 000 batches and 512 MiB elsewhere).
    public var storageLimits: BinobanStorageLimits = .platformDefault
    /// What happens to new events when the storage is full (during an outage longer than the caps hold).
    /// Default ``BinobanBackpressure/dropOldest``.
    public var backpressure: BinobanBackpressure = .dropOldest
    /// The directory for batches and identity. `nil` uses the user's data directory
    /// (`$XDG_DATA_HOME` or `~/.local/share` on Linux, Application Support on Apple platforms) + `binoban`.
    ///
    /// Created (0700) when missing. It must belong to the effective user and not be writable by its group or by
    /// others; the instance locks it for its source (`<namespace>.lock`) from creation to shutdown. When it is
    /// refused or another instance or process holds it, batches and identity changes stay in memory, reported as
    /// ``BinobanError/Kind/storage`` and counted in ``BinobanStatistics/storageFallbacks``. The instance tries the
    /// directory again every 5 s and moves its batches there once it can (``Binoban/isStorageDurable``); it does
    /// the same when the directory is removed or stops taking writes while it runs.
    public var storageDirectory: URL?
    /// How durable the default file storage is: `.survivesProcessCrash` (the default: a killed process loses no
    /// stored event) or `.survivesPowerLoss` (each finished batch is also flushed to the device). Ignored when
    /// ``storage`` is set.
    public var storageDurability: BinobanFileDurability = .survivesProcessCrash
    /// The event storage. `nil` uses the durable file storage in ``storageDirectory`` (memory fallback,
    /// reported, when it cannot be opened).
    public var storage: (any BinobanEventStorage)?
    /// The key-value store holding identity. `nil` uses a file in ``storageDirectory``.
    public var keyValueStore: (any BinobanKeyValueStore)?
    /// The transport that carries batches. Default ``platformDefaultTransport()``: `URLSession` on Apple
    /// platforms (as the iOS SDK uploads), ``CurlEventTransport`` on Linux (libcurl, loaded at run time).
    ///
    /// With `nil` every batch is kept and `transportMissing` is reported once, when the instance is created, at
    /// warning level, with the line that fixes it (`config.transport = CurlEventTransport()` on Linux,
    /// `config.transport = URLSessionEventTransport()` from `BinobanCoreURLSession` elsewhere).
    public var transport: (any BinobanEventTransport)? = Configuration.platformDefaultTransport()
    /// The monotonic clock that drives the flush timer and backoff. Default `ContinuousClock()`.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// The calendar clock stamped on events and uploads. Default ``SystemWallClock``.
    public var wallClock: any BinobanWallClock = SystemWallClock()
    /// The randomness for identifiers and jitter. Default ``SystemRandomSource``.
    public var randomSource: any BinobanRandomSource = SystemRandomSource()
    /// Supplies `context.app`, `device`, `os`, `locale` and `timezone`. Default ``DefaultContextProvider``.
    public var contextProvider: any BinobanContextProvider = DefaultContextProvider()
    /// Whether the pipeline starts by itself at creation (mobile behaviour). Set `false` when the host owns the
    /// lifecycle and calls ``Binoban/run()``.
    public var startsAutomatically: Bool = true
    /// How long ``Binoban/run()`` spends draining after it is cancelled. Default 5 seconds.
    public var shutdownGracePeriod: Duration = .seconds(5)
    /// Receives every problem the SDK meets (rate-limited to one report per kind per 10 seconds).
    ///
    /// Called synchronously on whichever thread met the problem (a caller's or the pipeline's): keep it short
    /// and never call back into the instance from it.
    public var errorHandler: (@Sendable (BinobanError) -> Void)?
    /// The package's log hook: every report the ``errorHandler`` receives is also written here as a
    /// `SDKCoreLogRecord` (level `warning` or `error`, metadata `kind`, `eventCount`, `suppressedCount`).
    /// Default `nil`: nothing is written or printed unless the host asks (here, or with
    /// ``Binoban/debugLogsEnabled``).
    public var logHandler: (any SDKCoreLogHandler)?
    /// Writes this instance's debug lines whatever ``Binoban/debugLogsEnabled`` says. Package access, for the
    /// package's tests: the process-wide switch traces every instance of the process, so a test that turned it on
    /// for its own instance made another suite's concurrent test format 160 000 debug lines, which held the
    /// cooperative threads long enough to stall every other test.
    package var debugLogsForThisInstance = false
    /// Receives the pipeline's counters, gauges and upload timings as they change (labels `binoban_…`,
    /// dimensions `reason` and `outcome` only; Docs/Observability.md lists them). Default `nil`. The same
    /// figures are in ``Binoban/statistics`` at any time.
    public var metricsObserver: (any SDKCoreMetricsObserver)?
    /// Told what became of every event, once per finished batch or drop: uploaded, rejected with the status, or
    /// dropped with the reason, with the events' message ids (Docs/Observability.md). Default `nil`: the pipeline
    /// then neither reads message ids back nor keeps them. Called on the pipeline's task: keep it short.
    public var deliveryObserver: (any BinobanDeliveryObserver)?
    /// Before-send stages, run in this order on every event before it is encoded and stored (consent gating,
    /// redaction, enrichment, sampling): each may change the event or drop it with a reason, counted in
    /// ``BinobanStatistics/Drops/stageReasons``. They run on the pipeline's task, never on the caller's thread.
    /// Default empty: events then go from the caller to the encoder untouched.
    public var stages: [any BinobanEventStage] = []

    /// Creates a configuration with the Binoban defaults.
    public init(apiKey: String, sourceIdentifier: String) {
        self.apiKey = apiKey
        self.sourceIdentifier = sourceIdentifier
    }
}

extension Configuration {
    /// The default of ``maxConcurrentUploads`` on this platform.
    package static var platformConcurrentUploads: Int {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return 1
        #else
        return 4
        #endif
    }

    /// The default of ``transport`` on this platform: on Apple platforms a transport that uploads with an
    /// ephemeral `URLSession` (the behaviour of `URLSessionEventTransport`: 30-second request and 60-second
    /// upload timeouts, no cookies, redirects returned); on Linux ``CurlEventTransport`` with its defaults (the
    /// same timeouts, libcurl's multi interface on one shared thread; Decision 0308); `nil` elsewhere.
    public static func platformDefaultTransport() -> (any BinobanEventTransport)? {
        #if canImport(Darwin)
        return PlatformEventTransport()
        #elseif os(Linux)
        return CurlEventTransport()
        #else
        return nil
        #endif
    }

    /// The default of ``writeStageCapacity`` on this platform.
    package static var platformWriteStageCapacity: Int {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return 1000
        #else
        return 100_000
        #endif
    }
}
