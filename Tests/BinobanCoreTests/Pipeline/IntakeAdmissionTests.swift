import Testing

@testable import BinobanCore

@Suite("Intake admission")
struct IntakeAdmissionTests {
    @Test("Closed wins over paused, paused over everything else")
    func order() {
        let admission = IntakeAdmission(capacity: 10, overflow: .dropOldest)
        #expect(admission.verdict(queued: 0, enabled: false, closed: true, awaitsRoom: false) == .closed)
        #expect(admission.verdict(queued: 0, enabled: false, closed: true, awaitsRoom: true) == .closed)
        #expect(admission.verdict(queued: 10, enabled: false, closed: false, awaitsRoom: false) == .paused)
        #expect(admission.verdict(queued: 10, enabled: false, closed: false, awaitsRoom: true) == .paused)
    }

    @Test(
        "Below capacity an event is queued; at capacity the overflow policy decides",
        arguments: [
            EventIntake.Overflow.dropOldest, .dropNewest,
        ])
    func capacity(overflow: EventIntake.Overflow) {
        let admission = IntakeAdmission(capacity: 3, overflow: overflow)
        #expect(admission.verdict(queued: 2, enabled: true, closed: false, awaitsRoom: false) == .enqueue)
        let full: IntakeAdmission.Verdict = overflow == .dropOldest ? .enqueueDroppingOldest : .refuseNewest
        #expect(admission.verdict(queued: 3, enabled: true, closed: false, awaitsRoom: false) == full)
        #expect(admission.verdict(queued: 7, enabled: true, closed: false, awaitsRoom: false) == full)
    }

    @Test("An awaiting caller waits from the awaiting depth, or the capacity if smaller, and never overflows")
    func awaitingDepth() {
        let large = IntakeAdmission(capacity: 100_000, overflow: .dropNewest)
        #expect(large.awaitingDepth == EventIntake.awaitingCallerDepth)
        let depth = EventIntake.awaitingCallerDepth
        #expect(large.verdict(queued: depth - 1, enabled: true, closed: false, awaitsRoom: true) == .enqueue)
        #expect(large.verdict(queued: depth, enabled: true, closed: false, awaitsRoom: true) == .waitForRoom)
        // A non-awaiting caller still queues there: the capacity is its bound.
        #expect(large.verdict(queued: depth, enabled: true, closed: false, awaitsRoom: false) == .enqueue)
        let small = IntakeAdmission(capacity: 5, overflow: .dropOldest)
        #expect(small.awaitingDepth == 5)
        #expect(small.verdict(queued: 5, enabled: true, closed: false, awaitsRoom: true) == .waitForRoom)
    }

    @Test("A capacity below one is one")
    func minimumCapacity() {
        let admission = IntakeAdmission(capacity: 0, overflow: .dropNewest)
        #expect(admission.capacity == 1)
        #expect(admission.awaitingDepth == 1)
        #expect(admission.verdict(queued: 0, enabled: true, closed: false, awaitsRoom: false) == .enqueue)
        #expect(admission.verdict(queued: 1, enabled: true, closed: false, awaitsRoom: false) == .refuseNewest)
    }

    @Test("A caller paces itself from a quarter of the capacity on (at least 4 096); below it, never")
    func pacing() {
        let admission = IntakeAdmission(capacity: 100_000, overflow: .dropOldest)
        #expect(admission.pacingDepth == 25_000)
        #expect(!admission.paces(queued: 24_999))
        #expect(admission.paces(queued: 25_000))
        #expect(admission.paces(queued: 100_000))
        // A small write stage never paces: its depth is below the smallest pacing depth.
        let small = IntakeAdmission(capacity: 1_000, overflow: .dropNewest)
        #expect(small.pacingDepth == IntakeAdmission.minimumPacingDepth)
        #expect(!small.paces(queued: 1_000))
    }

    @Test(
        "Who encodes: a caller from the encoding depth or a drain of the pacing depth on, an awaiting caller always, nobody at capacity"
    )
    func callerEncodingRule() {
        let admission = IntakeAdmission(capacity: 100_000, overflow: .dropOldest)
        #expect(admission.callerEncodingDepth == IntakeAdmission.defaultCallerEncodingDepth)
        #expect(admission.callerEncodingDepth == 4_096)
        #expect(!admission.callerEncodes(queued: 0, lastDrain: 0, awaitsRoom: false))
        #expect(!admission.callerEncodes(queued: 4_095, lastDrain: 0, awaitsRoom: false))
        #expect(admission.callerEncodes(queued: 4_096, lastDrain: 0, awaitsRoom: false))
        #expect(admission.callerEncodes(queued: 99_999, lastDrain: 0, awaitsRoom: false))
        #expect(admission.callerEncodes(queued: 0, lastDrain: 0, awaitsRoom: true))
        // After a drain of a quarter of the capacity the loop was far behind: callers encode from an empty queue on.
        #expect(!admission.callerEncodes(queued: 0, lastDrain: 24_999, awaitsRoom: false))
        #expect(admission.callerEncodes(queued: 0, lastDrain: 25_000, awaitsRoom: false))
        // At capacity the overflow drops an event: the loop encodes the ones that survive.
        #expect(!admission.callerEncodes(queued: 100_000, lastDrain: 0, awaitsRoom: false))
        #expect(!admission.callerEncodes(queued: 100_000, lastDrain: 0, awaitsRoom: true))
        // A write stage smaller than the depth: only awaiting callers encode.
        let small = IntakeAdmission(capacity: 1_000, overflow: .dropNewest)
        #expect(!small.callerEncodes(queued: 999, lastDrain: 0, awaitsRoom: false))
        #expect(small.callerEncodes(queued: 999, lastDrain: 0, awaitsRoom: true))
        // A depth of zero: every caller encodes below the capacity.
        let everyCaller = IntakeAdmission(capacity: 10, overflow: .dropNewest, callerEncodingDepth: 0)
        #expect(everyCaller.callerEncodes(queued: 0, lastDrain: 0, awaitsRoom: false))
        #expect(!everyCaller.callerEncodes(queued: 10, lastDrain: 0, awaitsRoom: false))
    }
}
