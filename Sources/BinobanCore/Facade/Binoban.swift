/// A Binoban analytics instance: tracks events, keeps identity, batches and uploads.
///
/// Create one with ``BinobanFactory/create(apiKey:sourceIdentifier:configs:)`` or ``create(configuration:)``.
/// Every call returns at once: events are stamped on the caller's thread and handed to the instance's own
/// task, which encodes, stores and uploads them. No call blocks on I/O, throws for runtime conditions or traps.
///
/// ```swift
/// let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SOURCE") { config in
///     config.apiHost = "api.binoban.io"
///     config.transport = URLSessionEventTransport()
/// }
/// binoban.identify(userId: "user_123", traits: ["email": "test@example.com"])
/// binoban.track(name: "purchase", properties: ["item": "shoes", "price": "49.99"])
/// ```
public final class Binoban: Sendable {
    /// The version of this library, sent in `context.library.version` and the `User-Agent`: the package's
    /// `SDKCoreVersion.current`.
    public static var version: String { SDKCoreVersion.current }

    /// Verbose console logging for debugging an integration. Default `false`: nothing is printed unless the host
    /// asks.
    ///
    /// While on, every instance prints to standard output — and writes to its ``Configuration/logHandler`` when
    /// one is installed — a `debug` line for each track and identify accepted (or dropped while paused), each
    /// flush (requested, and the stored batches it found), each upload (batch number, events, bytes) and its
    /// answer (HTTP status and what it means for the batch), besides every report (also delivered to
    /// ``Configuration/errorHandler``). Lines carry event names and counts only: never property or trait
    /// values, user ids, anonymous ids, tokens or the API key. Off, the hot path pays one read of this switch.
    ///
    /// Standard output is written from a queue of the SDK's own, so the call that logs never waits for the
    /// console (a terminal, or a pipe read slowly). At most 4 096 lines wait; a line past that is dropped, and
    /// the next line written says how many were. The log hook is called on the caller's thread, as always.
    public static var debugLogsEnabled: Bool {
        get { BinobanDebugLog.isEnabled }
        set { BinobanDebugLog.isEnabled = newValue }
    }

    /// The working parts; `nil` for a disabled instance.
    let runtime: BinobanRuntime?
    /// ``runtime`` again, unretained, for the event calls: every producer shares the runtime, and a reference to it
    /// copied out of this instance is a retain and a release, atomic writes to one counter from all of them.
    /// `runtime` keeps it alive for as long as this instance lives.
    private let unretainedRuntime: Unmanaged<BinobanRuntime>?
    private let runState = LockedValue(RunState.idle)

    /// The configuration the instance was created with (thresholds as configured, before any runtime change).
    public let configuration: Configuration

    /// The anonymous id a disabled instance answers: random, stable for the instance's life.
    private let disabledAnonymousId: String

    init(core: BinobanRuntime?, configuration: Configuration, disabledAnonymousId: String = "") {
        self.runtime = core
        unretainedRuntime = core.map { Unmanaged.passUnretained($0) }
        self.configuration = configuration
        self.disabledAnonymousId = disabledAnonymousId
    }

    /// An instance released without ``shutdown(gracePeriod:)`` stops as a shutdown with no grace period would, off
    /// the releasing thread: queued events are still written to storage (for the next run), no request starts, one
    /// still out is cancelled (its batch stays stored), and then its thread ends and its storage directory is given
    /// back. An instance created on the same directory and source before that keeps its batches in memory until
    /// it takes the directory at its next try; shut an instance down before creating its successor (Decision
    /// 0236).
    deinit {
        guard let driver = runtime?.driver else { return }
        // Nothing can await a deinit: the task holds the driver until its drain (bounded by the zero deadline
        // and the storage call in progress) ends.
        Task.detached { _ = await driver.shutdown(deadline: .zero) }
    }

    /// Creates an instance. Never throws: an invalid configuration yields a disabled instance (every call a
    /// no-op, no file written, no request sent) and a report to ``Configuration/errorHandler``.
    public static func create(configuration: Configuration) -> Binoban {
        BinobanAssembly.assemble(configuration)
    }

    /// Whether the configuration was valid. A disabled instance ignores every call.
    ///
    /// An operational instance may still keep its batches in memory (its storage directory is used by another
    /// process, was removed, or cannot be written): ``isStorageDurable`` tells.
    public var isOperational: Bool { runtime != nil }

    /// Whether the instance's batches are kept durably right now: in its storage directory (or in the storage the
    /// host configured). `false` while it keeps them in memory after a fallback, which it leaves by itself once
    /// the directory can be used again (``BinobanStatistics/storageIsDurable``), and for a disabled instance.
    public var isStorageDurable: Bool { runtime?.storageIsDurable.withLock { $0 } ?? false }

