#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Replays a ``BinobanScenario`` against a real `Binoban` instance on a ``ManualClock``, with in-memory
/// storage and identity and a scripted transport, and compares the recorded outputs with the expectations.
///
/// ```swift
/// let result = await BinobanScenarioRunner.run(try BinobanScenarioDecoder.decode(data))
/// if !result.passed { print(result.report) }
/// ```
public enum BinobanScenarioRunner: Sendable {
    /// Runs `scenario` and returns the comparison.
    public static func run(_ scenario: BinobanScenario) async -> BinobanScenarioResult {
        let config = scenario.config
        let clock = ManualClock(epochMilliseconds: config.wallClockStartMs)
        let log = OutputLog(clock: clock)
        let transport = RecordingTransport(
            script: config.transportScript.map(scripted), defaultAnswer: scripted(config.transportDefault), log: log)
        let storage = HandledCountingStorage(
            InMemoryEventStorage(limits: BinobanStorageLimits(maxEventBytes: config.maxEventBytes)))
        var configuration = Configuration(apiKey: config.apiKey, sourceIdentifier: config.sourceIdentifier)
        configuration.apiHost = config.apiHost
        configuration.flushAt = config.flushAt
        configuration.flushInterval = config.flushInterval
        configuration.uploadMaxRetries = config.uploadMaxRetries
        configuration.backoffBaseMillis = config.backoffBaseMillis
        configuration.backoffMaxMillis = config.backoffMaxMillis
        configuration.maxFilesPerFlush = config.maxFilesPerFlush
        configuration.storage = storage
        configuration.keyValueStore = InMemoryKeyValueStore(
            config.storedApplication.map { .recordedApplication(version: $0.version, build: $0.build) }
                ?? BinobanKeyValueSnapshot())
        configuration.trackApplicationLifecycleEvents = config.trackApplicationLifecycleEvents
        configuration.transport = transport
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource =
            config.randomUnitValues.map { FixedRandomSource(unitValues: $0) } ?? SequentialRandomSource()
        configuration.contextProvider = FixedContextProvider()
        configuration.errorHandler = { error in log.append(["type": "error", "kind": .string(error.kind.description)]) }
        let binoban = Binoban.create(configuration: configuration)
        let settings = config.notifications
        let notifications = BinobanNotifications(
            presenter: ScriptedNotificationPresenter(
                display: settings.display, permission: settings.permission, log: log),
            options: BinobanNotifications.Options(
                replayCapacity: settings.replayCapacity, deliveredMemory: settings.deliveredMemory,
                pendingEventCapacity: settings.pendingEventCapacity),
            diagnostics: { log.append(["type": "diagnostic", "code": .string($0.code.description)]) })
        let counter = AcceptedEventCounter(binoban: binoban)
        if settings.attached { notifications.attach(counter) }

        var pendingFlush: Task<BinobanFlushResult, Never>?
        do {
            // The pipeline has started before the first step: its interval timer is armed and the startup upload
            // pass has looked at the (empty) storage, so it cannot pick up the first step's events.
            if binoban.isOperational {
                try await clock.waitForSleepers(count: 1)
                await storage.waitForFirstListing()
            }
            for step in scenario.steps {
                let target = ManualClock.Instant(offset: .milliseconds(step.at))
                if clock.now < target { clock.advance(by: clock.now.duration(to: target)) }
                switch step.input {
                case .track(let name, let properties, let identity):
                    if let identity {
                        counter.submit { $0.track(name: name, properties: properties, as: identity) }
                    } else {
                        counter.track(name: name, properties: properties)
                    }
                case .identify(let userId, let traits):
                    counter.submit { $0.identify(userId: userId, traits: traits) }
                case .screen(let title, let properties):
                    counter.submit { $0.screen(title: title, properties: properties) }
                case .reset: binoban.reset()
                case .setDeviceToken(let token): counter.setDeviceToken(token: token)
                case .setFlushAt(let value): binoban.flushAt = value
                case .setFlushInterval(let seconds): binoban.flushInterval = seconds
                case .setEnabled(let value): binoban.enabled = value
                case .flush: flushWithoutWaiting(binoban)
                case .flushAwait: pendingFlush = Task { await binoban.flush() }
                case .awaitFlush:
                    if let task = pendingFlush {
                        let result = await task.value
                        pendingFlush = nil
                        log.append([
                            "type": "flushResult", "outcome": .string("\(result.outcome)"),
                            "uploadedBatches": .int(result.uploadedBatches),
                            "uploadedEvents": .int(result.uploadedEvents),
                            "rejectedBatches": .int(result.rejectedBatches),
                            "rejectedEvents": .int(result.rejectedEvents),
                        ])
                    }
                case .awaitRequests(let count): try await transport.waitForRequests(count: count)
                case .awaitTimer(let dueAt):
                    let due = ManualClock.Instant(offset: .milliseconds(dueAt))
                    try await clock.waitUntilSleepers { $0.contains(due) }
                case .advance: break
                case .applicationDidFinishLaunching(let version, let build):
                    counter.add(binoban.handleApplicationLifecycle(.didFinishLaunching(version: version, build: build)))
                case .applicationWillEnterForeground:
                    counter.add(binoban.handleApplicationLifecycle(.willEnterForeground))
                case .applicationDidEnterBackground:
                    counter.add(binoban.handleApplicationLifecycle(.didEnterBackground))
                case .initializeNotifications, .onNewToken, .onApplicationDidReceiveRemoteNotification,
                    .onWillPresentForwarded, .onDidReceiveForwarded, .onNotificationOpened, .attachNotifications,
                    .detachNotifications, .setInteractionHandler, .resetInteractionHandler, .drainPendingInteractions:
                    await perform(step.input, on: notifications, target: counter, log: log)
                }
                if binoban.isOperational { await storage.waitForHandledEvents(count: counter.accepted) }
            }
        } catch {
            // A test-kit wait gave up (timeout or cancellation): the output records it, so the comparison fails
            // instead of the replay hanging.
            log.append(["type": "testKitError", "message": .string("\(error)")])
        }
        // Outputs end with the last step: what the shutdown drain would do is not part of the scenario.
        let observed = log.entries
        pendingFlush?.cancel()
        _ = await binoban.shutdown(deadline: .zero)
        return BinobanScenarioResult(
            name: scenario.name, observed: observed, expected: scenario.expect,
            mismatch: BinobanScenarioMatcher.firstMismatch(expected: scenario.expect, observed: observed))
    }

