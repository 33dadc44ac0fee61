import BinobanCoreTesting
import Foundation
import SDKCoreCommon
import Testing

@testable import BinobanCore

/// The caller's side of the intake made cheaper without changing what it decides: one lock for a structured
/// hand-over, a small drained buffer's events freed on the loop, and the blank-id check of server calls.
@Suite("Intake: what a caller pays")
struct IntakeCallerCostTests {
    static let identity = IdentityState(
        anonymousId: "anon", userId: nil, traits: [:], deviceToken: nil, deviceId: "dev")
    static let encoder = EventEncoder(context: FixedContextProvider().staticContext(), deviceId: nil)

    static func makeIntake(capacity: Int = 100, callerEncodingDepth: Int) -> EventIntake {
        EventIntake(
            identity: identity, persistIdentity: false, capacity: capacity, overflow: .dropNewest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)),
            callerEncodingDepth: callerEncodingDepth)
    }

    static func event(_ name: String, _ identity: IdentityState) -> PendingEvent {
        PendingEvent(
            kind: .track, name: name, payload: [:], messageId: MessageID(high: 1, low: 2), timestampMillis: 0,
            anonymousId: identity.anonymousId, userId: identity.userId, deviceToken: identity.deviceToken)
    }

    static func encoded(_ name: String, against snapshot: EncodingSnapshot) -> EncodedEvent {
        EncodedEvent(
            json: snapshot.encodeMobile(
                .track, name: name, payload: [:], messageId: MessageID(high: 1, low: 2), timestampMillis: 0),
            messageId: EventMessageID(generated: MessageID(high: 1, low: 2)), isAwaited: false)
    }

    @Test("Below the caller-encoding depth the event is taken structured in the same call, and counted")
    func structuredInOneCall() throws {
        let intake = Self.makeIntake(callerEncodingDepth: 3)
        intake.setEncoder(Self.encoder)
        for index in 0..<3 {
            guard case .handled(true) = intake.acceptUnlessCallerEncodes({ Self.event("e\(index)", $0) }) else {
                Issue.record("event \(index) was not taken structured")
                return
            }
        }
        // Three queued: from now on the caller encodes, and nothing is taken or counted until it hands the bytes over.
        guard case .encode(let snapshot) = intake.acceptUnlessCallerEncodes({ Self.event("e3", $0) }) else {
            Issue.record("the fourth caller was not asked to encode")
            return
        }
        #expect(intake.accept(Self.encoded("e3", against: snapshot), against: snapshot) == true)
        let drain = intake.take()
        #expect(drain.summary.acceptedEvents == 4)
        #expect(drain.events.compactMap(\.structured?.name) == ["e0", "e1", "e2"])
        #expect(drain.events.filter { $0.json != nil }.count == 1)
    }

    @Test("Without an encoder (the pipeline has not started) every caller hands its event over structured")
    func structuredBeforeTheEncoder() {
        let intake = Self.makeIntake(callerEncodingDepth: 0)
        for index in 0..<5 {
            guard case .handled(true) = intake.acceptUnlessCallerEncodes({ Self.event("e\(index)", $0) }) else {
                Issue.record("event \(index) was not taken structured")
                return
            }
        }
        #expect(intake.take().summary.eventCount == 5)
    }

    @Test("A paused, full or closed intake refuses in the same call and counts as accept(_:) counts")
    func refusals() {
        let intake = Self.makeIntake(capacity: 2, callerEncodingDepth: 100)
        var outcomes: [Bool] = []
        for index in 0..<3 {
            if case .handled(let taken) = intake.acceptUnlessCallerEncodes({ Self.event("e\(index)", $0) }) {
                outcomes.append(taken)
            }
        }
        intake.updateSettings { $0.enabled = false }
        if case .handled(let taken) = intake.acceptUnlessCallerEncodes({ Self.event("paused", $0) }) {
            outcomes.append(taken)
        }
        #expect(outcomes == [true, true, false, false])
        let drain = intake.take()
        #expect(drain.summary.acceptedEvents == 4)
        #expect(drain.summary.overflowDrops == 1)
        #expect(drain.summary.pausedDrops == 1)
        intake.close()
        guard case .handled(false) = intake.acceptUnlessCallerEncodes({ Self.event("closed", $0) }) else {
            Issue.record("a closed intake took an event")
            return
        }
        #expect(intake.take().summary.acceptedEvents == 0)
    }

    @Test("The first event after a drain signals the loop once, through the one-lock hand-over too")
    func signalsOncePerDrain() {
        let intake = Self.makeIntake(callerEncodingDepth: 100)
        let signals = LockedValue(0)
        intake.setOnWork { signals.withLock { $0 += 1 } }
        for index in 0..<4 { _ = intake.acceptUnlessCallerEncodes { Self.event("e\(index)", $0) } }
        #expect(signals.withLock { $0 } == 1)
        _ = intake.take()
        _ = intake.acceptUnlessCallerEncodes { Self.event("after", $0) }
        #expect(signals.withLock { $0 } == 2)
    }

    @Test("A small drained buffer is freed by the loop: the next caller finds an empty spare and frees nothing")
    func smallDrainFreedByTheLoop() {
        let intake = Self.makeIntake(callerEncodingDepth: 100)
        for index in 0..<EventIntake.loopFreedDrainLimit / 2 { intake.accept { Self.event("e\(index)", $0) } }
        var drain = intake.take()
        let capacity = drain.buffer.capacity
        #expect(capacity <= EventIntake.loopFreedDrainLimit)
        intake.recycle(drain.buffer)
        drain.buffer = []
        let (spareCount, spareCapacity, staleCount) = intake.state.withLock {
            ($0.spare.count, $0.spare.capacity, $0.stale.count)
        }
        #expect(spareCount == 0)
        #expect(spareCapacity >= capacity)
        #expect(staleCount == 0)
        // The next drain hands the spare out: the caller's events land in the reused buffer.
        intake.accept { Self.event("next", $0) }
        #expect(intake.take().events.compactMap(\.structured?.name) == ["next"])
    }

    @Test("A large drained buffer goes back with its events; the next caller empties it and makes it the spare")
    func largeDrainFreedByACaller() {
        let intake = Self.makeIntake(capacity: 1_000, callerEncodingDepth: 10_000)
        let count = EventIntake.loopFreedDrainLimit + 1
        for index in 0..<count { intake.accept { Self.event("e\(index)", $0) } }
        // A buffer too large for the loop to replace with a fresh one, whatever it holds.
        var drain = intake.take()
        intake.recycle(drain.buffer)
        drain.buffer = []
        #expect(intake.state.withLock { $0.stale.count } == count)
        // The next caller frees the stale buffer's events and makes it the spare.
        intake.accept { Self.event("next", $0) }
        let (spareCount, spareCapacity, staleCount) = intake.state.withLock {
            ($0.spare.count, $0.spare.capacity, $0.stale.count)
        }
        #expect(staleCount == 0)
        #expect(spareCount == 0)
        #expect(spareCapacity >= count)
        #expect(intake.take().events.compactMap(\.structured?.name) == ["next"])
    }

    @Test("The facade's one call hands an event over structured while the loop keeps up, and encoded once behind")
    func acceptMobileDecidesAsTheTwoCalls() throws {
        let intake = Self.makeIntake(callerEncodingDepth: 2)
        intake.setEncoder(Self.encoder)
        for index in 0..<3 {
            #expect(
                intake.acceptMobile(
                    .track, name: "e\(index)", payload: ["i": .int(index)],
                    messageId: MessageID(high: 7, low: UInt64(index)), timestampMillis: 0))
        }
        let drain = intake.take()
        #expect(drain.summary.acceptedEvents == 3)
        #expect(drain.events.compactMap(\.structured?.name) == ["e0", "e1"])
        // The third came with two queued: its caller encoded it, with its message id beside the bytes.
        let encoded = try #require(
            drain.events.last.flatMap { event -> EncodedEvent? in
                if case .encoded(let encoded) = event { return encoded }
                return nil
            })
        #expect(encoded.messageId == EventMessageID(generated: MessageID(high: 7, low: 2)))
        let json = String(decoding: encoded.json, as: UTF8.self)
        #expect(json.contains(#""event":"e2""#))
        #expect(json.contains(#""properties":{"i":2}"#))
        #expect(json.contains(#""anonymousId":"anon""#))
        intake.updateSettings { $0.enabled = false }
        #expect(
            !intake.acceptMobile(
                .track, name: "paused", payload: [:], messageId: MessageID(high: 7, low: 9), timestampMillis: 0))
        #expect(intake.take().summary.pausedDrops == 1)
    }

    @Test(
        "A per-call id is blank exactly when trimming its white space leaves nothing",
        arguments: [
            "", " ", "\t\n\r\u{0B}\u{0C}", "\u{00A0}", "\u{2003}\u{3000}", "\u{0085}", "\u{200B}", "a", " a ",
            "user-1", "é", "\u{00A0}x", "x\u{2003}", "😀",
        ])
    func blankIds(id: String) {
        #expect(EventIdentityRule.isBlank(id) == id.trimmingWhitespace().isEmpty)
    }
}

@Suite("The system wall clock")
struct SystemWallClockTests {
    @Test("Reads the same milliseconds as Date, without going through it")
    func agreesWithDate() {
        let before = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let now = SystemWallClock().currentMillisecondsSince1970()
        let after = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        // `Date` keeps seconds in a `Double`: near a millisecond's edge its floor may land one millisecond off.
        #expect(before - 1 <= now)
        #expect(now <= after + 1)
        #expect(after - before < 1_000)
    }
}
