/// A DEFLATE (RFC 1951) compressor: LZ77 over a 32 KiB window with hash chains, then each block written with
/// whichever of a dynamic Huffman code, the fixed code or no compression is shortest.
///
/// Tuned for upload bodies (up to half a megabyte of JSON that repeats itself event after event): greedy
/// matching with a short chain, eight bytes compared per step, and the positions inside a long match left out
/// of the hash chains (as zlib's fastest levels do), so it costs a few nanoseconds per byte.
enum DeflateEncoder {
    /// The longest chain of earlier positions tried per match.
    static let maxChain = 8
    /// A match at least this long is taken without looking further.
    static let goodEnough = 64
    /// Positions inside a match longer than this are not added to the hash chains: a long match means the text
    /// repeats, and the match's start already leads there.
    static let maxInsertLength = 16
    /// Tokens per block: a block ends when its symbol statistics are likely to drift.
    static let tokensPerBlock = 16_384

    private static let windowSize = 32_768
    private static let hashBits = 15
    private static let minMatch = 3
    private static let maxMatch = 258

    /// The DEFLATE stream of `input`, appended to `writer`.
    static func compress(_ input: UnsafeBufferPointer<UInt8>, into writer: inout BitWriter) {
        var tokens: [Token] = []
        tokens.reserveCapacity(min(input.count, tokensPerBlock))
        var blockStart = 0
        var position = 0
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var previous = [Int32](repeating: -1, count: windowSize)
        head.withUnsafeMutableBufferPointer { head in
            previous.withUnsafeMutableBufferPointer { previous in
                while position < input.count {
                    let length = match(at: position, in: input, head: head, previous: previous, tokens: &tokens)
                    position += length
                    if tokens.count >= tokensPerBlock {
                        writeBlock(tokens, raw: input, from: blockStart, to: position, last: false, into: &writer)
                        tokens.removeAll(keepingCapacity: true)
                        blockStart = position
                    }
                }
            }
        }
        writeBlock(tokens, raw: input, from: blockStart, to: input.count, last: true, into: &writer)
        writer.alignToByte()
    }

    /// Finds the longest earlier match at `position` (or none), appends its token, records the positions it
    /// covers in the hash chains and returns how many bytes it covers.
    @inline(__always)
    private static func match(
        at position: Int, in input: UnsafeBufferPointer<UInt8>, head: UnsafeMutableBufferPointer<Int32>,
        previous: UnsafeMutableBufferPointer<Int32>, tokens: inout [Token]
    ) -> Int {
        let count = input.count
        guard position + minMatch <= count else {
            tokens.append(Token(literal: input[position]))
            return 1
        }
        var bestLength = 0
        var bestDistance = 0
        var candidate = Int(insert(position, input: input, head: head, previous: previous))
        let limit = min(maxMatch, count - position)
        var chain = maxChain
        while candidate >= 0, position - candidate < windowSize, chain > 0 {
            chain -= 1
            if input[candidate + bestLength] == input[position + bestLength] || bestLength == 0 {
                let length = matchLength(input, candidate, position, limit: limit)
                if length > bestLength {
                    bestLength = length
                    bestDistance = position - candidate
                    if length >= goodEnough || length == limit { break }
                }
            }
            candidate = Int(previous[candidate & (windowSize - 1)])
        }
        guard bestLength >= minMatch else {
            tokens.append(Token(literal: input[position]))
            return 1
        }
        tokens.append(Token(length: bestLength, distance: bestDistance))
        guard bestLength <= maxInsertLength else { return bestLength }
        var covered = position + 1
        let end = min(position + bestLength, count - minMatch + 1)
        while covered < end {
            _ = insert(covered, input: input, head: head, previous: previous)
            covered += 1
        }
        return bestLength
    }

    /// How many bytes from `earlier` and `position` agree, at most `limit`; eight at a time while it can.
    @inline(__always)
    private static func matchLength(
        _ input: UnsafeBufferPointer<UInt8>, _ earlier: Int, _ position: Int, limit: Int
    ) -> Int {
        guard let base = input.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var length = 0
        while length + 8 <= limit {
            let left = raw.loadUnaligned(fromByteOffset: earlier + length, as: UInt64.self)
            let right = raw.loadUnaligned(fromByteOffset: position + length, as: UInt64.self)
            let difference = left ^ right
            if difference != 0 {
                // Little-endian load: the first differing byte is the lowest set byte.
                return length + (UInt64(littleEndian: difference).trailingZeroBitCount >> 3)
            }
            length += 8
        }
        while length < limit, input[earlier + length] == input[position + length] { length += 1 }
        return length
    }

    /// Records `position` under the hash of its next three bytes and returns the previous position there.
    @inline(__always)
    private static func insert(
        _ position: Int, input: UnsafeBufferPointer<UInt8>, head: UnsafeMutableBufferPointer<Int32>,
        previous: UnsafeMutableBufferPointer<Int32>
    ) -> Int32 {
        let key =
            (UInt32(input[position]) << 16 | UInt32(input[position + 1]) << 8 | UInt32(input[position + 2]))
            &* 0x9E37_79B1
        let slot = Int(key >> UInt32(32 - hashBits))
        let earlier = head[slot]
        previous[position & (windowSize - 1)] = earlier
        head[slot] = Int32(truncatingIfNeeded: position)
        return earlier
    }

