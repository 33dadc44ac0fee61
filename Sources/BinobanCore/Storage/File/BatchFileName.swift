/// The naming scheme of the files a ``BinobanFileEventStorage`` creates, and the test that recognises them.
///
/// A batch file is named `<namespace>-<sequence>.<state>`: the namespace the storage was opened with, a dash,
/// the batch sequence as exactly 20 decimal digits (so names sort like numbers), and `open` while events are
/// being appended or `batch` once finished. Only names that match this pattern exactly, for this storage's
/// namespace, are ever read, repaired or deleted.
struct BatchFileName: Hashable, Sendable {
    /// Whether the file is still being appended to, or finished and never written again.
    enum State: String, Sendable {
        case open
        case finished = "batch"
    }

    /// The batch sequence.
    var sequence: UInt64
    /// The file's state.
    var state: State

    /// Digits in the sequence part of a name: enough for every `UInt64`.
    static let sequenceDigits = 20

    /// The largest sequence the SDK uses: `Int64.max`. A name with a larger sequence is not one of ours (the
    /// SDK counts from 1 and could not get there in any lifetime), so it is ignored like any foreign file; a
    /// storage that reaches this sequence refuses to start another batch instead of overflowing.
    static let maximumSequence = UInt64(Int64.max)

    /// The file name for this batch in `namespace`.
    ///
    /// Written as bytes into one buffer: the storage names a file several times per batch, and the interpolated
    /// string (a number formatted, a padding string, four pieces joined) showed in the loop's profile.
    func fileName(namespace: String) -> String {
        let suffix: StaticString = state == .open ? ".open" : ".batch"
        let count = namespace.utf8.count + 1 + Self.sequenceDigits + suffix.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: count) { buffer in
            var position = 0
            for byte in namespace.utf8 {
                buffer[position] = byte
                position += 1
            }
            buffer[position] = UInt8(ascii: "-")
            position += 1
            var rest = sequence
            for index in stride(from: position + Self.sequenceDigits - 1, through: position, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            position += Self.sequenceDigits
            suffix.withUTF8Buffer { bytes in
                for byte in bytes {
                    buffer[position] = byte
                    position += 1
                }
            }
            return position
        }
    }

    /// Parses `fileName` as a batch file of `namespace`, or returns nil when the name is anything else,
    /// including a sequence above ``maximumSequence``.
    init?(parsing fileName: String, namespace: String) {
        let name = Array(fileName.utf8)
        let prefix = Array(namespace.utf8) + [UInt8(ascii: "-")]
        guard name.count > prefix.count + Self.sequenceDigits, name.starts(with: prefix) else { return nil }
        let digitsEnd = prefix.count + Self.sequenceDigits
        guard name[digitsEnd] == UInt8(ascii: ".") else { return nil }
        let suffix = String(decoding: name[(digitsEnd + 1)...], as: UTF8.self)
        guard let state = State(rawValue: suffix) else { return nil }
        var sequence: UInt64 = 0
        for byte in name[prefix.count..<digitsEnd] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflowA) = sequence.multipliedReportingOverflow(by: 10)
            let (next, overflowB) = shifted.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            sequence = next
        }
        guard sequence <= Self.maximumSequence else { return nil }
        self.sequence = sequence
        self.state = state
    }

    /// Creates a name for `sequence` in `state`.
    init(sequence: UInt64, state: State) {
        self.sequence = sequence
        self.state = state
    }

    /// Whether `namespace` can be used in file names: 1 to 100 ASCII letters, digits, `_`, `-` or `.`, not
    /// starting with `.`.
    static func isValidNamespace(_ namespace: String) -> Bool {
        let bytes = Array(namespace.utf8)
        guard !bytes.isEmpty, bytes.count <= 100, bytes[0] != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                return true
            default:
                return false
            }
        }
    }
}
