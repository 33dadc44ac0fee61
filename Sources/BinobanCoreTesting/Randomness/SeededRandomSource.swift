/// A reproducible random source: the same seed gives the same identifiers and jitter.
public final class SeededRandomSource: BinobanRandomSource {
    private let generator: LockedValue<Xoshiro256StarStar>

    /// Creates a source whose sequence is determined by `seed`.
    public init(seed: UInt64 = 42) {
        generator = LockedValue(Xoshiro256StarStar(seed: seed))
    }

    /// The next 64 bits of the seeded sequence.
    public func next() -> UInt64 {
        generator.withLock { $0.next() }
    }
}

/// A random source that replays fixed values in a loop (for exact jitter in tests).
///
/// `FixedRandomSource(unitValues: [0.5])` makes every `nextUnitInterval()` return 0.5 and every identifier
/// the same bits, so use it for backoff tests, not for identity.
public final class FixedRandomSource: BinobanRandomSource {
    private let values: [UInt64]
    private let position = LockedValue(0)

    /// Replays `values` (raw 64-bit draws) in a loop; an empty list gives zeros.
    public init(values: [UInt64]) {
        self.values = values
    }

    /// Replays draws whose `nextUnitInterval()` is each of `unitValues` (clamped to `0..<1`).
    public convenience init(unitValues: [Double]) {
        self.init(
            values: unitValues.map { value in
                let clamped = min(max(value, 0), 0x1.fffffffffffffp-1)
                return UInt64(clamped * 0x1.0p53) << 11
            }
        )
    }

    /// The next value of the loop.
    public func next() -> UInt64 {
        guard !values.isEmpty else { return 0 }
        return position.withLock { index in
            defer { index = (index + 1) % values.count }
            return values[index]
        }
    }
}

/// A random source whose identifiers count up, so tests can predict them:
/// `00000000-0000-4000-8000-000000000001`, `…0002`, …
public final class SequentialRandomSource: BinobanRandomSource {
    private let counter = LockedValue<UInt64>(0)

    /// Creates a source starting at 1.
    public init() {}

    /// Draws alternate between zero (high bits) and the next counter value (low bits).
    public func next() -> UInt64 {
        counter.withLock { value in
            value += 1
            return value % 2 == 1 ? 0 : value / 2
        }
    }
}
