import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// Drops every event with this reason.
private struct DropAll: BinobanEventStage {
    let reason: String
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision { .drop(reason: reason) }
}

/// Keeps every event as it is.
private struct KeepAll: BinobanEventStage {
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision { .keep }
}

private let user = BinobanEventIdentity(userId: "user-1")

private func fields(_ messageId: String) -> BinobanMessageFields { BinobanMessageFields(messageId: messageId) }

/// Waits until the instance counts `count` accepted events (the awaited call hands its event over in its own
/// task); a bounded number of rounds, each letting the pipeline go quiet.
private func waitForAccepted(_ binoban: Binoban, _ count: Int) async {
    for _ in 0..<10_000 {
        if binoban.statistics.acceptedEvents >= count { return }
        await binoban.waitUntilQuiet()
        await Task.yield()
    }
    Issue.record("\(binoban.statistics.acceptedEvents) events accepted, not \(count)")
}

@Suite("Awaiting one event's outcome (binoban.server.awaitingDelivery)", .timeLimit(.minutes(10)))
struct AwaitedDeliveryTests {
    @Test("An uploaded event returns .uploaded, with the statistics and the ingest agreeing")
    func uploaded() async throws {
        let harness = PipelineHarness { $0.flushAt = 1 }
        let outcome = await harness.binoban.server.awaitingDelivery.track(
            name: "Order Completed", properties: ["total": 49.99], as: user, fields: fields("order-1"))
        #expect(outcome == .finished(.uploaded))
        await harness.binoban.waitUntilQuiet()
        #expect(harness.binoban.statistics.uploadedEvents == 1)
        #expect(try harness.uploadedEvents().map(\.messageId) == ["order-1"])
    }

    @Test("Every call kind returns its outcome; a generated messageId is awaited too")
    func everyKind() async throws {
        let harness = PipelineHarness { $0.flushAt = 1 }
        let server = harness.binoban.server.awaitingDelivery
        #expect(await server.identify(traits: ["plan": "pro"], as: user) == .finished(.uploaded))
        #expect(await server.page(name: "Pricing", as: user) == .finished(.uploaded))
        #expect(await server.screen(name: "Home", as: user) == .finished(.uploaded))
        #expect(await server.group(groupId: "company-7", as: user) == .finished(.uploaded))
        #expect(await server.alias(userId: "user-1", previousId: "anon-42") == .finished(.uploaded))
        #expect(await server.track(name: "e", as: user) == .finished(.uploaded))
        let types = try harness.uploadedEvents().map(\.type)
        #expect(types == ["identify", "page", "screen", "group", "alias", "track"])
    }

    @Test("A batch the ingest rejects returns .rejected with the status")
    func rejected() async {
        let harness = PipelineHarness(script: [400]) { $0.flushAt = 1 }
        let outcome = await harness.binoban.server.awaitingDelivery.track(name: "e", as: user)
        #expect(outcome == .finished(.rejected(status: 400)))
        await harness.binoban.waitUntilQuiet()
        #expect(harness.binoban.statistics.dropped.rejected == 1)
    }

    @Test("A paused instance drops the event at once: .dropped(.paused), counted")
    func paused() async {
        let harness = PipelineHarness { $0.flushAt = 1 }
        harness.binoban.enabled = false
        let outcome = await harness.binoban.server.awaitingDelivery.track(name: "e", as: user)
        #expect(outcome == .finished(.dropped(.paused)))
        await harness.binoban.waitUntilQuiet()
        #expect(harness.binoban.statistics.dropped.paused == 1)
    }

    @Test("A before-send stage's drop returns .dropped(.stage) with its reason")
    func stageDrop() async {
        let harness = PipelineHarness {
            $0.flushAt = 1
            $0.stages = [DropAll(reason: "consent")]
        }
        let outcome = await harness.binoban.server.awaitingDelivery.track(name: "e", as: user)
        #expect(outcome == .finished(.dropped(.stage("consent"))))
    }

    @Test("An event the in-memory storage evicts before it is read returns .dropped(.storageEviction)")
    func evictedFromMemory() async {
        let limits = BinobanStorageLimits(maxBatchBytes: 2_000, maxFinishedBatches: 2, maxTotalBytes: 1_000_000)
        let harness = PipelineHarness(limits: limits) {
            $0.flushAt = 10_000
            $0.transport = nil
        }
        await assertEvictionIsNamed(harness.binoban)
    }

