/// Percent-encoding over the RFC 3986 unreserved set (`A–Z a–z 0–9 - . _ ~`), UTF-8.
///
/// Every other byte becomes `%XX` with upper-case hex digits, so a space is `%20`, `+` is `%2B` and `@` is
/// `%40`. `URLQueryItem` is not used because it leaves `+` literal, which servers decode as a space.
///
/// ```swift
/// FalconPercentEncoder.encode("a+b@example.com")  // "a%2Bb%40example.com"
/// ```
///
/// - Complexity: O(n) in the UTF-8 length.
public enum FalconPercentEncoder: Sendable {
    /// Encodes `text`.
    public static func encode(_ text: String) -> String {
        var writer = Writer(capacity: 3 * text.utf8.count)
        writer.append(encoding: text)
        return writer.finish()
    }

    /// Writes URL text into one buffer sized for the worst case (every byte escaped), scanning each piece's
    /// UTF-8 once; ``finish()`` turns it into a `String`. No per-character `String` work, no growth.
    struct Writer: ~Copyable {
        private let buffer: UnsafeMutableBufferPointer<UInt8>
        private var count = 0

        /// Reserves `capacity` bytes; the caller sizes it for everything it will append.
        init(capacity: Int) {
            buffer = .allocate(capacity: max(capacity, 1))
        }

        deinit { buffer.deallocate() }

        private var queryItems = 0

        /// The worst-case size of one query item: a separator, the encoded name, `=` and the encoded value.
        static func capacity(name: String, value: String) -> Int { 2 + 3 * (name.utf8.count + value.utf8.count) }

        /// Appends `?name=value` for the first item and `&name=value` after it, both encoded.
        mutating func appendQueryItem(_ name: String, _ value: String) {
            append(queryItems == 0 ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            queryItems += 1
            append(encoding: name)
            append(UInt8(ascii: "="))
            append(encoding: value)
        }

        /// Appends `text` as it is (for the already valid base URL and the separators).
        mutating func append(verbatim text: String) {
            for byte in text.utf8 { append(byte) }
        }

        /// Appends one byte as it is.
        mutating func append(_ byte: UInt8) {
            precondition(count < buffer.count)
            buffer[count] = byte
            count += 1
        }

        /// Appends the encoding of `text`.
        mutating func append(encoding text: String) {
            // One capacity check per piece, none per byte.
            precondition(count + 3 * text.utf8.count <= buffer.count)
            // Native strings expose their UTF-8 contiguously; bridged ones fall back to the iterator.
            let done: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
                for byte in utf8 { append(escaping: byte) }
            }
            if done == nil {
                for byte in text.utf8 { append(escaping: byte) }
            }
        }

        @inline(__always)
        private mutating func append(escaping byte: UInt8) {
            if isUnreserved(byte) {
                buffer[count] = byte
                count += 1
            } else {
                buffer[count] = UInt8(ascii: "%")
                buffer[count + 1] = hexDigit(byte >> 4)
                buffer[count + 2] = hexDigit(byte & 0x0F)
                count += 3
            }
        }

        /// The text written so far.
        consuming func finish() -> String {
            String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// The upper-case hex digit of `nibble` (0...15).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// Whether `byte` is in the RFC 3986 unreserved set.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        // One bit per ASCII byte (bits 0–63 in the low word, 64–127 in the high word): two shifts instead of a
        // chain of range comparisons in the per-byte loop.
        if byte < 64 { return (unreservedLow >> UInt64(byte)) & 1 == 1 }
        if byte < 128 { return (unreservedHigh >> UInt64(byte - 64)) & 1 == 1 }
        return false
    }

    /// `-` (45), `.` (46) and `0`–`9` (48–57).
    private static let unreservedLow: UInt64 = (1 << 45) | (1 << 46) | (0x3FF << 48)
    /// `A`–`Z` (65–90), `_` (95), `a`–`z` (97–122) and `~` (126), each minus 64.
    private static let unreservedHigh: UInt64 = (0x3FF_FFFF << 1) | (1 << 31) | (0x3FF_FFFF << 33) | (1 << 62)
}
