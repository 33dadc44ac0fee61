#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Decompresses gzip request bodies (RFC 1952 around RFC 1951 DEFLATE), so tests and test ingests can read
/// what an instance with `Configuration.compressesUploads` sends.
///
/// A plain decoder written for tests: it checks the CRC-32 and the length, and throws on anything malformed.
///
/// ```swift
/// let json = try GzipBody.decompress(request.body)
/// ```
public enum GzipBody: Sendable {
    /// Why a body could not be decompressed.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong.
        public let description: String
    }

    /// Whether `body` starts with the gzip magic bytes `1f 8b`.
    public static func isCompressed(_ body: Data) -> Bool {
        body.count >= 2 && body[body.startIndex] == 0x1F && body[body.startIndex + 1] == 0x8B
    }

    /// The decompressed bytes of the gzip member in `body`.
    public static func decompress(_ body: Data) throws -> Data {
        let bytes = [UInt8](body)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else {
            throw DecodingError(description: "not a gzip member")
        }
        let flags = bytes[3]
        var offset = 10
        if flags & 0x04 != 0 {
            guard offset + 2 <= bytes.count else { throw DecodingError(description: "truncated header") }
            offset += 2 + Int(bytes[offset]) + Int(bytes[offset + 1]) << 8
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while offset < bytes.count, bytes[offset] != 0 { offset += 1 }
            offset += 1
        }
        if flags & 0x02 != 0 { offset += 2 }
        guard offset < bytes.count else { throw DecodingError(description: "truncated header") }
        var reader = Inflater(bytes: bytes, offset: offset)
        let output = try reader.inflate()
        let trailer = reader.byteOffset
        guard trailer + 8 <= bytes.count else { throw DecodingError(description: "missing trailer") }
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        guard word(trailer) == crc32(output) else { throw DecodingError(description: "CRC-32 mismatch") }
        guard word(trailer + 4) == UInt32(truncatingIfNeeded: output.count) else {
            throw DecodingError(description: "length mismatch")
        }
        return Data(output)
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var crc = UInt32(index)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            table[index] = crc
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = (crc >> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)] }
        return ~crc
    }
}

/// Reads DEFLATE blocks bit by bit and decodes Huffman codes by canonical counting (slow but simple).
private struct Inflater {
    let bytes: [UInt8]
    private var bitOffset: Int

    init(bytes: [UInt8], offset: Int) {
        self.bytes = bytes
        bitOffset = offset * 8
    }

    /// The first whole byte after the stream.
    var byteOffset: Int { (bitOffset + 7) / 8 }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// A canonical code: how many codes of each length, and the symbols in code order.
    private struct Code {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) throws {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var left = 1
            for length in 1..<16 {
                left = left * 2 - counts[length]
                guard left >= 0 else { throw GzipBody.DecodingError(description: "oversubscribed code") }
            }
            for length in 1..<16 {
                for (symbol, own) in lengths.enumerated() where own == length { symbols.append(symbol) }
            }
        }
    }

    private mutating func bits(_ count: Int) throws -> Int {
        var value = 0
        for index in 0..<count {
            let byte = bitOffset >> 3
            guard byte < bytes.count else { throw GzipBody.DecodingError(description: "truncated stream") }
            value |= Int((bytes[byte] >> UInt8(bitOffset & 7)) & 1) << index
            bitOffset += 1
        }
        return value
    }

    private mutating func decode(_ code: Code) throws -> Int {
        var value = 0
        var first = 0
        var index = 0
        for length in 1..<16 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - first < count { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw GzipBody.DecodingError(description: "invalid code")
    }

    mutating func inflate() throws -> [UInt8] {
        var output: [UInt8] = []
        var last = 0
        while last == 0 {
            last = try bits(1)
            switch try bits(2) {
            case 0:
                bitOffset = (bitOffset + 7) & ~7
                let length = try bits(16)
                let complement = try bits(16)
                guard length == ~complement & 0xFFFF else {
                    throw GzipBody.DecodingError(description: "bad stored length")
                }
                let start = bitOffset >> 3
                guard start + length <= bytes.count else {
                    throw GzipBody.DecodingError(description: "truncated stored")
                }
                output.append(contentsOf: bytes[start..<start + length])
                bitOffset += length * 8
            case 1:
                let literals = try Code(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
                let distances = try Code(lengths: [Int](repeating: 5, count: 30))
                try inflateBlock(literals, distances, into: &output)
            case 2:
                let literalCount = try bits(5) + 257
                let distanceCount = try bits(5) + 1
                let lengthCodeCount = try bits(4) + 4
                let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                var lengthLengths = [Int](repeating: 0, count: 19)
                for index in 0..<lengthCodeCount { lengthLengths[order[index]] = try bits(3) }
                let lengthCode = try Code(lengths: lengthLengths)
                var lengths: [Int] = []
                while lengths.count < literalCount + distanceCount {
                    let symbol = try decode(lengthCode)
                    switch symbol {
                    case 16:
                        guard let previous = lengths.last else {
                            throw GzipBody.DecodingError(description: "repeat first")
                        }
                        lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
                    case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
                    case 18: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
                    default: lengths.append(symbol)
                    }
                }
                guard lengths.count == literalCount + distanceCount else {
                    throw GzipBody.DecodingError(description: "too many lengths")
                }
                try inflateBlock(
                    Code(lengths: Array(lengths[0..<literalCount])), Code(lengths: Array(lengths[literalCount...])),
                    into: &output)
            default:
                throw GzipBody.DecodingError(description: "reserved block type")
            }
        }
        return output
    }

    private mutating func inflateBlock(_ literals: Code, _ distances: Code, into output: inout [UInt8]) throws {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let lengthIndex = symbol - 257
            guard lengthIndex < 29 else { throw GzipBody.DecodingError(description: "bad length symbol") }
            let length = Self.lengthBase[lengthIndex] + (try bits(Self.lengthExtra[lengthIndex]))
            let distanceIndex = try decode(distances)
            guard distanceIndex < 30 else { throw GzipBody.DecodingError(description: "bad distance symbol") }
            let distance = Self.distanceBase[distanceIndex] + (try bits(Self.distanceExtra[distanceIndex]))
            guard distance <= output.count else { throw GzipBody.DecodingError(description: "distance too far") }
            let start = output.count - distance
            for index in 0..<length { output.append(output[start + index]) }
        }
    }
}
