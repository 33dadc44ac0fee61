/// The header of a dynamic-Huffman block (RFC 1951 §3.2.7): the two codes' lengths, run-length encoded with
/// symbols 16–18 and themselves Huffman coded.
struct DynamicHeader {
    /// The order in which the code-length code's lengths are sent.
    private static let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private let literalCount: Int
    private let distanceCount: Int
    private let lengthCodeCount: Int
    /// Run-length symbols with their extra-bit values.
    private let runs: [(symbol: Int, extra: UInt32)]
    private let lengthCode: HuffmanCode

    /// The header's size in bits, the 3-bit block type excluded.
    let bitCount: Int

    init(literals: HuffmanCode, distances: HuffmanCode) {
        var literalCount = 286
        while literalCount > 257, literals.lengths[literalCount - 1] == 0 { literalCount -= 1 }
        var distanceCount = 30
        while distanceCount > 1, distances.lengths[distanceCount - 1] == 0 { distanceCount -= 1 }
        let all = Array(literals.lengths[0..<literalCount]) + Array(distances.lengths[0..<distanceCount])
        let runs = Self.runLengths(all)
        var frequencies = [Int](repeating: 0, count: 19)
        for run in runs { frequencies[run.symbol] += 1 }
        let lengthCode = HuffmanCode(frequencies: frequencies, limit: 7)
        var lengthCodeCount = 19
        while lengthCodeCount > 4, lengthCode.lengths[Self.order[lengthCodeCount - 1]] == 0 { lengthCodeCount -= 1 }

        var bits = 5 + 5 + 4 + 3 * lengthCodeCount
        for run in runs {
            bits += Int(lengthCode.lengths[run.symbol])
            bits += run.symbol == 16 ? 2 : run.symbol == 17 ? 3 : run.symbol == 18 ? 7 : 0
        }
        self.literalCount = literalCount
        self.distanceCount = distanceCount
        self.lengthCodeCount = lengthCodeCount
        self.runs = runs
        self.lengthCode = lengthCode
        bitCount = bits
    }

    /// Writes HLIT, HDIST, HCLEN, the code-length code and the run-length-coded lengths.
    func write(into writer: inout BitWriter) {
        writer.write(UInt32(literalCount - 257), width: 5)
        writer.write(UInt32(distanceCount - 1), width: 5)
        writer.write(UInt32(lengthCodeCount - 4), width: 4)
        for index in 0..<lengthCodeCount {
            writer.write(UInt32(lengthCode.lengths[Self.order[index]]), width: 3)
        }
        for run in runs {
            writer.write(lengthCode.codes[run.symbol], width: Int(lengthCode.lengths[run.symbol]))
            switch run.symbol {
            case 16: writer.write(run.extra, width: 2)
            case 17: writer.write(run.extra, width: 3)
            case 18: writer.write(run.extra, width: 7)
            default: break
            }
        }
    }

    /// 16 repeats the previous length 3–6 times, 17 writes 3–10 zeros, 18 writes 11–138 zeros.
    private static func runLengths(_ lengths: [UInt8]) -> [(symbol: Int, extra: UInt32)] {
        var runs: [(symbol: Int, extra: UInt32)] = []
        var index = 0
        while index < lengths.count {
            let length = lengths[index]
            var runEnd = index + 1
            while runEnd < lengths.count, lengths[runEnd] == length { runEnd += 1 }
            var remaining = runEnd - index
            if length == 0 {
                while remaining >= 11 {
                    let take = min(remaining, 138)
                    runs.append((18, UInt32(take - 11)))
                    remaining -= take
                }
                if remaining >= 3 {
                    runs.append((17, UInt32(remaining - 3)))
                    remaining = 0
                }
            } else {
                runs.append((Int(length), 0))
                remaining -= 1
                while remaining >= 3 {
                    let take = min(remaining, 6)
                    runs.append((16, UInt32(take - 3)))
                    remaining -= take
                }
            }
            for _ in 0..<remaining { runs.append((Int(length), 0)) }
            index = runEnd
        }
        return runs
    }
}