    /// The library version (the same as the static `Binoban.version`).
    public func version() -> String { Self.version }

    // MARK: Events

    /// Records an event named `name` with `properties`.
    ///
    /// The event is stamped with a message id, the time and the current identity now, and encoded and stored
    /// off the caller's thread. Dropped silently while ``enabled`` is `false`.
    public func track(name: String, properties: JSONValue = [:]) {
        accept(.track, name: name, payload: properties)
    }

    /// Records an event with properties given as `[String: Any]`; values JSON cannot carry are dropped and
    /// reported (``BinobanError/Kind/propertyConversion``).
    public func track(name: String, properties: [String: Any]) {
        track(name: name, properties: convert(properties))
    }

    /// Records an event like `track(name:properties:)`, but instead of ever dropping an event it suspends
    /// while the write stage holds 1 024 events (or is full, if ``Configuration/writeStageCapacity`` is
    /// smaller) until the writer takes them, so a fast producer is slowed to what the storage takes and keeps
    /// only a few megabytes of events in memory.
    ///
    /// Returns `true` when the event was accepted; `false` when the instance is disabled, paused (counted
    /// like any paused drop) or shut down, or the calling task was cancelled while waiting.
    @discardableResult
    public func trackAwaitingRoom(name: String, properties: JSONValue = [:]) async -> Bool {
        guard let runtime else { return false }
        let messageId = MessageID.random(from: runtime.random)
        let now = configuration.wallClock.currentMillisecondsSince1970()
        let intake = runtime.intake
        while true {
            guard let snapshot = intake.encodingSnapshot(awaitsRoom: true) else {
                return await intake.acceptWaitingForRoom { current in
                    PendingEvent(
                        kind: .track, name: name, payload: properties, messageId: messageId, timestampMillis: now,
                        anonymousId: current.anonymousId, userId: current.userId, deviceToken: current.deviceToken)
                }
            }
            let json = snapshot.encodeMobile(
                .track, name: name, payload: properties, messageId: messageId, timestampMillis: now)
            let event = EncodedEvent(json: json, messageId: EventMessageID(generated: messageId), isAwaited: false)
            // `nil`: the identity changed while this caller encoded (or waited for room); encode again.
            if let admission = await intake.acceptWaitingForRoom(event, against: snapshot) {
                return admission == .accepted
            }
        }
    }

    /// The pipeline's cumulative counts: events accepted, stored, uploaded and dropped by reason, requests by
    /// outcome, retries, the queue depth, and the fallbacks to memory storage. All zero for a disabled instance.
    public var statistics: BinobanStatistics { runtime?.currentStatistics ?? BinobanStatistics() }

    /// Deletes the backlog, the events stored and not yet uploaded, and returns what was deleted once it is.
    ///
    /// Batches being uploaded right now are not recalled (their outcome is on its way), and events still in the
    /// write stage are stored afterwards. The deleted events are counted in ``BinobanStatistics/Drops/purged``
    /// and reported to the ``Configuration/deliveryObserver`` as dropped (`.purged`). A disabled or shut down
    /// instance deletes nothing.
    @discardableResult
    public func purgeBacklog() async -> BinobanPurgeResult {
        await runtime?.driver.purgeBacklog() ?? BinobanPurgeResult()
    }

    /// Identifies the current person: sets `userId` (a blank one keeps the current userId), replaces the
    /// stored traits with `traits`, persists both and records an identify event.
    public func identify(userId: String, traits: JSONValue = [:]) {
        guard let runtime else { return }
        let messageId = MessageID.random(from: runtime.random)
        let now = configuration.wallClock.currentMillisecondsSince1970()
        let newTraits: JSONValue = traits.objectValue == nil ? [:] : traits
        runtime.intake.changeIdentity { identity in
            if !userId.trimmingWhitespace().isEmpty { identity.userId = userId }
            identity.traits = newTraits
        } thenEmit: { identity in
            PendingEvent(
                kind: .identify,
                name: "",
                payload: newTraits,
                messageId: messageId,
                timestampMillis: now,
                anonymousId: identity.anonymousId,
                userId: identity.userId,
                deviceToken: identity.deviceToken
            )
        }
        if debugLogIsOn {
            debugLog.event(
                .identify, name: "", fieldCount: newTraits.objectValue?.count ?? 0,
                accepted: runtime.intake.settings.enabled)
        }
    }

    /// Identifies the current person with traits given as `[String: Any]`.
    public func identify(userId: String, traits: [String: Any]) {
        identify(userId: userId, traits: convert(traits))
    }

