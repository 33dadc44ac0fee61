#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Produces the `sessionId` of each execution's URL.
public protocol FalconIDSource: Sendable {
    /// A new session id; a fresh one for every execution.
    func makeSessionID() -> String
}

/// The default ID source: a random (version 4) UUID string per call, as `UUID().uuidString` spells it.
///
/// The 122 random bits come from the kernel's generator and are formatted here: on Linux `UUID()` opens, reads
/// and closes `/dev/urandom` on every call, three system calls that would be a large share of an execute's CPU
/// (Docs/Performance.md); here the bytes are fetched 256 at a time and each used once.
@usableFromInline package struct FalconUUIDSource: FalconIDSource {
    /// Creates the source.
    @usableFromInline package init() {}

    /// A new random UUID in upper-case `8-4-4-4-12` form, for example `"6F1C9A2E-…"`.
    @usableFromInline package func makeSessionID() -> String {
        var words: (UInt64, UInt64) = (0, 0)
        Self.fillRandom(&words)
        // Version 4 in the high nibble of byte 6, the RFC 4122 variant (10xx) in the high bits of byte 8.
        let high = (words.0 & ~0x0000_0000_0000_F000) | 0x0000_0000_0000_4000
        let low = (words.1 & ~0xC000_0000_0000_0000) | 0x8000_0000_0000_0000
        return Self.format(high: high, low: low)
    }

    /// Fills both words from the system's cryptographic generator: on Linux from a pool of its bytes fetched in
    /// bulk (``FalconRandomBytePool``: one `getentropy` per 16 ids), on Apple platforms with `arc4random_buf`
    /// (no system call), elsewhere word by word.
    private static func fillRandom(_ words: inout (UInt64, UInt64)) {
        #if canImport(Darwin)
        withUnsafeMutableBytes(of: &words) { arc4random_buf($0.baseAddress, $0.count) }
        #elseif canImport(Glibc) || canImport(Musl)
        FalconRandomBytePool.shared.withLock { $0.take(&words) }
        #else
        var random = SystemRandomNumberGenerator()
        words = (random.next(), random.next())
        #endif
    }

    /// `high` and `low` (big-endian halves of the 16 bytes) as `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX`.
    static func format(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ value: UInt64, nibbles: Int) {
                for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                    let nibble = UInt8((value >> UInt64(shift)) & 0xF)
                    buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
                    index += 1
                }
            }
            func dash() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            put(high >> 32, nibbles: 8)
            dash()
            put(high >> 16, nibbles: 4)
            dash()
            put(high, nibbles: 4)
            dash()
            put(low >> 48, nibbles: 4)
            dash()
            put(low, nibbles: 12)
            return index
        }
    }
}
