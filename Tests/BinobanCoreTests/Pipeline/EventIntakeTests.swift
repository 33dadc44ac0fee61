import Testing

@testable import BinobanCore

@Suite("Event intake")
struct EventIntakeTests {
    func makeIntake(capacity: Int) -> EventIntake {
        let identity = IdentityState(anonymousId: "anon", userId: nil, traits: [:], deviceToken: nil, deviceId: "dev")
        return EventIntake(
            identity: identity,
            persistIdentity: false,
            capacity: capacity,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30))
        )
    }

    func event(_ name: String, _ identity: IdentityState) -> PendingEvent {
        PendingEvent(
            kind: .track, name: name, payload: [:], messageId: "m", timestampMillis: 0,
            anonymousId: identity.anonymousId, userId: identity.userId, deviceToken: identity.deviceToken
        )
    }

    @Test("Beyond capacity the oldest events are dropped and counted; the newest are kept in order")
    func dropOldest() async {
        let intake = makeIntake(capacity: 100)
        for index in 0..<10_000 { intake.accept { event("e\(index)", $0) } }
        let drain = await intake.next()
        #expect(drain.droppedEvents == 9_900)
        #expect(drain.events.map(\.name) == (9_900..<10_000).map { "e\($0)" })
    }

    @Test("Identity changes and events keep one order; paused intake drops events but applies identity")
    func ordering() async {
        let intake = makeIntake(capacity: 10)
        intake.accept { event("a", $0) }
        intake.changeIdentity({ $0.userId = "u1" }, thenEmit: nil)
        intake.accept { event("b", $0) }
        intake.updateSettings { $0.enabled = false }
        #expect(!intake.accept { event("dropped", $0) })
        intake.changeIdentity({ $0.userId = "u2" }, thenEmit: { event("identify", $0) })
        #expect(intake.identity.userId == "u2")
        let drain = await intake.next()
        #expect(drain.events.map(\.name) == ["a", "b"])
        #expect(drain.events.map(\.userId) == [nil, "u1"])
        #expect(drain.identityToPersist?.userId == "u2")
        #expect(drain.settings?.enabled == false)
        #expect(drain.droppedEvents == 0)
    }

    @Test("A pause and a resume between two drains still reach the driver as a pause")
    func pauseAndResumeBetweenDrains() async {
        let intake = makeIntake(capacity: 10)
        intake.updateSettings { $0.enabled = false }
        intake.updateSettings { $0.enabled = true }
        let drain = await intake.next()
        #expect(drain.settings?.enabled == true)
        #expect(drain.pausedSinceLastDrain)
        intake.updateSettings { $0.flushAt = 5 }
        let next = await intake.next()
        #expect(next.settings?.flushAt == 5)
        #expect(!next.pausedSinceLastDrain)
    }

    @Test("A flush ticket comes with every event accepted before it; a closed intake refuses everything")
    func ticketsAndClose() async {
        let intake = makeIntake(capacity: 10)
        intake.accept { event("a", $0) }
        #expect(intake.requestFlush(waiterID: 7))
        let drain = await intake.next()
        #expect(drain.events.map(\.name) == ["a"])
        #expect(drain.tickets == [.init(waiterID: 7)])
        intake.close()
        #expect(!intake.accept { event("late", $0) })
        #expect(!intake.requestFlush(waiterID: nil))
        #expect(await intake.next().closed)
    }
}

@Suite("Identity restore and storage location")
struct IdentityRestoreTests {
    @Test("Missing ids are generated (and must be persisted); unreadable traits become an empty object")
    func restore() {
        var counter = 0
        let fresh = IdentityState.restore(from: BinobanKeyValueSnapshot()) {
            counter += 1
            return "id-\(counter)"
        }
        #expect(fresh.generated)
        #expect(fresh.identity.anonymousId == "id-1")
        #expect(fresh.identity.deviceId == "id-2")
        let stored = BinobanKeyValueSnapshot(values: [
            "anonymousId": "a", "deviceId": "d", "userId": "", "traits": "{broken", "deviceToken": "t",
        ])
        let restored = IdentityState.restore(from: stored) { "unused" }
        #expect(!restored.generated)
        #expect(
            restored.identity
                == IdentityState(anonymousId: "a", userId: nil, traits: [:], deviceToken: "t", deviceId: "d"))
        #expect(IdentityState.restore(from: restored.identity.snapshot) { "x" }.identity == restored.identity)
    }
}
