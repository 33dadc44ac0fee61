import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Caller encoding: each event encoded once, against the identity of the moment it is accepted")
struct CallerEncodingTests {
    static let identity = IdentityState(
        anonymousId: "anon \"1\"", userId: "user\n2", traits: [:], deviceToken: "tok", deviceId: "dev")
    static let encoder = EventEncoder(context: FixedContextProvider().staticContext(), deviceId: nil)

    static func event(properties: JSONValue, identity: IdentityState) -> PendingEvent {
        PendingEvent(
            kind: .track, name: "näme \"q\" \u{1}", payload: properties,
            messageId: MessageID(high: 0xFFFF_FFFF_FFFF_FFFF, low: 0),
            timestampMillis: 1_764_590_400_123, anonymousId: identity.anonymousId, userId: identity.userId,
            deviceToken: identity.deviceToken)
    }

    /// Every caller encodes (`callerEncodingDepth` 0) unless a test gives a depth.
    static func makeIntake(capacity: Int = 100, callerEncodes: Bool = true, callerEncodingDepth: Int = 0) -> EventIntake
    {
        EventIntake(
            identity: identity, persistIdentity: false, capacity: capacity, overflow: .dropOldest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)), callerEncodes: callerEncodes,
            callerEncodingDepth: callerEncodingDepth)
    }

    /// What a caller does: encode against the current snapshot, hand over, encode again if the identity changed.
    static func encoded(_ name: String, against snapshot: EncodingSnapshot) -> EncodedEvent {
        EncodedEvent(
            json: snapshot.encodeMobile(
                .track, name: name, payload: ["k": "v"], messageId: MessageID(high: 1, low: 2), timestampMillis: 0),
            messageId: EventMessageID(generated: MessageID(high: 1, low: 2)), isAwaited: false)
    }

    static func decoded(_ event: QueuedEvent) throws -> UploadedEvent {
        try JSONDecoder().decode(UploadedEvent.self, from: try #require(event.json))
    }

    @Test(
        "A track event its caller encodes is byte for byte the one the loop encodes from the structured event",
        arguments: [
            [:], ["a": 1, "b": [true, nil, 2.5], "c": ["nested": "q\"\\\u{7f}😀"]], .string("not an object"),
        ] as [JSONValue])
    func sameBytes(properties: JSONValue) {
        for userId in [nil, "user\n2", "  "] as [String?] {
            for token in [nil, "tok\"en"] as [String?] {
                var identity = Self.identity
                identity.userId = userId
                identity.deviceToken = token
                let whole = Self.event(properties: properties, identity: identity)
                let snapshot = EncodingSnapshot(identity: identity, encoder: Self.encoder)
                let json = snapshot.encodeMobile(
                    .track, name: whole.name, payload: whole.payload, messageId: whole.messageId,
                    timestampMillis: whole.timestampMillis)
                #expect(json == Self.encoder.encode(whole))
            }
        }
    }

    @Test("Until the pipeline gives its encoder, and always while stages are installed, events stay structured")
    func structuredUntilEncoder() {
        let intake = Self.makeIntake()
        #expect(intake.encodingSnapshot(awaitsRoom: false) == nil)
        intake.setEncoder(Self.encoder)
        #expect(intake.encodingSnapshot(awaitsRoom: false)?.identity == Self.identity)
        let staged = Self.makeIntake(callerEncodes: false)
        staged.setEncoder(Self.encoder)
        #expect(staged.encodingSnapshot(awaitsRoom: false) == nil)
    }

    @Test("While the loop keeps up a caller hands its event over structured; from the encoding depth on it encodes")
    func callerEncodesOnceTheLoopIsBehind() throws {
        let intake = Self.makeIntake(capacity: 10, callerEncodingDepth: 3)
        intake.setEncoder(Self.encoder)
        // Below the depth: no snapshot for a caller that does not await room (the loop encodes), one for a caller
        // that awaits room.
        for name in ["a", "b", "c"] {
            #expect(intake.encodingSnapshot(awaitsRoom: false) == nil)
            #expect(intake.encodingSnapshot(awaitsRoom: true) != nil)
            #expect(
                intake.accept { identity in
                    var event = Self.event(properties: ["k": "v"], identity: identity)
                    event.name = name
                    return event
                })
        }
        // Three queued: the loop is behind, the next caller encodes.
        let snapshot = try #require(intake.encodingSnapshot(awaitsRoom: false))
        #expect(intake.accept(Self.encoded("d", against: snapshot), against: snapshot) == true)
        let drain = intake.take()
        #expect(drain.events.map { $0.json == nil } == [true, true, true, false])
        // The drain emptied the queue: the loop keeps up again.
        #expect(intake.encodingSnapshot(awaitsRoom: false) == nil)
        // A drain of the pacing depth (a quarter of the capacity, at least 4 096) says the loop was far behind:
        // callers encode from the first event after it.
        let behind = Self.makeIntake(capacity: 100_000, callerEncodingDepth: 50_000)
        behind.setEncoder(Self.encoder)
        for _ in 0..<25_000 { behind.accept { Self.event(properties: [:], identity: $0) } }
        #expect(behind.encodingSnapshot(awaitsRoom: false) == nil)
        #expect(behind.take().summary.eventCount == 25_000)
        #expect(behind.encodingSnapshot(awaitsRoom: false) != nil)
        behind.accept { Self.event(properties: [:], identity: $0) }
        #expect(behind.take().summary.eventCount == 1)
        #expect(behind.encodingSnapshot(awaitsRoom: false) == nil)
        // The default depth: a caller of a fresh instance's intake hands its events over structured.
        let defaults = Self.makeIntake(
            capacity: 100_000, callerEncodingDepth: IntakeAdmission.defaultCallerEncodingDepth)
        defaults.setEncoder(Self.encoder)
        #expect(defaults.encodingSnapshot(awaitsRoom: false) == nil)
        #expect(defaults.encodingSnapshot(awaitsRoom: true) != nil)
    }

    @Test("A full write stage takes structured events: one its overflow drops is never encoded")
    func fullStageTakesStructured() {
        let intake = Self.makeIntake(capacity: 2)
        intake.setEncoder(Self.encoder)
        for name in ["a", "b"] {
            guard let snapshot = intake.encodingSnapshot(awaitsRoom: false) else {
                Issue.record("callers encode below the capacity")
                return
            }
            #expect(intake.accept(Self.encoded(name, against: snapshot), against: snapshot) == true)
        }
        #expect(intake.encodingSnapshot(awaitsRoom: false) == nil)
        _ = intake.take()
        #expect(intake.encodingSnapshot(awaitsRoom: false) != nil)
    }

    @Test("An identity change racing a caller's encode: the stale event is not taken nor counted, and encoded again")
    func identityChangeRacesEncode() throws {
        let intake = Self.makeIntake()
        intake.setEncoder(Self.encoder)
        let before = try #require(intake.encodingSnapshot(awaitsRoom: false))
        #expect(intake.accept(Self.encoded("a", against: before), against: before) == true)
        // The caller took the snapshot and encoded; the identity changes before it hands the event over.
        let stale = Self.encoded("b", against: before)
        intake.changeIdentity({ $0.userId = "u2" }, thenEmit: nil)
        #expect(intake.accept(stale, against: before) == nil)
        let after = try #require(intake.encodingSnapshot(awaitsRoom: false))
        #expect(after !== before)
        #expect(intake.accept(Self.encoded("b", against: after), against: after) == true)
        // An event that carries nothing of the instance's identity (a server call with its own) is taken as it is.
        #expect(intake.accept(Self.encoded("c", against: before), against: nil) == true)
        let drain = intake.take()
        #expect(drain.summary.acceptedEvents == 3)
        let events = try drain.events.map(Self.decoded)
        #expect(events.map(\.event) == ["a", "b", "c"])
        #expect(events.map(\.userId) == ["user\n2", "u2", "user\n2"])
    }

    @Test("An identify emitted by an identity change is encoded under the lock with the new identity, in order")
    func identifyEncodedWithNewIdentity() throws {
        let intake = Self.makeIntake()
        intake.setEncoder(Self.encoder)
        let first = try #require(intake.encodingSnapshot(awaitsRoom: false))
        #expect(intake.accept(Self.encoded("a", against: first), against: first) == true)
        intake.changeIdentity({ $0.userId = "u9" }) { identity in
            PendingEvent(
                kind: .identify, name: "", payload: ["plan": "pro"], messageId: MessageID(high: 3, low: 4),
                timestampMillis: 0, anonymousId: identity.anonymousId, userId: identity.userId,
                deviceToken: identity.deviceToken)
        }
        let second = try #require(intake.encodingSnapshot(awaitsRoom: false))
        #expect(intake.accept(Self.encoded("b", against: second), against: second) == true)
        let events = try intake.take().events.map(Self.decoded)
        #expect(events.map(\.type) == ["track", "identify", "track"])
        #expect(events.map(\.userId) == ["user\n2", "u9", "u9"])
    }

    @Test("A stale snapshot is refused by an awaiting caller's hand-over too, before anything is counted")
    func awaitingStaleSnapshot() async throws {
        let intake = Self.makeIntake()
        intake.setEncoder(Self.encoder)
        let before = try #require(intake.encodingSnapshot(awaitsRoom: true))
        intake.changeIdentity({ $0.anonymousId = "new" }, thenEmit: nil)
        #expect(await intake.acceptWaitingForRoom(Self.encoded("a", against: before), against: before) == nil)
        let after = try #require(intake.encodingSnapshot(awaitsRoom: true))
        #expect(await intake.acceptWaitingForRoom(Self.encoded("a", against: after), against: after) == .accepted)
        let drain = intake.take()
        #expect(drain.summary.acceptedEvents == 1)
        #expect(try drain.events.map(Self.decoded).map(\.anonymousId) == ["new"])
    }

    @Test("Which server calls carry the instance's identity, and so are encoded again after an identity change")
    func serverCallsUsingInstanceIdentity() {
        #expect(EventIdentityRule.usesInstance(for: .screen, given: nil))
        #expect(EventIdentityRule.usesInstance(for: .track, given: BinobanEventIdentity(userId: " ")))
        #expect(!EventIdentityRule.usesInstance(for: .track, given: BinobanEventIdentity(userId: "u")))
        #expect(!EventIdentityRule.usesInstance(for: .track, given: BinobanEventIdentity(anonymousId: "a")))
        #expect(!EventIdentityRule.usesInstance(for: .alias, given: BinobanEventIdentity(userId: " ")))
    }

    @Test("Events accepted before and while the pipeline runs are delivered whole and in order")
    func deliveredWhole() async throws {
        let count = 3_000
        let harness = PipelineHarness(limits: BinobanStorageLimits(maxFinishedBatches: 100_000, maxTotalBytes: .max)) {
            $0.startsAutomatically = false
            $0.writeStageCapacity = 2 * count
            $0.flushAt = 1_000_000
        }
        for index in 0..<count {
            harness.binoban.track(name: "e", properties: ["i": .int(index), "s": "x\"y"])
        }
        // Running now, callers encode their events; those queued before are encoded by the loop.
        await harness.binoban.runtime?.driver.start()
        for index in count..<(2 * count) {
            harness.binoban.track(name: "e", properties: ["i": .int(index), "s": "x\"y"])
        }
        let result = await harness.binoban.shutdown(gracePeriod: .seconds(60))
        #expect(result.outcome == .completed)
        #expect(result.droppedEvents == 0)
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
