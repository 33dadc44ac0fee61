import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Caller encoding when the write stage is deep")
struct CallerEncodingTests {
    static let identity = IdentityState(
        anonymousId: "anon \"1\"", userId: "user\n2", traits: [:], deviceToken: "tok", deviceId: "dev")

    static func event(properties: JSONValue, userId: String?) -> PendingEvent {
        PendingEvent(
            kind: .track, name: "näme \"q\" \u{1}", payload: properties,
            messageId: MessageID(high: 0xFFFF_FFFF_FFFF_FFFF, low: 0),
            timestampMillis: 1_764_590_400_123, anonymousId: identity.anonymousId, userId: userId,
            deviceToken: identity.deviceToken)
    }

    @Test(
        "An event whose caller encoded its head gives the same bytes as one the driver encodes whole",
        arguments: [
            [:], ["a": 1, "b": [true, nil, 2.5], "c": ["nested": "q\"\\\u{7f}😀"]], .string("not an object"),
        ] as [JSONValue])
    func sameBytes(properties: JSONValue) {
        let encoder = EventEncoder(
            context: FixedContextProvider().staticContext(), deviceId: nil)
        for userId in [nil, "user\n2", "  "] as [String?] {
            let whole = Self.event(properties: properties, userId: userId)
            var head: [UInt8] = []
            EventEncoder.appendTrackHead(
                name: whole.name, properties: whole.payload, messageId: whole.messageId,
                timestampMillis: whole.timestampMillis, to: &head)
            var split = whole
            split.payload = .null
            split.encodedHead = head
            #expect(encoder.encode(split) == encoder.encode(whole))
            // Completed in the intake: the head then holds the whole object, byte for byte.
            var completed = split
            encoder.completeHead(of: &completed)
            #expect(completed.encodedWhole)
            #expect(completed.encodedHead.map { Data($0) } == encoder.encode(whole))
            #expect(encoder.encode(completed) == encoder.encode(whole))
        }
    }

    @Test("The intake is deep from callerEncodingDepth queued events until the next drain")
    func depth() {
        let intake = EventIntake(
            identity: Self.identity, persistIdentity: false, capacity: 10_000, overflow: .dropOldest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)))
        for _ in 0..<(EventIntake.callerEncodingDepth - 1) {
            intake.accept { _ in Self.event(properties: [:], userId: nil) }
        }
        #expect(!intake.isDeep)
        intake.accept { _ in Self.event(properties: [:], userId: nil) }
        #expect(intake.isDeep)
        _ = intake.take()
        #expect(!intake.isDeep)
    }

    @Test("Events queued past the depth before and while the pipeline runs are delivered whole and in order")
    func deliveredWhole() async throws {
        let count = EventIntake.callerEncodingDepth + 1_000
        let harness = PipelineHarness(limits: BinobanStorageLimits(maxFinishedBatches: 100_000, maxTotalBytes: .max)) {
            $0.startsAutomatically = false
            $0.writeStageCapacity = 2 * count
            $0.flushAt = 1_000_000
        }
        for index in 0..<count {
            harness.binoban.track(name: "e", properties: ["i": .int(index), "s": "x\"y"])
        }
        // Running now, the intake completes caller-encoded events with the pipeline's encoder.
        await harness.binoban.runtime?.driver.start()
        for index in count..<(2 * count) {
            harness.binoban.track(name: "e", properties: ["i": .int(index), "s": "x\"y"])
        }
        let result = await harness.binoban.shutdown(gracePeriod: .seconds(60))
        #expect(result.outcome == .completed)
        #expect(result.droppedEvents == 0)
        // Every event is uploaded, counting the start's own pass: it lists the storage while the first drain is being
        // written, so a batch finished by then goes before the shutdown (and is not in the shutdown's result).
        #expect(harness.binoban.statistics.uploadedEvents == 2 * count)
        // Up to four requests are in flight at once (the default), so they may arrive in any order; each holds a run
        // of consecutive events, and the runs in order are every event in order.
        let batches = try harness.transport.requests.map { try UploadedBatch.decode($0.body).batch }
        let runs = batches.map { batch in
            batch.compactMap { event -> Int? in
                guard case .int(let index)? = event.properties?["i"] else { return nil }
                return index
            }
        }
        let events = batches.flatMap { $0 }
        #expect(runs.sorted { ($0.first ?? 0) < ($1.first ?? 0) }.flatMap { $0 } == Array(0..<(2 * count)))
        #expect(events.allSatisfy { $0.properties?["s"] == "x\"y" })
        #expect(Set(events.map(\.messageId)).count == 2 * count)
        #expect(events.allSatisfy { $0.event == "e" && $0.type == "track" && !($0.anonymousId ?? "").isEmpty })
    }
}