    /// Registers the push token: later events carry it in `context.device.token` (it is persisted), and a
    /// `bb_notification_registered` event with `{"token": token}` is recorded. A blank token is ignored.
    public func setDeviceToken(token: String) {
        guard let runtime, !token.trimmingWhitespace().isEmpty else { return }
        runtime.intake.changeIdentity({ $0.deviceToken = token }, thenEmit: nil)
        track(name: "bb_notification_registered", properties: ["token": .string(token)])
    }

    // MARK: Identity

    /// Forgets the person: a new anonymousId, no userId, no traits (persisted). Call it on logout. Events
    /// accepted before keep the old identity; stored batches and the device token are kept.
    public func reset() {
        guard let runtime else { return }
        let newAnonymousId = MessageID.make(from: runtime.random)
        runtime.intake.changeIdentity(
            { identity in
                identity.anonymousId = newAnonymousId
                identity.userId = nil
                identity.traits = [:]
            },
            thenEmit: nil
        )
    }

    /// The anonymous id; always present. A disabled instance answers a random id of its own, stable for its
    /// life (it is never persisted, as a disabled instance writes nothing).
    ///
    /// Discardable, as the seed calls it as a statement (`binoban.anonymousId()   // String — always present`).
    @discardableResult
    public func anonymousId() -> String { runtime?.intake.identity.anonymousId ?? disabledAnonymousId }

    /// The user id set by the last `identify(userId:traits:)` (or restored from storage), or `nil`.
    public func userId() -> String? { runtime?.intake.identity.userId }

    /// The traits set by the last identify (an empty object when none).
    public func traits() -> JSONValue { runtime?.intake.identity.traits ?? [:] }

    /// The device id sent in `context.device.id`: a persisted random id, or the anonymousId when
    /// ``Configuration/collectDeviceId`` is `false`.
    public func deviceId() -> String {
        guard let identity = runtime?.intake.identity else { return "" }
        return configuration.collectDeviceId ? identity.deviceId : identity.anonymousId
    }

    // MARK: Runtime controls

    /// Pauses (`false`) or resumes (`true`) the instance. Paused: new events are dropped, timers stop, stored
    /// batches are kept. Resuming uploads what is stored and restarts the interval timer.
    public var enabled: Bool {
        get { runtime?.intake.settings.enabled ?? false }
        set { runtime?.intake.updateSettings { $0.enabled = newValue } }
    }

    /// The count threshold, changeable at runtime; values below 1 are reported and ignored.
    public var flushAt: Int {
        get { runtime?.intake.settings.flushAt ?? configuration.flushAt }
        set {
            guard let runtime else { return }
            guard newValue >= 1 else {
                runtime.reporter.report(.configurationAdjusted, "flushAt \(newValue) is below 1; kept the old value")
                return
            }
            runtime.intake.updateSettings { $0.flushAt = newValue }
        }
    }

    /// The flush interval in seconds, changeable at runtime (the timer is rescheduled at once); values that are
    /// not positive are reported and ignored.
    public var flushInterval: Double {
        get {
            guard let interval = runtime?.intake.settings.flushInterval else { return configuration.flushInterval }
            let (seconds, attoseconds) = interval.components
            return Double(seconds) + Double(attoseconds) / 1e18
        }
        set {
            guard let runtime else { return }
            var adjustments: [String] = []
            let interval = ValidatedConfiguration.interval(newValue, adjustments: &adjustments)
            guard adjustments.isEmpty else {
                runtime.reporter.report(.configurationAdjusted, "flushInterval \(newValue) ignored; kept the old value")
                return
            }
            runtime.intake.updateSettings { $0.flushInterval = interval }
        }
    }

    // MARK: Flushing and lifecycle

    /// Uploads what is stored now, after every event accepted before this call is stored. Returns at once,
    /// from synchronous and async code alike (the seed's `flush()`); ``flushAndWait()`` is the one that waits.
    public func flush() {
        guard let runtime else { return }
        if debugLogIsOn { debugLog.flushRequested(awaited: false) }
        _ = runtime.intake.requestFlush(waiterID: nil)
    }