    /// Writes one block in its cheapest form.
    private static func writeBlock(
        _ tokens: [Token], raw: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, last: Bool,
        into writer: inout BitWriter
    ) {
        var literalFrequencies = [Int](repeating: 0, count: 286)
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        for token in tokens {
            if token.isLiteral {
                literalFrequencies[Int(token.literal)] += 1
            } else {
                literalFrequencies[257 + DeflateTables.lengthCode(token.length)] += 1
                distanceFrequencies[DeflateTables.distanceCode(token.distance)] += 1
            }
        }
        literalFrequencies[256] = 1
        let literals = HuffmanCode(frequencies: literalFrequencies, limit: 15)
        let distances = HuffmanCode(frequencies: distanceFrequencies, limit: 15)
        let header = DynamicHeader(literals: literals, distances: distances)

        let extraBits = extraBitCount(tokens)
        let dynamicBits =
            3 + header.bitCount + payloadBits(literalFrequencies, distanceFrequencies, literals, distances) + extraBits
        let fixedBits =
            3
            + payloadBits(
                literalFrequencies, distanceFrequencies, DeflateTables.fixedLiterals, DeflateTables.fixedDistances)
            + extraBits
        let storedBytes = end - start
        // A stored block is byte-aligned and carries 4 bytes of length per 65 535 bytes of data.
        let storedBits = 3 + 7 + (storedBytes / 65_535 + 1) * 32 + storedBytes * 8

        if storedBits <= min(dynamicBits, fixedBits) {
            writeStored(raw, from: start, to: end, last: last, into: &writer)
        } else if fixedBits <= dynamicBits {
            writer.write(last ? 1 : 0, width: 1)
            writer.write(1, width: 2)
            writeTokens(
                tokens, literals: DeflateTables.fixedLiterals, distances: DeflateTables.fixedDistances, into: &writer)
        } else {
            writer.write(last ? 1 : 0, width: 1)
            writer.write(2, width: 2)
            header.write(into: &writer)
            writeTokens(tokens, literals: literals, distances: distances, into: &writer)
        }
    }

    private static func payloadBits(
        _ literalFrequencies: [Int], _ distanceFrequencies: [Int], _ literals: HuffmanCode, _ distances: HuffmanCode
    ) -> Int {
        var bits = 0
        for (symbol, frequency) in literalFrequencies.enumerated() where frequency > 0 {
            bits += frequency * Int(literals.lengths[symbol])
        }
        for (symbol, frequency) in distanceFrequencies.enumerated() where frequency > 0 {
            bits += frequency * Int(distances.lengths[symbol])
        }
        return bits
    }

    private static func extraBitCount(_ tokens: [Token]) -> Int {
        var bits = 0
        for token in tokens where !token.isLiteral {
            bits += Int(DeflateTables.lengthExtraBits[DeflateTables.lengthCode(token.length)])
            bits += Int(DeflateTables.distanceExtraBits[DeflateTables.distanceCode(token.distance)])
        }
        return bits
    }

    private static func writeTokens(
        _ tokens: [Token], literals: HuffmanCode, distances: HuffmanCode, into writer: inout BitWriter
    ) {
        literals.codes.withUnsafeBufferPointer { literalCodes in
            literals.lengths.withUnsafeBufferPointer { literalLengths in
                for token in tokens {
                    if token.isLiteral {
                        let symbol = Int(token.literal)
                        writer.write(literalCodes[symbol], width: Int(literalLengths[symbol]))
                        continue
                    }
                    let lengthCode = DeflateTables.lengthCode(token.length)
                    writer.write(literalCodes[257 + lengthCode], width: Int(literalLengths[257 + lengthCode]))
                    let lengthExtra = Int(DeflateTables.lengthExtraBits[lengthCode])
                    if lengthExtra > 0 {
                        writer.write(
                            UInt32(token.length - Int(DeflateTables.lengthBase[lengthCode])), width: lengthExtra)
                    }
                    let distanceCode = DeflateTables.distanceCode(token.distance)
                    writer.write(distances.codes[distanceCode], width: Int(distances.lengths[distanceCode]))
                    let distanceExtra = Int(DeflateTables.distanceExtraBits[distanceCode])
                    if distanceExtra > 0 {
                        writer.write(
                            UInt32(token.distance - Int(DeflateTables.distanceBase[distanceCode])),
                            width: distanceExtra)
                    }
                }
                writer.write(literalCodes[256], width: Int(literalLengths[256]))
            }
        }
    }

    private static func writeStored(
        _ raw: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, last: Bool, into writer: inout BitWriter
    ) {
        var offset = start
        repeat {
            let length = min(65_535, end - offset)
            let final = last && offset + length == end
            writer.write(final ? 1 : 0, width: 1)
            writer.write(0, width: 2)
            writer.alignToByte()
            writer.write(UInt32(length), width: 16)
            writer.write(UInt32(~UInt16(length)), width: 16)
            writer.appendAligned(UnsafeBufferPointer(rebasing: raw[offset..<offset + length]))
            offset += length
        } while offset < end
    }
}

/// One LZ77 output: a literal byte, or a match of `length` bytes `distance` back.
struct Token {
    private let bits: UInt32

    init(literal: UInt8) { bits = UInt32(literal) }
    init(length: Int, distance: Int) { bits = UInt32(length) << 16 | UInt32(distance) }

    var isLiteral: Bool { bits >> 16 == 0 }
    var literal: UInt8 { UInt8(truncatingIfNeeded: bits) }
    var length: Int { Int(bits >> 16) }
    var distance: Int { Int(bits & 0xFFFF) }
}
