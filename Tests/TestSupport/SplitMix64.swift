/// A small seeded pseudo-random generator (SplitMix64) shared by the test targets, so randomized tests
/// replay exactly from a printed seed.
///
/// Not for production randomness: the sequence is fully determined by the seed. Changing the algorithm
/// changes what every seeded test exercises, so keep it as it is.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let byte = UInt8(truncatingIfNeeded: random.next())
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is determined by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next value of the sequence.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
