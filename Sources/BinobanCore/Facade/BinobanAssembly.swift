#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds an instance from a configuration: validation, identity loading, storage choice, the driver.
enum BinobanAssembly {
    static func assemble(_ configuration: Configuration) -> Binoban {
        let clock = configuration.clock
        let elapsed = elapsedTime(on: clock)
        let reporter = ErrorReporter(
            handler: configuration.errorHandler, logHandler: configuration.logHandler, elapsed: elapsed)
        let validated = ValidatedConfiguration(configuration)
        if !validated.adjustments.isEmpty {
            reporter.report(.configurationAdjusted, validated.adjustments.joined(separator: "; "))
        }
        guard validated.isValid, let endpoint = validated.endpoint else {
            reporter.report(
                .invalidConfiguration,
                "the instance is disabled (every call is a no-op): "
                    + validated.invalidReasons.joined(separator: "; ")
            )
            return Binoban(
                core: nil, configuration: configuration,
                disabledAnonymousId: MessageID.make(from: configuration.randomSource))
        }

        if configuration.transport == nil {
            // Once, at creation, at warning level: the pipeline's later passes add nothing (ErrorReporter).
            reporter.report(.transportMissing, MissingEventTransport.creationWarning)
        }

        let random = configuration.randomSource
        let namespace = BinobanFileEventStorage.namespace(forSourceIdentifier: configuration.sourceIdentifier)
        let directory = configuration.storageDirectory ?? StorageLocation.defaultDirectory()
        let needsDirectory = configuration.storage == nil || configuration.keyValueStore == nil
        let fallbacks = StorageFallbackCounter(observer: configuration.metricsObserver)
        let inMemory = "this instance keeps its batches and identity changes in memory"
        var lock: NamespaceLock?
        // Whether the identity file may be read: not from a directory refused as someone else's.
        var readsIdentityFile = true
        if needsDirectory, let directory {
            if !StorageLocation.claim(directory: directory, namespace: namespace) {
                fallbacks.add()
                reporter.report(
                    .storage,
                    "another instance in this process uses the storage directory \(directory.path) for the same "
                        + "source (one released without a shutdown keeps it until it has stored what it held); "
                        + inMemory)
            } else {
                do {
                    lock = try NamespaceLock.acquire(directory: directory, namespace: namespace)
                } catch {
                    StorageLocation.release(directory: directory, namespace: namespace)
                    readsIdentityFile = error.code != .unsafeOwnership
                    fallbacks.add()
                    reporter.report(.storage, "\(error.message); \(inMemory)")
                }
            }
        } else if needsDirectory {
            fallbacks.add()
            reporter.report(.storage, "no user data directory could be determined; batches and identity stay in memory")
        }
        let heldLock = lock
        let ownsDirectory = heldLock != nil

        // Identity: loaded now (one small read) so the first event carries the persisted identity.
        var persistentStore: (any BinobanKeyValueStore)? = configuration.keyValueStore
        var snapshot = BinobanKeyValueSnapshot()
        let fileStore = directory.map {
            FileKeyValueStore(fileURL: $0.appendingPathComponent("\(namespace).identity.json"))
        }
        if persistentStore == nil, ownsDirectory, let fileStore { persistentStore = fileStore }
        let readFrom: (any BinobanKeyValueStore)? = persistentStore ?? (readsIdentityFile ? fileStore : nil)
        if let readFrom {
            do {
                snapshot = try readFrom.load()
            } catch {
                reporter.report(.keyValueStore, "the stored identity could not be read; starting a new one: \(error)")
            }
        }
        let keyValueStore = persistentStore ?? InMemoryKeyValueStore(snapshot)
        let (identity, generated) = IdentityState.restore(from: snapshot) { MessageID.make(from: random) }

        let intake = EventIntake(
            identity: identity,
            persistIdentity: generated,
            capacity: validated.writeStageCapacity,
            overflow: configuration.backpressure == .dropOldest ? .dropOldest : .dropNewest,
            settings: .init(enabled: true, flushAt: validated.flushAt, flushInterval: validated.flushInterval),
            callerEncodes: configuration.stages.isEmpty
        )
        let limits = configuration.storageLimits
        let writeKey = configuration.sourceIdentifier
        let injectedStorage = configuration.storage
        let durability = configuration.storageDurability
        let storageLock = configuration.storage == nil ? heldLock : nil
        // The claim the default storage takes again when it comes back to disk, given up when the instance stops.
        let claim = directory.map { StorageDirectoryClaim(directory: $0, namespace: namespace, lock: heldLock) }
        let durable = LockedValue(injectedStorage != nil || storageLock != nil)
        let elapsedForStorage = elapsed

        let openStorage: @Sendable (any SerialExecutor) -> OpenedStorage = { executor in
            if let injectedStorage { return OpenedStorage(storage: injectedStorage) }
            var initial: BinobanFileEventStorage?
            if let storageLock {
                do {
                    initial = try makeDefaultEventStorage(
                        lock: storageLock, limits: limits, namespace: namespace, durability: durability,
                        executor: executor)
                } catch {
                    fallbacks.add()
                    reporter.report(.storage, "the durable storage could not be opened (\(error)); using memory")
                }
            }
            guard let claim, let path = try? StorageDirectory.fileSystemPath(of: claim.directory) else {
                durable.withLock { $0 = false }
                let memory = InMemoryEventStorage(limits: limits.cappedForMemory, writeKey: writeKey)
                return OpenedStorage(storage: memory, takesSlices: true)
            }
            let environment = FileOrMemoryEventStorage.Environment(
                openFile: { executor in
                    try makeDefaultEventStorage(
                        lock: claim.take(), limits: limits, namespace: namespace, durability: durability,
                        executor: executor)
                },
                directoryPath: path,
                lockIsInPlace: { claim.lockIsInPlace },
                now: elapsedForStorage,
                report: { reporter.report(.storage, $0) },
                countFallback: { fallbacks.add() },
                durable: durable)
            let storage = FileOrMemoryEventStorage(
                environment: environment, initial: initial, limits: limits, writeKey: writeKey, executor: executor)
            return OpenedStorage(
                storage: storage, foundEvents: storage.foundAtOpen.events, foundBytes: storage.foundAtOpen.bytes,
                takesSlices: true)
        }
        let parts = PipelineParts(
            intake: intake,
            waiters: FlushWaiters(),
            outcomeWaiters: EventOutcomeWaiters(),
            reporter: reporter,
            configuration: configuration,
            rules: validated.rules(for: configuration),
            requestBuilder: UploadRequestBuilder(
                endpoint: endpoint,
                apiKey: configuration.apiKey,
                writeKey: configuration.sourceIdentifier,
                compresses: configuration.compressesUploads
            ),
            keyValueStore: keyValueStore,
            openStorage: openStorage,
            instanceId: MessageID.make(from: random),
            statistics: LockedValue(BinobanStatistics()),
            oldestQueuedAt: LockedValue(nil),
            elapsed: elapsed,
            onStop: {
                claim?.release()
            }
        )
        let driver = makeDriver(parts: parts, clock: clock)
        let lifecycle = ApplicationLifecycleTracker(
            tracksEvents: configuration.trackApplicationLifecycleEvents, stored: identity.application)
        let core = BinobanRuntime(
            intake: intake, waiters: parts.waiters, outcomeWaiters: parts.outcomeWaiters, driver: driver,
            reporter: reporter, random: random,
            lifecycle: lifecycle, statistics: parts.statistics, oldestQueuedAt: parts.oldestQueuedAt, elapsed: elapsed,
            storageFallbacks: fallbacks, storageIsDurable: durable)
        let instance = Binoban(core: core, configuration: configuration)
        binobanInstanceWasCreated(instance)
        if configuration.startsAutomatically {
            // `create` returns at once (it must not wait for the storage to open): the start runs on its own, and
            // every later call that needs the storage (a flush, a shutdown) awaits the same start in the driver.
            Task.detached { await driver.start() }
        }
        return instance
    }

