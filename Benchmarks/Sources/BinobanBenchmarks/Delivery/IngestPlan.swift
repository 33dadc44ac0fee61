/// The seeded sequence of answers a ``CountingIngest`` gives, one per request in arrival order.
///
/// ``healthy`` answers 200 to everything. ``hostile(seed:)`` is a hostile ingest's mix: 30 % 500, 10 % 429
/// with `Retry-After` (delay-seconds and HTTP-date forms in turn, 1–2 s), 5 % connection resets (the request is
/// read, then the connection closes without an answer), the rest 200.
struct IngestPlan: Sendable {
    /// One answer.
    enum Answer: Sendable, Equatable {
        case ok
        case serverError
        case reset
        /// 429 with `Retry-After` in the given form; `seconds` is the delay for the delay-seconds form.
        case tooManyRequests(RetryAfterHeader.Form, seconds: Int)
    }

    private var random: SplitMix64?
    private var tooManyCount = 0

    /// Every request answered 200.
    init() {
        random = nil
    }

    /// The hostile mix, drawn from `seed`.
    static func hostile(seed: UInt64) -> IngestPlan {
        var plan = IngestPlan()
        plan.random = SplitMix64(seed: seed)
        return plan
    }

    /// The answer to the next request.
    mutating func next() -> Answer {
        guard var random else { return .ok }
        defer { self.random = random }
        let draw = random.next() % 100
        switch draw {
        case 0..<30:
            return .serverError
        case 30..<40:
            tooManyCount += 1
            let form: RetryAfterHeader.Form = tooManyCount % 2 == 0 ? .httpDate : .delaySeconds
            return .tooManyRequests(form, seconds: 1 + Int(random.next() % 2))
        case 40..<45:
            return .reset
        default:
            return .ok
        }
    }
}

/// SplitMix64: a small, seedable generator, so the hostile mix is the same in every run.
struct SplitMix64: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