    @Test("An event the file storage evicts before it is read returns .dropped(.storageEviction)")
    func evictedFromFiles() async throws {
        try await withTemporaryDirectory { directory in
            let limits = BinobanStorageLimits(maxBatchBytes: 2_000, maxFinishedBatches: 2, maxTotalBytes: 1_000_000)
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            let harness = PipelineHarness(limits: limits) {
                $0.flushAt = 10_000
                $0.transport = nil
                $0.storage = storage
            }
            await assertEvictionIsNamed(harness.binoban)
        }
    }

    @Test("With a stage installed, an event the storage evicts before it is read returns .dropped(.storageEviction)")
    func evictedWithAStage() async {
        let limits = BinobanStorageLimits(maxBatchBytes: 2_000, maxFinishedBatches: 2, maxTotalBytes: 1_000_000)
        let harness = PipelineHarness(limits: limits) {
            $0.flushAt = 10_000
            $0.transport = nil
            $0.stages = [KeepAll()]
        }
        await assertEvictionIsNamed(harness.binoban)
    }

    /// The first awaited event (oldest batch) is evicted by the events after it; one awaited after an oversize
    /// event in the last write stays queued, and the shutdown returns it as unfinished.
    private func assertEvictionIsNamed(_ binoban: Binoban) async {
        let server = binoban.server.awaitingDelivery
        // `async let`, not a task of its own: a test past its time limit cancels the wait, so it fails, not hangs.
        async let first = server.track(name: "first", as: user, fields: fields("first"))
        await waitForAccepted(binoban, 1)
        for index in 0..<200 { binoban.track(name: "filler", properties: ["i": .int(index)]) }
        await binoban.flushAndWait()
        #expect(await first == .finished(.dropped(.storageEviction)))
        // The statistics are published once the step that settled the caller is over.
        await binoban.waitUntilQuiet()
        #expect(binoban.statistics.dropped.storageEviction > 0)

        binoban.track(name: "oversize", properties: ["blob": .string(String(repeating: "x", count: 40_000))])
        async let last = server.track(name: "last", as: user, fields: fields("last"))
        await waitForAccepted(binoban, 203)
        await binoban.flushAndWait()
        await binoban.waitUntilQuiet()
        #expect(binoban.statistics.dropped.oversize == 1)
        _ = await binoban.shutdown(gracePeriod: .zero)
        #expect(await last == .unfinished)
    }

    @Test("An event still stored when the instance shuts down returns .unfinished; a call after it .notAccepted")
    func unfinishedAndNotAccepted() async {
        let harness = PipelineHarness {
            $0.flushAt = 10_000
            $0.transport = nil
        }
        async let pending = harness.binoban.server.awaitingDelivery.track(name: "e", as: user)
        await waitForAccepted(harness.binoban, 1)
        _ = await harness.binoban.shutdown(gracePeriod: .zero)
        #expect(await pending == .unfinished)
        #expect(harness.binoban.statistics.queuedEvents == 1)
        #expect(await harness.binoban.server.awaitingDelivery.track(name: "late", as: user) == .notAccepted)
    }

    @Test("Cancelling the waiting task returns .cancelled at once; the event is still uploaded")
    func cancelled() async throws {
        let harness = PipelineHarness { $0.flushAt = 10_000 }
        let waiting = Task { await harness.binoban.server.awaitingDelivery.track(name: "e", as: user) }
        await waitForAccepted(harness.binoban, 1)
        waiting.cancel()
        #expect(await waiting.value == .cancelled)
        await harness.binoban.flushAndWait()
        await harness.binoban.waitUntilQuiet()
        #expect(harness.binoban.statistics.uploadedEvents == 1)
        #expect(try harness.uploadedEvents().map(\.event) == ["e"])
    }

    @Test("Two calls with the same messageId in one batch are both settled")
    func duplicateMessageIds() async {
        let harness = PipelineHarness(script: [400]) { $0.flushAt = 2 }
        let server = harness.binoban.server.awaitingDelivery
        async let first = server.track(name: "a", as: user, fields: fields("same"))
        async let second = server.track(name: "b", as: user, fields: fields("same"))
        #expect(await [first, second] == [.finished(.rejected(status: 400)), .finished(.rejected(status: 400))])
        await harness.binoban.waitUntilQuiet()
        #expect(harness.binoban.statistics.dropped.rejected == 2)
    }

