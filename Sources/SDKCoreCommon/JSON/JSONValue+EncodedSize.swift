extension JSONValue {
    /// Checks a value that did not arrive as text (a dictionary from web content, say) against the limits of
    /// JSON text: the byte length of its compact text (``jsonString()``) and its nesting depth.
    ///
    /// The walk stops as soon as the length passes `limits.maximumBytes` or the nesting passes
    /// `limits.maximumDepth`, so its cost is bounded by the limits, not by the size of the value. The error's
    /// offset is 0 (a value has no byte offsets) and its message names the limit, never the content.
    package func exceedsLimits(_ limits: JSONParsingLimits) -> JSONParsingError? {
        var budget = limits.maximumBytes
        guard measure(budget: &budget, depth: 0, maximumDepth: limits.maximumDepth) else {
            if budget < 0 {
                return JSONParsingError(
                    reason: .tooLarge, offset: 0, message: "more than \(limits.maximumBytes) bytes as JSON text")
            }
            return JSONParsingError(
                reason: .tooDeep, offset: 0, message: "nesting deeper than \(limits.maximumDepth) levels")
        }
        return nil
    }

    /// Takes this value's compact text length from `budget`; `false` as soon as the budget goes negative
    /// (then `budget < 0`) or the nesting passes `maximumDepth` (then `budget >= 0`).
    private func measure(budget: inout Int, depth: Int, maximumDepth: Int) -> Bool {
        switch self {
        case .null:
            budget -= 4
        case .bool(let value):
            budget -= value ? 4 : 5
        case .int(let value):
            budget -= Self.decimalDigits(value)
        case .double(let value):
            var bytes: [UInt8] = []
            JSONWriter.appendNumber(value, to: &bytes)
            budget -= bytes.count
        case .string(let value):
            return Self.measure(value, budget: &budget)
        case .array(let elements):
            guard depth < maximumDepth else { return false }
            // Brackets, and a comma between elements.
            budget -= 2 + max(0, elements.count - 1)
            guard budget >= 0 else { return false }
            for element in elements {
                guard element.measure(budget: &budget, depth: depth + 1, maximumDepth: maximumDepth) else {
                    return false
                }
            }
        case .object(let members):
            guard depth < maximumDepth else { return false }
            // Braces, a colon per member and a comma between members.
            budget -= 2 + members.count + max(0, members.count - 1)
            guard budget >= 0 else { return false }
            for (key, value) in members {
                guard Self.measure(key, budget: &budget),
                    value.measure(budget: &budget, depth: depth + 1, maximumDepth: maximumDepth)
                else { return false }
            }
        }
        return budget >= 0
    }

    /// Takes the length of `text` as a JSON string literal (as ``JSONWriter/appendString(_:to:)`` writes it)
    /// from `budget`, reading no more bytes than the budget allows.
    private static func measure(_ text: String, budget: inout Int) -> Bool {
        let utf8 = text.utf8
        // Quotes and every byte at least once: a text that cannot fit is refused without reading it.
        budget -= 2 + utf8.count
        guard budget >= 0 else { return false }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09:
                budget -= 1
            case 0x00..<0x20:
                budget -= 5
            default:
                continue
            }
            guard budget >= 0 else { return false }
        }
        return true
    }

    /// The length of `String(value)`.
    private static func decimalDigits(_ value: Int) -> Int {
        var count = value < 0 ? 2 : 1
        var rest = value / 10
        while rest != 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}
