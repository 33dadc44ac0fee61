import Testing

@testable import BinobanCore

@Suite("Event intake")
struct EventIntakeTests {
    func makeIntake(capacity: Int, overflow: EventIntake.Overflow = .dropOldest) -> EventIntake {
        let identity = IdentityState(anonymousId: "anon", userId: nil, traits: [:], deviceToken: nil, deviceId: "dev")
        return EventIntake(
            identity: identity,
            persistIdentity: false,
            capacity: capacity,
            overflow: overflow,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30))
        )
    }

    func event(_ name: String, _ identity: IdentityState) -> PendingEvent {
        PendingEvent(
            kind: .track, name: name, payload: [:], messageId: MessageID(high: 1, low: 2), timestampMillis: 0,
            anonymousId: identity.anonymousId, userId: identity.userId, deviceToken: identity.deviceToken
        )
    }

    @Test("Beyond capacity the oldest events are dropped and counted; the newest are kept in order")
    func dropOldest() {
        let intake = makeIntake(capacity: 100)
        for index in 0..<10_000 { intake.accept { event("e\(index)", $0) } }
        let drain = intake.take()
        #expect(drain.summary.overflowDrops == 9_900)
        #expect(drain.summary.acceptedEvents == 10_000)
        #expect(drain.summary.eventCount == 100)
        #expect(drain.events.compactMap(\.structured?.name) == (9_900..<10_000).map { "e\($0)" })
    }

    @Test("Drop-newest keeps the first events and refuses (and counts) the rest")
    func dropNewest() {
        let intake = makeIntake(capacity: 100, overflow: .dropNewest)
        var refused = 0
        for index in 0..<1_000 where !intake.accept({ event("e\(index)", $0) }) { refused += 1 }
        let drain = intake.take()
        #expect(refused == 900)
        #expect(drain.summary.overflowDrops == 900)
        #expect(drain.events.compactMap(\.structured?.name) == (0..<100).map { "e\($0)" })
    }

    @Test("Identity changes and events keep one order; a paused intake counts the events it drops")
    func ordering() {
        let intake = makeIntake(capacity: 10)
        intake.accept { event("a", $0) }
        intake.changeIdentity({ $0.userId = "u1" }, thenEmit: nil)
        intake.accept { event("b", $0) }
        intake.updateSettings { $0.enabled = false }
        #expect(!intake.accept { event("dropped", $0) })
        intake.changeIdentity({ $0.userId = "u2" }, thenEmit: { event("identify", $0) })
        #expect(intake.identity.userId == "u2")
        let drain = intake.take()
        #expect(drain.events.compactMap(\.structured?.name) == ["a", "b"])
        #expect(drain.events.map(\.structured?.userId) == [nil, "u1"])
        #expect(drain.summary.identity?.userId == "u2")
        #expect(drain.summary.settings?.enabled == false)
        #expect(drain.summary.overflowDrops == 0)
        #expect(drain.summary.pausedDrops == 2)
    }

    @Test("A pause and a resume between two drains still reach the driver as a pause")
    func pauseAndResumeBetweenDrains() {
        let intake = makeIntake(capacity: 10)
        intake.updateSettings { $0.enabled = false }
        intake.updateSettings { $0.enabled = true }
        let drain = intake.take()
        #expect(drain.summary.settings?.enabled == true)
        #expect(drain.summary.pausedSinceLastDrain)
        intake.updateSettings { $0.flushAt = 5 }
        let next = intake.take()
        #expect(next.summary.settings?.flushAt == 5)
        #expect(!next.summary.pausedSinceLastDrain)
    }

    @Test("A flush ticket comes with every event accepted before it; a closed intake refuses everything")
    func ticketsAndClose() {
        let intake = makeIntake(capacity: 10)
        intake.accept { event("a", $0) }
        #expect(intake.requestFlush(waiterID: 7))
        let drain = intake.take()
        #expect(drain.events.compactMap(\.structured?.name) == ["a"])
        #expect(drain.summary.tickets == [.init(waiterID: 7)])
        intake.close()
        #expect(!intake.accept { event("late", $0) })
        #expect(!intake.requestFlush(waiterID: nil))
        #expect(intake.take().summary.closed)
    }

    @Test("The wake-up is called once per drain, however many events arrive")
    func wakesOncePerDrain() {
        let intake = makeIntake(capacity: 10)
        let wakes = LockedValue(0)
        intake.setOnWork { wakes.withLock { $0 += 1 } }
        #expect(wakes.withLock { $0 } == 0)
        for index in 0..<5 { intake.accept { event("e\(index)", $0) } }
        #expect(wakes.withLock { $0 } == 1)
        _ = intake.take()
        intake.accept { event("late", $0) }
        #expect(wakes.withLock { $0 } == 2)
    }

    @Test("An awaiting caller waits for room and is resumed by the next drain; cancelling it returns false")
    func waitsForRoom() async {
        let intake = makeIntake(capacity: 1, overflow: .dropNewest)
        #expect(intake.accept { event("first", $0) })
        let waiting = Task { await intake.acceptWaitingForRoom { event("second", $0) } }
        // The waiter is resumed by a drain whenever it arrives; drain until the second event shows up.
        var names: [String] = []
        while !names.contains("second") {
            names += intake.take().events.compactMap(\.structured?.name)
            await Task.yield()
        }
        #expect(await waiting.value)
        #expect(names == ["first", "second"])

        #expect(intake.accept { event("fills", $0) })
        let cancelled = Task { await intake.acceptWaitingForRoom { event("never", $0) } }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(intake.take().events.compactMap(\.structured?.name) == ["fills"])
    }

    @Test("An awaiting caller is paced at 1 024 queued events however large the capacity; others still fill it")
    func awaitingCallersArePacedEarly() async {
        let depth = EventIntake.awaitingCallerDepth
        let intake = makeIntake(capacity: 100_000)
        for index in 0..<depth { #expect(await intake.acceptWaitingForRoom { event("a\(index)", $0) }) }
        // The next awaiting call waits for a drain although 98 976 places are free: cancelled while waiting, it
        // returns `false` and adds nothing…
        let cancelled = Task { await intake.acceptWaitingForRoom { event("never", $0) } }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        // …while a non-waiting call is still accepted up to the capacity.
        #expect(intake.accept { event("plain", $0) })
        let waiting = Task { await intake.acceptWaitingForRoom { event("paced", $0) } }
        var names: [String] = []
        while !names.contains("paced") {
            names += intake.take().events.compactMap(\.structured?.name)
            await Task.yield()
        }
        #expect(await waiting.value)
        #expect(names.count == depth + 2)
        #expect(names.prefix(depth + 1).last == "plain")
        #expect(names.last == "paced")
        #expect(intake.take().summary.overflowDrops == 0)
    }

    @Test("A caller yields the processor once per event while a quarter of the capacity is queued, never below")
    func callersPaceThemselves() {
        let yields = LockedValue(0)
        let identity = IdentityState(anonymousId: "anon", userId: nil, traits: [:], deviceToken: nil, deviceId: "dev")
        let intake = EventIntake(
            identity: identity, persistIdentity: false, capacity: 20_000, overflow: .dropOldest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)),
            yieldProcessor: { yields.withLock { $0 += 1 } })
        for index in 0..<4_999 { intake.accept { event("e\(index)", $0) } }
        #expect(yields.withLock { $0 } == 0)
        // From the 5 000th queued event on, each hand-over yields once, through the overflow too (20 000 queued).
        for index in 4_999..<21_000 { intake.accept { event("e\(index)", $0) } }
        #expect(yields.withLock { $0 } == 16_001)
        // The loop took the queue: callers run free again.
        _ = intake.take()
        intake.accept { event("after", $0) }
        #expect(yields.withLock { $0 } == 16_001)
        // A refused event (paused) does not yield: nothing was queued.
        intake.updateSettings { $0.enabled = false }
        for _ in 0..<30 { intake.accept { event("paused", $0) } }
        #expect(yields.withLock { $0 } == 16_001)
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
