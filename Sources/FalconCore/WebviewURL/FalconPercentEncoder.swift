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
package enum FalconPercentEncoder: Sendable {
    /// Encodes `text`.
    package static func encode(_ text: String) -> String {
        Writer.string(capacity: 3 * text.utf8.count) { $0.append(encoding: text) }
    }

    /// Writes URL text into one buffer sized for the worst case (every byte escaped) by the caller; each piece's
    /// UTF-8 is scanned once. No per-character `String` work, no growth.
    struct Writer {
        private let buffer: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0
        private var queryItems = 0

        private init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        /// The text `write` appends, in a string of at most `capacity` bytes (`write` must not append more).
        ///
        /// The bytes are written into scratch space (on the stack for a URL's size) and the `String` made from
        /// them in one copy: its UTF-8 check then takes the word-at-a-time ASCII path, where a `String` written
        /// in place is validated byte by byte, and the string keeps only the bytes written, not the worst case.
        static func string(capacity: Int, _ write: (inout Writer) -> Void) -> String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(capacity, 1)) { buffer in
                var writer = Writer(buffer)
                write(&writer)
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writer.count]), as: UTF8.self)
            }
        }

        /// The worst-case size of one query item: a separator, the encoded name, `=` and the encoded value.
        static func capacity(name: String, value: String) -> Int { 2 + 3 * (name.utf8.count + value.utf8.count) }

        /// Appends `?name=value` for the first item and `&name=value` after it, both encoded.
        mutating func appendQueryItem(_ name: String, _ value: String) {
            appendQueryItem(name, value, following: queryItems > 0)
        }

        /// Appends `&name=value` when the item follows others (written here or elsewhere, as a memoized part of
        /// the query is), else `?name=value`.
        mutating func appendQueryItem(_ name: String, _ value: String, following: Bool) {
            append(following ? UInt8(ascii: "&") : UInt8(ascii: "?"))
            queryItems += 1
            append(encoding: name)
            append(UInt8(ascii: "="))
            append(encoding: value)
        }

        /// Appends `text` as it is (for the already valid base URL).
        mutating func append(verbatim text: String) {
            var text = text
            text.withUTF8 { utf8 in
                precondition(count + utf8.count <= buffer.count)
                count += UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: utf8)
            }
        }

        /// Appends one byte as it is.
        mutating func append(_ byte: UInt8) {
            precondition(count < buffer.count)
            buffer[count] = byte
            count += 1
        }

        /// Appends the encoding of `text`.
        mutating func append(encoding text: String) {
            var text = text
            text.withUTF8 { utf8 in
                // One capacity check per piece, none per byte.
                precondition(count + 3 * utf8.count <= buffer.count)
                count = Self.encode(utf8, into: buffer, at: count)
            }
        }

        /// Writes the encoding of `source` at `start` (the room was checked) and returns the new count. Local
        /// pointers and a 256-entry table, so the per-byte loop is a load, a test and a store.
        private static func encode(
            _ source: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int
        ) -> Int {
            guard let base = buffer.baseAddress else { return start }
            return unreservedTable.withUnsafeBufferPointer { table in
                var out = base + start
                for byte in source {
                    if table[Int(byte)] != 0 {
                        out.pointee = byte
                        out += 1
                    } else {
                        out[0] = UInt8(ascii: "%")
                        out[1] = hexDigit(byte >> 4)
                        out[2] = hexDigit(byte & 0x0F)
                        out += 3
                    }
                }
                return out - base
            }
        }
    }

    /// 1 for the bytes of the unreserved set, 0 for every other byte value.
    private static let unreservedTable: [UInt8] = (0...255).map { isUnreserved(UInt8($0)) ? 1 : 0 }

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
        // Literals rather than stored constants: nothing to load through a global accessor in the loop.
        // Low word: `-` (45), `.` (46) and `0`–`9` (48–57). High word, each minus 64: `A`–`Z` (65–90), `_` (95),
        // `a`–`z` (97–122) and `~` (126).
        let low: UInt64 = (1 << 45) | (1 << 46) | (0x3FF << 48)
        let high: UInt64 = (0x3FF_FFFF << 1) | (1 << 31) | (0x3FF_FFFF << 33) | (1 << 62)
        // A select instead of two branches: the loop runs it for every byte of the URL.
        let word = byte < 64 ? low : (byte < 128 ? high : 0)
        return (word >> UInt64(byte & 63)) & 1 == 1
    }
}