    /// Uploads everything accepted before this call and returns when it was uploaded or failed for good, or
    /// when a batch is kept after its retries (at most 1 + 2 + 4 s of backoff with the defaults), or at once when
    /// uploads are held longer than ``Configuration/awaitedFlushGateLimit``. Cancelling the calling task returns
    /// ``BinobanFlushResult/Outcome/interrupted``.
    ///
    /// It has its own name rather than being an `async` overload of ``flush()``: an overload would hide the
    /// fire-and-forget call from async code and, at top level, be chosen over this one.
    @discardableResult
    public func flushAndWait() async -> BinobanFlushResult {
        guard let runtime else { return BinobanFlushResult(outcome: .paused) }
        if debugLogIsOn { debugLog.flushRequested(awaited: true) }
        let id = runtime.waiters.makeID()
        let result = await runtime.waiters.wait(id: id) {
            if !runtime.intake.requestFlush(waiterID: id, baseline: runtime.flushBaseline) {
                runtime.waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted))
            }
        }
        if debugLogIsOn { debugLog.flushFinished(result) }
        return result
    }

    /// Flushes what it can within `gracePeriod` (a duration measured on the configured clock from this call),
    /// then stops for good: later calls are no-ops.
    ///
    /// Every event accepted before the call is written to storage, and a final flush uploads what is stored until
    /// the grace period ends; the result is that flush's (``BinobanFlushResult/Outcome/interrupted`` when the
    /// grace period ended first). Batches not uploaded by then stay in storage for the next run (the in-memory
    /// storage loses them with the process); events a full storage still refuses at the deadline are dropped and
    /// counted (``BinobanStatistics/Drops``).
    ///
    /// No request starts once the grace period has ended: with `.zero`, nothing is sent and the result is
    /// ``BinobanFlushResult/Outcome/interrupted``. A request still out at the deadline is cancelled and its batch
    /// kept; if the ingest received it anyway, the next run sends it again (at least once, never lost).
    ///
    /// The calling task's cancellation does not shorten it: a service is often stopped from a task that is
    /// already cancelled, and the host still expects the final flush. Only `gracePeriod` bounds it, so it returns
    /// within the grace period (plus the time a storage call in progress takes) whatever the caller's state.
    @discardableResult
    public func shutdown(gracePeriod: Duration) async -> BinobanFlushResult {
        guard let runtime else { return BinobanFlushResult(outcome: .paused) }
        return await runtime.driver.shutdown(deadline: gracePeriod)
    }

    /// Runs the instance until the calling task is cancelled, then drains for at most
    /// ``Configuration/shutdownGracePeriod`` and returns: the swift-service-lifecycle `Service` shape.
    ///
    /// Starts the pipeline if ``Configuration/startsAutomatically`` is `false`. Throws
    /// ``BinobanError/Kind/alreadyRunning`` when another `run()` of this instance is active.
    ///
    /// ```swift
    /// try await withThrowingTaskGroup(of: Void.self) { group in
    ///     group.addTask { try await binoban.run() }
    ///     // … the server …
    /// }
    /// ```
    public func run() async throws {
        guard runState.withLock({ $0.claim() }) else {
            throw BinobanError(kind: .alreadyRunning, message: "run() is already active for this instance")
        }
        defer { runState.withLock { $0.ended() } }
        guard let runtime else {
            await CancellationWait.untilCancelled()
            return
        }
        await runtime.driver.start()
        await CancellationWait.untilCancelled()
        runState.withLock { $0.cancelled() }
        // The shutdown ignores this task's cancellation: its drain is bounded by the grace period alone.
        _ = await runtime.driver.shutdown(deadline: configuration.shutdownGracePeriod)
    }

    // MARK: Helpers

    /// Stamps a mobile event with the current identity, encodes it on the caller's thread and hands it to the
    /// intake; `false` when the instance is disabled, paused or stopped. Server calls go through
    /// `acceptServerCall`.
    @discardableResult
    func accept(_ kind: PendingEvent.Kind, name: String, payload: JSONValue) -> Bool {
        guard let unretainedRuntime else { return false }
        let now = configuration.wallClock.currentMillisecondsSince1970()
        let accepted = unretainedRuntime._withUnsafeGuaranteedRef { runtime in
            runtime.intake.acceptMobile(
                kind, name: name, payload: payload, messageId: MessageID.random(from: runtime.random),
                timestampMillis: now)
        }
        if debugLogIsOn {
            debugLog.event(kind, name: name, fieldCount: payload.objectValue?.count ?? 0, accepted: accepted)
        }
        return accepted
    }

    /// The instance's debug lines (written only while ``debugLogsEnabled`` is on).
    var debugLog: BinobanDebugLog { BinobanDebugLog(for: configuration) }

    /// Whether debug lines are written: one read of the switch, and of the configuration only while it is off.
    var debugLogIsOn: Bool { BinobanDebugLog.isOn(forThisInstance: configuration.debugLogsForThisInstance) }

    func convert(_ dictionary: [String: Any]) -> JSONValue {
        let conversion = JSONValue.convert(dictionary)
        if !conversion.issues.isEmpty, let runtime {
            runtime.reporter.report(
                .propertyConversion,
                "values JSON cannot carry were dropped or nulled: "
                    + conversion.issues.map(\.description).joined(separator: ", ")
            )
        }
        return conversion.value
    }
}