    @Test("An instance without awaited calls or an observer names nothing; the first awaited drain turns it on")
    func namingStartsAtTheFirstAwaitedDrain() {
        var machine = deliveryTestMachine(reportsDeliveries: false, flushAt: 10_000)
        let now = ManualClock.Instant(offset: .zero)
        func notices(_ actions: [PipelineAction]) -> [PipelineAction] {
            actions.filter {
                switch $0 {
                case .deliver, .nameEvents: true
                default: false
                }
            }
        }
        var plain = PipelineDrain()
        plain.eventCount = 2
        plain.acceptedEvents = 3
        plain.overflowDrops = 1
        #expect(notices(machine.handle(.drained(plain), at: now)).isEmpty)
        _ = machine.handle(
            .written(BinobanStorageWriteReport(storedEvents: 2), storedBytes: 20, moreInDrain: false), at: now)
        var awaited = plain
        awaited.awaitedEvents = 1
        #expect(
            notices(machine.handle(.drained(awaited), at: now)) == [
                .nameEvents,
                .deliver(DeliveryNotice(outcome: .dropped(.writeStageOverflow), eventCount: 1, events: .overflowed)),
            ])
        _ = machine.handle(
            .written(BinobanStorageWriteReport(storedEvents: 2), storedBytes: 20, moreInDrain: false), at: now)
        // Named from then on, without asking again.
        #expect(
            notices(machine.handle(.drained(plain), at: now)) == [
                .deliver(DeliveryNotice(outcome: .dropped(.writeStageOverflow), eventCount: 1, events: .overflowed))
            ])
    }

    @Test("Events the intake drops as the oldest are named to the observer")
    func droppedOldestAreNamed() {
        let intake = EventIntake(
            identity: IdentityState(anonymousId: "a", userId: nil, traits: [:], deviceToken: nil, deviceId: "d"),
            persistIdentity: false, capacity: 2, overflow: .dropOldest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)))
        let random = SeededRandomSource(seed: 3)
        var ids: [String] = []
        for _ in 0..<4 {
            let messageId = MessageID.random(from: random)
            ids.append(messageId.text)
            intake.accept { _ in
                PendingEvent(
                    kind: .track, name: "e", payload: [:], messageId: messageId, timestampMillis: 0, anonymousId: "a",
                    userId: nil, deviceToken: nil)
            }
        }
        var buffer = WriteStageBuffer(
            encoder: EventEncoder(context: BinobanStaticContext(), deviceId: nil), intake: intake, namesEvents: true)
        let summary = buffer.take()
        #expect(summary.overflowDrops == 2)
        #expect(buffer.droppedOldestIDs == Array(ids.prefix(2)))
    }

    @Test("A chunk encoded before events were named is stored unnamed, with its placements' bytes")
    func chunkEncodedBeforeNaming() {
        let intake = EventIntake(
            identity: IdentityState(anonymousId: "a", userId: nil, traits: [:], deviceToken: nil, deviceId: "d"),
            persistIdentity: false, capacity: 100, overflow: .dropOldest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)))
        let random = SeededRandomSource(seed: 5)
        for _ in 0..<3 {
            let messageId = MessageID.random(from: random)
            intake.accept { _ in
                PendingEvent(
                    kind: .track, name: "e", payload: [:], messageId: messageId, timestampMillis: 0, anonymousId: "a",
                    userId: nil, deviceToken: nil)
            }
        }
        var buffer = WriteStageBuffer(
            encoder: EventEncoder(context: BinobanStaticContext(), deviceId: nil), intake: intake, namesEvents: false)
        _ = buffer.take()
        let chunk = buffer.nextChunk()
        #expect(chunk.count == 3)
        // The first awaited event turns naming on while this chunk is on its way (a refused suffix held).
        buffer.namesEvents = true
        var report = BinobanStorageWriteReport(storedEvents: 2, rejectedOversizeEvents: 0, refusedEvents: 1)
        report.recordPlacement(of: 2, in: BinobanBatchID(sequence: 4))
        let input: PipelineInput<ManualClock.Instant> = buffer.written(.success(report))
        guard case .written(_, let bytes, _, let placedBytes) = input else {
            Issue.record("not written: \(input)")
            return
        }
        #expect(bytes == chunk[0].count + chunk[1].count)
        #expect(placedBytes == [bytes])
        #expect(buffer.takePlacedRuns().isEmpty)
        #expect(buffer.oversizeIDs.isEmpty)
    }
}