    private static func makeDriver<C: Clock>(parts: PipelineParts, clock: C) -> any PipelineControl
    where C.Duration == Duration {
        PipelineLoop(parts: parts, clock: PipelineClock(clock))
    }

    /// Time on `clock` since now, read by the error reporter and the backlog's age.
    private static func elapsedTime<C: Clock>(on clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }
}

/// The working parts behind an enabled ``Binoban`` instance.
///
/// A class, not a struct: every public call starts with `guard let runtime`, which for a struct of seven
/// references copied (and retained) each of them per `track()`.
final class BinobanRuntime: Sendable {
    let intake: EventIntake
    let waiters: FlushWaiters
    let outcomeWaiters: EventOutcomeWaiters
    let driver: any PipelineControl
    let reporter: ErrorReporter
    let random: any BinobanRandomSource
    /// Turns the host's lifecycle reports into events, the persisted release and flushes.
    let lifecycle: ApplicationLifecycleTracker
    /// The pipeline's statistics as of its last step.
    let statistics: LockedValue<BinobanStatistics>
    /// When the oldest queued event was stored, as ``elapsed`` read then.
    let oldestQueuedAt: LockedValue<Duration?>
    let elapsed: @Sendable () -> Duration
    /// How often this instance fell back to memory for what it keeps in its storage directory.
    let storageFallbacks: StorageFallbackCounter
    /// Whether batches are kept durably now (the default storage updates it as it moves).
    let storageIsDurable: LockedValue<Bool>

    /// The statistics the facade shows: the pipeline's, with the storage fallbacks.
    var currentStatistics: BinobanStatistics {
        var current = statistics.withLock { $0 }
        current.storageFallbacks = storageFallbacks.count
        current.storageIsDurable = storageIsDurable.withLock { $0 }
        current.oldestQueuedEventAge = oldestQueuedAt.withLock { $0 }.map { max(.zero, elapsed() - $0) }
        return current
    }

    /// What an awaited flush asked for now counts its result from: the published figures (Decision 0234).
    var flushBaseline: FlushResults.Baseline { FlushResults.Baseline(publishedIn: statistics) }

    init(
        intake: EventIntake, waiters: FlushWaiters, outcomeWaiters: EventOutcomeWaiters, driver: any PipelineControl,
        reporter: ErrorReporter,
        random: any BinobanRandomSource, lifecycle: ApplicationLifecycleTracker,
        statistics: LockedValue<BinobanStatistics>, oldestQueuedAt: LockedValue<Duration?>,
        elapsed: @escaping @Sendable () -> Duration, storageFallbacks: StorageFallbackCounter,
        storageIsDurable: LockedValue<Bool>
    ) {
        self.intake = intake
        self.outcomeWaiters = outcomeWaiters
        self.waiters = waiters
        self.driver = driver
        self.reporter = reporter
        self.random = random
        self.lifecycle = lifecycle
        self.statistics = statistics
        self.oldestQueuedAt = oldestQueuedAt
        self.elapsed = elapsed
        self.storageFallbacks = storageFallbacks
        self.storageIsDurable = storageIsDurable
    }
}
