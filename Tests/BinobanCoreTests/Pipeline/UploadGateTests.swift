import BinobanCoreTesting
import Testing

@testable import BinobanCore

@Suite("Upload gate")
struct UploadGateTests {
    typealias Instant = ManualClock.Instant

    let rules = PipelineRules(
        maxFilesPerFlush: 20, maxRetries: 3, backoff: BackoffSchedule(baseMillis: 1000, factor: 2, maxMillis: 60_000),
        retryAfterLimit: .seconds(10), maxConcurrentUploads: 4, backpressure: .dropOldest, hasTransport: true)

    func at(_ milliseconds: Int64) -> Instant { Instant(offset: .milliseconds(milliseconds)) }

    @Test("A failure backs off by jitter × ceiling; the hold ends at its instant and the streak stands")
    func backoffThenFailing() {
        var gate = UploadGate<Instant>()
        var step = gate.isOpen(at: at(0))
        #expect(step)
        gate.failed(sentIn: gate.generation, retry: nil, retryAfter: nil, jitter: 0.5, at: at(0), rules: rules)
        #expect(gate.backoff == .backingOff(until: at(500), streak: 1))
        step = gate.isOpen(at: at(499))
        #expect(!step)
        step = gate.isOpen(at: at(500))
        #expect(step)
        #expect(gate.backoff == .failing(streak: 1))
        #expect(gate.isFailing)
        gate.failed(sentIn: gate.generation, retry: nil, retryAfter: nil, jitter: 0.5, at: at(1000), rules: rules)
        #expect(gate.backoff == .backingOff(until: at(2000), streak: 2))
    }

    @Test("A retried batch waits by its own retry number; a failure that ends the pass waits by the streak")
    func retryNumberOrStreak() {
        var gate = UploadGate<Instant>()
        for _ in 0..<5 {
            gate.failed(sentIn: gate.generation, retry: nil, retryAfter: nil, jitter: 0.5, at: at(0), rules: rules)
        }
        #expect(gate.streak == 5)
        _ = gate.isOpen(at: at(100_000))
        // Streak 6, but this batch's first retry: 0.5 × 1 s.
        gate.failed(sentIn: gate.generation, retry: 1, retryAfter: nil, jitter: 0.5, at: at(100_000), rules: rules)
        #expect(gate.streak == 6)
        #expect(gate.until == at(100_500))
        _ = gate.isOpen(at: at(200_000))
        // Kept: 0.5 × ceiling(streak 7) = 0.5 × 60 s (capped).
        gate.failed(sentIn: gate.generation, retry: nil, retryAfter: nil, jitter: 0.5, at: at(200_000), rules: rules)
        #expect(gate.until == at(230_000))
    }

    @Test("Requests sent in an older generation do not grow the streak, and the later backoff wins")
    func concurrentFailuresCountOnce() {
        var gate = UploadGate<Instant>()
        let sent = gate.generation
        gate.failed(sentIn: sent, retry: nil, retryAfter: nil, jitter: 0.9, at: at(0), rules: rules)
        gate.failed(sentIn: sent, retry: nil, retryAfter: nil, jitter: 0.1, at: at(10), rules: rules)
        #expect(gate.streak == 1)
        #expect(gate.until == at(900))
    }

    @Test("A final answer ends the backoff and the streak, not the server's Retry-After window")
    func finalAnswerKeepsRetryAfter() {
        var gate = UploadGate<Instant>()
        gate.failed(sentIn: gate.generation, retry: nil, retryAfter: .seconds(5), jitter: 0.9, at: at(0), rules: rules)
        #expect(gate.until == at(5000))
        gate.answeredFinally()
        #expect(gate.backoff == .healthy)
        #expect(gate.streak == 0)
        #expect(gate.until == at(5000))
        var step = gate.isOpen(at: at(4999))
        #expect(!step)
        step = gate.isOpen(at: at(5000))
        #expect(step)
        #expect(gate.serverAsked == nil)
    }

    @Test("Retry-After is capped at the rules' limit; zero asks for nothing")
    func retryAfterCapped() {
        var gate = UploadGate<Instant>()
        gate.failed(sentIn: gate.generation, retry: nil, retryAfter: .zero, jitter: 0, at: at(0), rules: rules)
        #expect(gate.serverAsked == nil)
        gate.failed(sentIn: gate.generation, retry: nil, retryAfter: .seconds(600), jitter: 0, at: at(0), rules: rules)
        #expect(gate.serverAsked == at(10_000))
    }

    @Test("The streak is capped at 64 and the delay at the schedule's maximum")
    func streakCapped() {
        var gate = UploadGate<Instant>()
        for step in 0..<70 {
            gate.failed(
                sentIn: gate.generation, retry: nil, retryAfter: nil, jitter: 0.999, at: at(Int64(step)), rules: rules)
        }
        #expect(gate.streak == 64)
        #expect(gate.until.map { at(69).duration(to: $0) }! <= .seconds(60))
    }

    @Test("Closing ends both holds and keeps the streak")
    func close() {
        var gate = UploadGate<Instant>()
        gate.failed(sentIn: gate.generation, retry: nil, retryAfter: .seconds(3), jitter: 0.5, at: at(0), rules: rules)
        gate.close()
        #expect(gate.until == nil)
        #expect(gate.backoff == .failing(streak: 1))
    }
}

@Suite("Identity saving")
struct IdentitySavingTests {
    let first = IdentityState(anonymousId: "a", traits: .object([:]), deviceId: "d")
    let second = IdentityState(anonymousId: "b", traits: .object([:]), deviceId: "d")

    @Test("One save at a time; only the newest snapshot waits behind it")
    func oneAtATime() {
        var saving = IdentitySaving.idle
        var snapshot: IdentityState?
        var step: Bool
        saving.changed(to: first)
        #expect(saving == .due(first))
        snapshot = saving.start()
        #expect(snapshot == first)
        snapshot = saving.start()
        #expect(snapshot == nil)
        saving.changed(to: first)
        saving.changed(to: second)
        #expect(saving == .saving(next: second))
        step = saving.saved()
        #expect(step)
        #expect(saving == .due(second))
        snapshot = saving.start()
        #expect(snapshot == second)
        step = saving.saved()
        #expect(step)
        #expect(saving == .idle)
    }

    @Test("An answer to no save changes nothing")
    func strayAnswer() {
        var saving = IdentitySaving.due(first)
        var step = saving.saved()
        #expect(!step)
        #expect(saving == .due(first))
        saving = .idle
        step = saving.saved()
        #expect(!step)
        #expect(saving == .idle)
    }
}
