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
        var extraBits = 0
        literalFrequencies.withUnsafeMutableBufferPointer { literalFrequencies in
            distanceFrequencies.withUnsafeMutableBufferPointer { distanceFrequencies in
                for token in tokens {
                    literalFrequencies[token.symbol] += 1
                    if !token.isLiteral {
                        distanceFrequencies[token.distanceCode] += 1
                        extraBits += token.lengthExtraWidth + token.distanceExtraWidth
                    }
                }
            }
        }
        literalFrequencies[256] = 1
        let literals = HuffmanCode(frequencies: literalFrequencies, limit: 15)
        let distances = HuffmanCode(frequencies: distanceFrequencies, limit: 15)
        let header = DynamicHeader(literals: literals, distances: distances)

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

    private static func writeTokens(
        _ tokens: [Token], literals: HuffmanCode, distances: HuffmanCode, into writer: inout BitWriter
    ) {
        literals.codes.withUnsafeBufferPointer { literalCodes in
            literals.lengths.withUnsafeBufferPointer { literalLengths in
                distances.codes.withUnsafeBufferPointer { distanceCodes in
                    distances.lengths.withUnsafeBufferPointer { distanceLengths in
                        for token in tokens {
                            let symbol = token.symbol
                            let symbolWidth = Int(literalLengths[symbol])
                            if token.isLiteral {
                                writer.write(literalCodes[symbol], width: symbolWidth)
                                continue
                            }
                            // A length code and its extra bits fit one write (at most 15 + 5 bits), as do a
                            // distance code and its extra bits (at most 15 + 13).
                            writer.write(
                                literalCodes[symbol] | token.lengthExtra << UInt32(symbolWidth),
                                width: symbolWidth + token.lengthExtraWidth)
                            let code = token.distanceCode
                            let codeWidth = Int(distanceLengths[code])
                            writer.write(
                                distanceCodes[code] | token.distanceExtra << UInt32(codeWidth),
                                width: codeWidth + token.distanceExtraWidth)
                        }
                        writer.write(literalCodes[256], width: Int(literalLengths[256]))
                    }
                }
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

/// One LZ77 output, with everything the block writer needs already worked out: the literal/length symbol
/// and, for a match, its length's extra bits, its distance code and that code's extra bits (RFC 1951 §3.2.5),
/// so that counting frequencies and writing the block are table lookups of the Huffman codes only.
struct Token {
    // Bits 0–8 the literal/length symbol, 9–11 the length's extra-bit count, 12–16 their value, 17–21 the
    // distance code, 22–25 its extra-bit count, 26–38 their value.
    private let bits: UInt64

    init(literal: UInt8) { bits = UInt64(literal) }

    /// A match of `length` (3…258) bytes `distance` (1…32 768) back.
    init(length: Int, distance: Int) {
        let (lengthCode, lengthWidth, lengthExtra) = Self.lengthCode(length)
        let (distanceCode, distanceWidth, distanceExtra) = Self.distanceCode(distance)
        bits =
            UInt64(257 + lengthCode) | UInt64(lengthWidth) << 9 | UInt64(lengthExtra) << 12
            | UInt64(distanceCode) << 17 | UInt64(distanceWidth) << 22 | UInt64(distanceExtra) << 26
    }

    var isLiteral: Bool { symbol < 256 }
    /// The literal byte, or 257 + the length code.
    var symbol: Int { Int(bits & 0x1FF) }
    var lengthExtraWidth: Int { Int(bits >> 9 & 0x7) }
    var lengthExtra: UInt32 { UInt32(truncatingIfNeeded: bits >> 12 & 0x1F) }
    var distanceCode: Int { Int(bits >> 17 & 0x1F) }
    var distanceExtraWidth: Int { Int(bits >> 22 & 0xF) }
    var distanceExtra: UInt32 { UInt32(truncatingIfNeeded: bits >> 26 & 0x1FFF) }

    /// The length code (0…28), its extra-bit count and their value. Lengths 3…10 have codes 0…7; above, each
    /// power of two from 8 spans four codes whose extra bits count up to it; 258 has a code of its own.
    @inline(__always)
    static func lengthCode(_ length: Int) -> (code: Int, width: Int, extra: Int) {
        if length == 258 { return (28, 0, 0) }
        let offset = length - 3
        if offset < 8 { return (offset, 0, 0) }
        let magnitude = Int.bitWidth - 1 - offset.leadingZeroBitCount
        let width = magnitude - 2
        let code = 4 * (magnitude - 1) + (offset >> width & 3)
        return (code, width, offset & (1 << width - 1))
    }

    /// The distance code (0…29), its extra-bit count and their value. Distances 1…4 have codes 0…3; above,
    /// each power of two from 4 spans two codes whose extra bits count up to it.
    @inline(__always)
    static func distanceCode(_ distance: Int) -> (code: Int, width: Int, extra: Int) {
        let offset = distance - 1
        if offset < 4 { return (offset, 0, 0) }
        let magnitude = Int.bitWidth - 1 - offset.leadingZeroBitCount
        let width = magnitude - 1
        let code = 2 * magnitude + (offset >> width & 1)
        return (code, width, offset & (1 << width - 1))
    }
}