    /// Performs one notification-layer input; calls that return a task are awaited.
    private static func perform(
        _ input: BinobanScenario.Input, on notifications: BinobanNotifications, target: AcceptedEventCounter,
        log: OutputLog
    ) async {
        switch input {
        case .initializeNotifications(let askPermission, let soundName):
            _ = await notifications.initializeNotifications(
                configuration: NotificationPlatformConfigurationIos(
                    askNotificationPermissionOnStart: askPermission, notificationSoundName: soundName)
            ).value
        case .onNewToken(let token): notifications.onNewToken(token: token)
        case .onApplicationDidReceiveRemoteNotification(let userInfo):
            _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: userInfo).value
        case .onWillPresentForwarded(let userInfo): notifications.onWillPresentForwarded(userInfo: userInfo)
        case .onDidReceiveForwarded(let userInfo, let actionId, let dismissed):
            notifications.onDidReceiveForwarded(userInfo: userInfo, actionId: actionId, dismissed: dismissed)
        case .onNotificationOpened(let userInfo): notifications.onNotificationOpened(userInfo: userInfo)
        case .attachNotifications: notifications.attach(target)
        case .detachNotifications: notifications.detach()
        case .setInteractionHandler(let callsSuper):
            notifications.interactionManager.setHandler(
                handler: RecordingInteractionHandler(notifications: notifications, log: log, callsSuper: callsSuper))
        case .resetInteractionHandler: notifications.interactionManager.resetToDefault()
        case .drainPendingInteractions:
            let drained = notifications.interactionManager.drainPendingInteractions()
            log.append([
                "type": "drained",
                "interactions": .array(drained.map { .object(RecordingInteractionHandler.describe($0)) }),
            ])
        default: break  // the instance's own inputs, handled by `run`
        }
    }

    /// Calls the non-waiting `flush()` (a synchronous context picks that overload).
    private static func flushWithoutWaiting(_ binoban: Binoban) {
        binoban.flush()
    }

    private static func scripted(_ answer: BinobanScenario.TransportAnswer) -> ScriptedAnswer {
        switch answer {
        case .status(let status, let headers): return .status(status, headers: headers)
        case .networkError: return .networkError
        }
    }
}
