/// The edge that supplies randomness: message identifiers, anonymous identifiers and backoff jitter.
///
/// Inject a seeded source in tests (`SeededRandomSource` in BinobanCoreTesting) so that identifiers and
/// retry delays are reproducible.
public protocol BinobanRandomSource: Sendable {
    /// Returns 64 uniformly distributed random bits.
    func next() -> UInt64

    /// Returns 128 random bits as two draws (an identifier). The default calls ``next()`` twice.
    func nextPair() -> (UInt64, UInt64)
}

extension BinobanRandomSource {
    /// Two consecutive draws of ``next()``.
    public func nextPair() -> (UInt64, UInt64) {
        (next(), next())
    }

    /// A uniformly distributed value in `0..<1`.
    public func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}

/// The default random source: a xoshiro256** generator seeded once from the system's secure generator.
///
/// Cheap enough for the event hot path (a `UUID()` costs about 1.3 µs; two draws from this cost tens of
/// nanoseconds). Identifiers only need to be unique, not unpredictable.
public final class SystemRandomSource: BinobanRandomSource {
    private let state: LockedValue<Xoshiro256StarStar>

    /// Creates a generator seeded from `SystemRandomNumberGenerator`.
    public init() {
        var system = SystemRandomNumberGenerator()
        state = LockedValue(Xoshiro256StarStar(seed: system.next()))
    }

    /// Returns 64 random bits.
    public func next() -> UInt64 {
        state.withLock { $0.next() }
    }

    /// Two draws under one lock (the message-id hot path).
    public func nextPair() -> (UInt64, UInt64) {
        state.withLock { ($0.next(), $0.next()) }
    }
}

/// The xoshiro256** generator (Blackman and Vigna), seeded through SplitMix64.
///
/// Package access: the system source and the test kit's seeded source use it; hosts pass a
/// ``BinobanRandomSource``.
package struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Creates a generator whose whole sequence is determined by `seed`.
    package init(seed: UInt64) {
        var splitMix = seed
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = nextSplitMix()
        s1 = nextSplitMix()
        s2 = nextSplitMix()
        s3 = nextSplitMix()
    }

    /// Returns the next 64 bits of the sequence.
    package mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = rotateLeft(s3, 45)
        return result
    }

    private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
