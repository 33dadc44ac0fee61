/// The event encoder's JSON writer: objects are written in dictionary order (no sort, no second lookup) and
/// strings without escapes are copied in one step.
///
/// It differs from `JSONValue.write(to:)` (SDKCoreCommon) only in member order, which JSON does not define: that
/// one sorts keys for deterministic text, this one does not, because events are written on every `track()` and
/// nothing compares their bytes. Both escape through `JSONWriter`, the shared primitives.
enum UnsortedJSONWriter {
    /// Appends `value` as a JSON string literal.
    static func appendString(_ value: String, to bytes: inout [UInt8]) {
        // Read through the borrowed view: `withUTF8` needs a mutable copy of the string, a retain and a release of
        // its storage per string written. `nil` (a bridged string without contiguous UTF-8) takes the slow path.
        let copied: Bool? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if copied != true { JSONWriter.appendString(value, to: &bytes) }
    }

    /// Appends `value` as JSON, object members in dictionary order.
    static func appendValue(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .string(let string):
            appendString(string, to: &bytes)
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in members {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendValue(member, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                appendValue(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .int(let number):
            appendInteger(number, to: &bytes)
        case .null, .bool, .double:
            value.write(to: &bytes)
        }
    }

    /// Appends a decimal integer without allocating a `String`.
    static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        // Swapped in place: reversing the slice `bytes[start...]` copied it into a new array for every number.
        var low = start
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }
}
