import BinobanCoreTesting
import Foundation
import Testing

/// Drops events whose name is in `names`, with `reason`.
private struct DropNames: BinobanEventStage {
    let names: Set<String>
    let reason: String

    func process(_ event: inout BinobanEvent) -> BinobanStageDecision {
        names.contains(event.name) ? .drop(reason: reason) : .keep
    }
}

/// Removes the `email` property and marks the event as redacted.
private struct RedactEmail: BinobanEventStage {
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision {
        guard var members = event.properties.objectValue else { return .keep }
        members["email"] = nil
        members["redacted"] = true
        event.properties = .object(members)
        return .keep
    }
}

/// Drops every event with a reason of its own (its name).
private struct DropWithOwnReason: BinobanEventStage {
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision { .drop(reason: event.name) }
}

/// Records the names it saw, in order, then keeps the event.
private final class SeenNames: BinobanEventStage {
    let names = LockedValue<[String]>([])
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision {
        names.withLock { $0.append(event.name) }
        return .keep
    }
}

/// Adds a `campaign` member to the event's context, as a stage that tags events does.
private struct TagCampaign: BinobanEventStage {
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision {
        event.context["campaign"] = ["name": "spring"]
        return .keep
    }
}

@Suite("Before-send stages")
struct BeforeSendStageTests {
    @Test("Stages run in order: a kept event reaches storage changed, a dropped one is counted by reason and reported")
    func changeAndDrop() async throws {
        let deliveries = DeliveryRecorder()
        let seen = SeenNames()
        let harness = PipelineHarness { config in
            config.flushAt = 1000
            config.deliveryObserver = deliveries
            config.stages = [DropNames(names: ["secret"], reason: "consent"), seen, RedactEmail()]
        }
        await harness.settle()
        harness.binoban.track(name: "signup", properties: ["email": "a@b.c", "plan": "pro"])
        harness.binoban.track(name: "secret", properties: ["x": 1])
        harness.binoban.track(name: "secret")
        harness.binoban.track(name: "login")
        let result = await harness.binoban.flushAndWait()
        #expect(result.uploadedEvents == 2)

        let uploaded = try harness.uploadedEvents()
        #expect(uploaded.map(\.event) == ["signup", "login"])
        #expect(uploaded[0].properties == ["plan": "pro", "redacted": true])
        // The dropped events reach no later stage.
        #expect(seen.names.withLock { $0 } == ["signup", "login"])

        let statistics = harness.binoban.statistics
        #expect(statistics.dropped.stage == 2)
        #expect(statistics.dropped.stageReasons == ["consent": 2])
        #expect(statistics.dropped.total == 2)
        #expect(statistics.acceptedEvents == statistics.uploadedEvents + statistics.dropped.total)

        #expect(deliveries.eventCount(.dropped(.stage("consent"))) == 2)
        #expect(deliveries.messageIds(.dropped(.stage("consent"))).count == 2)
        #expect(deliveries.messageIds(.uploaded) == uploaded.map(\.messageId))
        #expect(Set(deliveries.messageIds(.dropped(.stage("consent")))).isDisjoint(with: uploaded.map(\.messageId)))
        #expect(harness.reports.all.isEmpty)
    }

    @Test("At most 16 distinct stage reasons are counted; the rest go under \"other\", in statistics and metrics")
    func reasonsAreBounded() async throws {
        let metrics = InMemoryMetricsObserver()
        let deliveries = DeliveryRecorder()
        let harness = PipelineHarness { config in
            config.flushAt = 1000
            config.stages = [DropWithOwnReason()]
            config.metricsObserver = metrics
            config.deliveryObserver = deliveries
        }
        await harness.settle()
        for index in 0..<40 { harness.binoban.track(name: "reason-\(index % 20)") }
        await harness.binoban.flushAndWait()
        let dropped = harness.binoban.statistics.dropped
        #expect(dropped.stage == 40)
        #expect(dropped.stageReasons.count == BinobanStatistics.Drops.maxStageReasons)
        #expect(dropped.stageReasons.values.reduce(0, +) == 40)
        #expect(dropped.stageReasons["other"] == 10)
        #expect(dropped.stageReasons["reason-0"] == 2)
        #expect(metrics.counterTotal("binoban_events_dropped_total") == 40)
        #expect(metrics.counterTotal("binoban_stage_drops_total") == 40)
        #expect(deliveries.deliveries.reduce(0) { $0 + $1.eventCount } == 40)
        let reported = Set(deliveries.deliveries.map(\.outcome))
        #expect(reported.count == BinobanStatistics.Drops.maxStageReasons)
    }

    @Test("A context member a stage adds to an instance call is merged over the instance's: device id and token stay")
    func contextOfAnInstanceCall() async throws {
        let harness = PipelineHarness { config in
            config.contextProvider = FixedContextProvider(GoldenBatchTests.context)
            config.stages = [TagCampaign()]
        }
        await harness.settle()
        let binoban = harness.binoban
        binoban.setDeviceToken(token: "push-token")
        binoban.track(name: "mobile")
        binoban.identify(userId: "user-1")
        binoban.server.track(name: "server", as: BinobanEventIdentity(userId: "user-2"))
        _ = await binoban.flushAndWait()
        // The token's registration is an instance call too: `bb_notification_registered`, then the three calls.
        let events = try ServerEventEncodingTests.uploaded(harness)
        let names = events.map { $0["event"] ?? $0["type"] }
        #expect(names == ["bb_notification_registered", "mobile", "identify", "server"])
        let instanceDevice: JSONValue = [
            "manufacturer": "Apple", "model": "iPhone15,2", "type": "ios", "id": .string(binoban.deviceId()),
            "token": "push-token",
        ]
        for event in events.prefix(3) {
            let context = event["context"]
            #expect(context?["campaign"] == ["name": "spring"])
            #expect(context?["device"] == instanceDevice)
            #expect(context?["app"]?["name"] == "Demo")
            #expect(context?["library"]?["name"] == "binoban-core-swift")
        }
        // A mobile identify without traits sends none, with the stage's context as without it.
        #expect(events[2]["traits"] == nil)
        #expect(events[2]["userId"] == "user-1")
        // A server call never carries the instance's device id or token, with a stage as without.
        #expect(events[3]["context"]?["campaign"] == ["name": "spring"])
        #expect(events[3]["context"]?["device"] == ["manufacturer": "Apple", "model": "iPhone15,2", "type": "ios"])
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("With stages installed a deep queue stays structured: every event reaches the stage, none pre-encoded")
    func deepQueueReachesTheStage() async throws {
        let seen = SeenNames()
        let harness = PipelineHarness { config in
            config.flushAt = 100_000
            config.stages = [seen]
            config.startsAutomatically = false
        }
        // Not started: every event waits in the write stage, far past the depth at which callers encode.
        for index in 0..<5_000 { harness.binoban.track(name: "e\(index)", properties: ["i": .int(index)]) }
        // The shutdown starts the pipeline, writes everything and uploads it.
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(60))
        #expect(seen.names.withLock { $0.count } == 5_000)
        #expect(harness.binoban.statistics.uploadedEvents == 5_000)
    }
}
