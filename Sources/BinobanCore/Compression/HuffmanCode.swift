/// A canonical prefix code for one DEFLATE alphabet (RFC 1951 §3.2.2): a length per symbol, and the codes
/// those lengths imply, bit-reversed because DEFLATE packs codes from their most significant bit.
struct HuffmanCode {
    /// The code length of each symbol; 0 for a symbol that does not occur.
    let lengths: [UInt8]
    /// The bit-reversed code of each symbol, ready for ``BitWriter/write(_:width:)``.
    let codes: [UInt32]

    /// The code with the given lengths (which must satisfy the Kraft inequality).
    init(lengths: [UInt8]) {
        self.lengths = lengths
        var countPerLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { countPerLength[Int(length)] += 1 }
        var next = [UInt32](repeating: 0, count: 16)
        var code: UInt32 = 0
        for length in 1..<16 {
            code = (code + UInt32(countPerLength[length - 1])) << 1
            next[length] = code
        }
        var codes = [UInt32](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let value = next[Int(length)]
            next[Int(length)] += 1
            var reversed: UInt32 = 0
            for bit in 0..<Int(length) where value & (1 << UInt32(bit)) != 0 {
                reversed |= 1 << UInt32(Int(length) - 1 - bit)
            }
            codes[symbol] = reversed
        }
        self.codes = codes
    }

    /// An optimal code for `frequencies` whose lengths do not exceed `limit`.
    ///
    /// At least two symbols always get a code (a zero frequency counts as one where needed), so the code is
    /// complete, which inflaters such as zlib require of the code-length alphabet. When the optimal tree is
    /// deeper than `limit`, the frequencies are halved (never below one) and the tree is built again: the
    /// result flattens towards a balanced tree, which for DEFLATE's alphabets fits well within the limits.
    init(frequencies: [Int], limit: Int) {
        var weights = frequencies
        var used = weights.indices.filter { weights[$0] > 0 }
        for symbol in weights.indices where used.count < 2 && weights[symbol] == 0 {
            weights[symbol] = 1
            used.append(symbol)
        }
        while true {
            let lengths = Self.optimalLengths(weights)
            if lengths.max() ?? 0 <= UInt8(limit) {
                self.init(lengths: lengths)
                return
            }
            weights = weights.map { $0 == 0 ? 0 : max(1, $0 / 2) }
        }
    }

    /// Huffman's algorithm with two queues: leaves sorted by weight, internal nodes in the order they are made
    /// (which is also sorted), so each step takes the two lightest fronts.
    private static func optimalLengths(_ weights: [Int]) -> [UInt8] {
        let leaves = weights.indices.filter { weights[$0] > 0 }.sorted {
            weights[$0] != weights[$1] ? weights[$0] < weights[$1] : $0 < $1
        }
        let leafCount = leaves.count
        var internalWeights: [Int] = []
        internalWeights.reserveCapacity(leafCount)
        // Children of internal node k; a child below leafCount is a leaf (its index in `leaves`).
        var children: [(Int, Int)] = []
        children.reserveCapacity(leafCount)
        var nextLeaf = 0
        var nextInternal = 0
        func takeLightest() -> Int {
            if nextLeaf < leafCount,
                nextInternal >= internalWeights.count
                    || weights[leaves[nextLeaf]] <= internalWeights[nextInternal]
            {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextInternal += 1
            return leafCount + nextInternal - 1
        }
        func weight(_ node: Int) -> Int { node < leafCount ? weights[leaves[node]] : internalWeights[node - leafCount] }
        for _ in 1..<leafCount {
            let first = takeLightest()
            let second = takeLightest()
            internalWeights.append(weight(first) + weight(second))
            children.append((first, second))
        }
        var depth = [Int](repeating: 0, count: leafCount + internalWeights.count)
        var lengths = [UInt8](repeating: 0, count: weights.count)
        for node in stride(from: children.count - 1, through: 0, by: -1) {
            let own = depth[leafCount + node]
            for child in [children[node].0, children[node].1] {
                depth[child] = own + 1
                if child < leafCount { lengths[leaves[child]] = UInt8(min(own + 1, 255)) }
            }
        }
        return lengths
    }
}
