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
    ///
    /// The replay is deterministic: after every input the runner waits until the pipeline is quiet (nothing in
    /// flight, nothing queued), and it moves the manual clock from one timer deadline to the next up to each
    /// step's time, so every timer, backoff and `Retry-After` fires at its virtual instant.
    public static func run(_ scenario: BinobanScenario) async -> BinobanScenarioResult {
        let config = scenario.config
        let clock = ManualClock(epochMilliseconds: config.wallClockStartMs)
        let log = OutputLog(clock: clock)
        let transport = RecordingTransport(
            script: config.transportScript.map(scripted), defaultAnswer: scripted(config.transportDefault), log: log)
        var configuration = Configuration(apiKey: config.apiKey, sourceIdentifier: config.sourceIdentifier)
        configuration.apiHost = config.apiHost
        configuration.flushAt = config.flushAt
        configuration.flushInterval = config.flushInterval
        configuration.uploadMaxRetries = config.uploadMaxRetries
        configuration.backoffBase = .milliseconds(config.backoffBaseMillis)
        configuration.backoffMax = .milliseconds(config.backoffMaxMillis)
        configuration.retryAfterLimit = .milliseconds(config.retryAfterLimitMillis)
        configuration.maxFilesPerFlush = config.maxFilesPerFlush
        configuration.maxConcurrentUploads = config.maxConcurrentUploads
        configuration.backpressure = config.backpressure
        configuration.writeStageCapacity = config.writeStageCapacity
        let limits = BinobanStorageLimits(
            maxEventBytes: config.maxEventBytes, maxFinishedBatches: config.maxFinishedBatches,
            maxTotalBytes: config.maxTotalBytes)
        configuration.storageLimits = limits
        configuration.storage = InMemoryEventStorage(limits: limits)
        configuration.keyValueStore = InMemoryKeyValueStore(
            config.storedApplication.map { .recordedApplication(version: $0.version, build: $0.build) }
                ?? BinobanKeyValueSnapshot())
        configuration.trackApplicationLifecycleEvents = config.trackApplicationLifecycleEvents
        configuration.compressesUploads = config.compressesUploads
        configuration.allowsCleartextHost = config.allowsCleartextHost
        configuration.stages = config.stages.map { ScenarioStage(rule: $0) }
        configuration.transport = transport
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource =
            config.randomUnitValues.map { FixedRandomSource(unitValues: $0) } ?? SequentialRandomSource()
        configuration.contextProvider = FixedContextProvider()
        configuration.errorHandler = { error in
            var entry: [String: JSONValue] = ["type": "error", "kind": .string(error.kind.description)]
            if error.eventCount > 0 { entry["eventCount"] = .int(error.eventCount) }
            log.append(entry)
        }
        let binoban = Binoban.create(configuration: configuration)
        let settings = config.notifications
        let notifications = BinobanNotifications(
            presenter: ScriptedNotificationPresenter(
                display: settings.display, permission: settings.permission, log: log),
            options: BinobanNotifications.Options(
                replayCapacity: settings.replayCapacity, deliveredMemory: settings.deliveredMemory,
                pendingEventCapacity: settings.pendingEventCapacity),
            diagnostics: { log.append(["type": "diagnostic", "code": .string($0.code.description)]) })
        if settings.attached { notifications.attach(binoban) }

        let flushes = PendingFlushes()
        // An awaited server call's outcome is logged at the pipeline step that settles it, and counts as pending
        // (like an awaited flush) until then.
        let handover = Handover()
        binoban.observeAwaitedCalls(
            admitted: { handover.admitted() },
            settled: { messageId, outcome in
                log.append(outcomeEntry(messageId, outcome))
                flushes.finish()
            })
        // The pipeline has started before the first step: the startup upload pass has looked at the (empty)
        // storage and the interval timer is armed.
        await binoban.waitUntilQuiet()
        for step in scenario.steps {
            await advance(clock, to: ManualClock.Instant(offset: .milliseconds(step.at)), binoban)
            switch step.input {
            case .track(let name, let properties, let identity):
                if let identity {
                    binoban.track(name: name, properties: properties, as: identity)
                } else {
                    binoban.track(name: name, properties: properties)
                }
            case .identify(let userId, let traits): binoban.identify(userId: userId, traits: traits)
            case .screen(let title, let properties): binoban.server.screen(title: title, properties: properties)
            case .server(let call) where call.awaitsOutcome:
                flushes.start()
                // The call hands its event over in a task of its own; the next step waits until it has (or, for an
                // instance that takes nothing, until the call returned).
                await handover.wait { number in
                    Task { [server = binoban.server.awaitingDelivery] in
                        _ = await performAwaiting(call, on: server)
                        handover.returned(number)
                    }
                }
            case .server(let call): perform(call, on: binoban.server)
            case .reset: binoban.reset()
            case .setDeviceToken(let token): binoban.setDeviceToken(token: token)
            case .setFlushAt(let value): binoban.flushAt = value
            case .setFlushInterval(let seconds): binoban.flushInterval = seconds
            case .setEnabled(let value): binoban.enabled = value
            case .flush: flushWithoutWaiting(binoban)
            case .flushAwait:
                flushes.start()
                binoban.flush { result in
                    flushes.finish()
                    log.append([
                        "type": "flushResult", "outcome": .string("\(result.outcome)"),
                        "uploadedBatches": .int(result.uploadedBatches), "uploadedEvents": .int(result.uploadedEvents),
                        "rejectedBatches": .int(result.rejectedBatches), "rejectedEvents": .int(result.rejectedEvents),
                        "droppedEvents": .int(result.droppedEvents),
                    ])
                }
            case .awaitFlush:
                await advanceUntilResolved(flushes, clock, binoban)
            case .advance: break
            case .applicationDidFinishLaunching(let version, let build):
                _ = binoban.handleApplicationLifecycle(.didFinishLaunching(version: version, build: build))
            case .applicationWillEnterForeground:
                _ = binoban.handleApplicationLifecycle(.willEnterForeground)
            case .applicationDidEnterBackground:
                _ = binoban.handleApplicationLifecycle(.didEnterBackground)
            case .initializeNotifications, .onNewToken, .onApplicationDidReceiveRemoteNotification,
                .onWillPresentForwarded, .onDidReceiveForwarded, .onNotificationOpened, .attachNotifications,
                .detachNotifications, .setInteractionHandler, .resetInteractionHandler, .drainPendingInteractions:
                await perform(step.input, on: notifications, target: binoban, log: log)
            }
            await binoban.waitUntilQuiet()
        }
        // Outputs end with the last step: what the shutdown drain would do is not part of the scenario.
        let observed = log.entries
        _ = await binoban.shutdown(gracePeriod: .zero)
        return BinobanScenarioResult(
            name: scenario.name, observed: observed, expected: scenario.expect,
            mismatch: BinobanScenarioMatcher.firstMismatch(expected: scenario.expect, observed: observed))
    }

    /// Moves the clock to `target` one pipeline deadline at a time, letting the pipeline settle after each.
    private static func advance(_ clock: ManualClock, to target: ManualClock.Instant, _ binoban: Binoban) async {
        await binoban.waitUntilQuiet()
        while let wait = await binoban.timeUntilNextDeadline(), clock.now.advanced(by: wait) <= target {
            clock.advance(by: wait)
            await binoban.waitUntilQuiet()
        }
        if clock.now < target { clock.advance(by: clock.now.duration(to: target)) }
        await binoban.waitUntilQuiet()
    }

    /// Moves the clock through the pipeline's deadlines until every started awaited flush and awaited server call
    /// has resolved (at most
    /// 10 000 deadlines; a flush no deadline can resolve is left pending and shows as a missing output).
    private static func advanceUntilResolved(
        _ flushes: PendingFlushes, _ clock: ManualClock, _ binoban: Binoban
    ) async {
        await binoban.waitUntilQuiet()
        var hops = 0
        while flushes.pending > 0, hops < 10_000, let wait = await binoban.timeUntilNextDeadline() {
            clock.advance(by: wait)
            await binoban.waitUntilQuiet()
            hops += 1
        }
    }

    /// Performs one notification-layer input; calls that return a task are awaited.
    private static func perform(
        _ input: BinobanScenario.Input, on notifications: BinobanNotifications, target: Binoban,
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

    /// Calls the non-waiting `flush()`.
    private static func flushWithoutWaiting(_ binoban: Binoban) {
        binoban.flush()
    }

    private static func scripted(_ answer: BinobanScenario.TransportAnswer) -> ScriptedAnswer {
        switch answer {
        case .status(let status, let headers): return .status(status, headers: headers)
        case .networkError: return .networkError
        }
    }

    /// The `eventOutcome` output of an awaited server call.
    private static func outcomeEntry(_ messageId: String, _ outcome: BinobanEventOutcome) -> [String: JSONValue] {
        var entry: [String: JSONValue] = ["type": "eventOutcome", "messageId": .string(messageId)]
        switch outcome {
        case .finished(.uploaded): entry["outcome"] = "uploaded"
        case .finished(.rejected(let status)):
            entry["outcome"] = "rejected"
            entry["status"] = .int(status)
        case .finished(.dropped(let reason)):
            entry["outcome"] = "dropped"
            let name: String
            if case .stage(let stageReason) = reason { name = "stage:\(stageReason)" } else { name = "\(reason)" }
            entry["reason"] = .string(name)
        case .finished(.keptForRetry(let failure)):
            // Never an awaited event's outcome (it is not final); named all the same.
            entry["outcome"] = "keptForRetry"
            entry["failure"] = .string("\(failure)")
        case .notAccepted: entry["outcome"] = "notAccepted"
        case .unfinished: entry["outcome"] = "unfinished"
        case .cancelled: entry["outcome"] = "cancelled"
        }
        return entry
    }

    /// Makes one server call of a scenario step through `server.awaitingDelivery`.
    private static func performAwaiting(
        _ call: BinobanScenario.ServerCall, on server: BinobanAwaitedServerEvents
    ) async -> BinobanEventOutcome {
        let (identity, fields) = (call.identity, call.fields)
        switch call.kind {
        case .track:
            return await server.track(name: call.name ?? "", properties: call.payload, as: identity, fields: fields)
        case .identify: return await server.identify(traits: call.payload, as: identity, fields: fields)
        case .page:
            return await server.page(
                name: call.name, category: call.category, properties: call.payload, as: identity, fields: fields)
        case .screen:
            return await server.screen(
                name: call.name, category: call.category, properties: call.payload, as: identity, fields: fields)
        case .group:
            return await server.group(groupId: call.groupId ?? "", traits: call.payload, as: identity, fields: fields)
        case .alias:
            return await server.alias(
                userId: call.identity.userId ?? "", previousId: call.previousId ?? "", fields: fields)
        }
    }

    /// Makes one server call of a scenario step.
    private static func perform(_ call: BinobanScenario.ServerCall, on server: BinobanServerEvents) {
        let (identity, fields) = (call.identity, call.fields)
        switch call.kind {
        case .track: server.track(name: call.name ?? "", properties: call.payload, as: identity, fields: fields)
        case .identify: server.identify(traits: call.payload, as: identity, fields: fields)
        case .page:
            server.page(
                name: call.name, category: call.category, properties: call.payload, as: identity, fields: fields)
        case .screen:
            server.screen(
                name: call.name, category: call.category, properties: call.payload, as: identity, fields: fields)
        case .group: server.group(groupId: call.groupId ?? "", traits: call.payload, as: identity, fields: fields)
        case .alias:
            server.alias(userId: call.identity.userId ?? "", previousId: call.previousId ?? "", fields: fields)
        }
    }
}
