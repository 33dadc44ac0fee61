extension JSONValue {
    /// The compact JSON text of this value with object keys sorted (deterministic output).
    ///
    /// - Complexity: O(n log k) for n bytes of output and objects of at most k keys.
    public func jsonString() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text of this value (keys sorted) to `bytes` as UTF-8.
    package func write(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .bool(let value):
            bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value):
            bytes.append(contentsOf: String(value).utf8)
        case .double(let value):
            JSONWriter.appendNumber(value, to: &bytes)
        case .string(let value):
            JSONWriter.appendString(value, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[key, default: .null].write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}

/// Hand-written JSON output primitives shared by the cores' encoders.
///
/// `JSONEncoder` costs about ten times more per small event; it stays the test oracle.
package enum JSONWriter: Sendable {
    /// Appends `value` as a JSON string literal (quotes included), escaping quotes, backslashes and
    /// control characters. Non-ASCII text is written as UTF-8, not as `\u` escapes.
    package static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "\\"))
            case 0x0A:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "n"))
            case 0x0D:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "r"))
            case 0x09:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "t"))
            case 0x00..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value` as a JSON number: integral values within ±2^53 without a fraction, others in
    /// Swift's shortest round-trip form. Non-finite values are written as `null`.
    package static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }
}
