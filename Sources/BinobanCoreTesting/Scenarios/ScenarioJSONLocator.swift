/// Finds where a JSON text first breaks the grammar, as a 1-based line and column, so a scenario author is
/// pointed at the spot instead of at a decoder's generic message.
struct ScenarioJSONLocator {
    /// The place and the reason of the first syntax error.
    struct Location: Sendable, Hashable {
        var line: Int
        var column: Int
        var reason: String
    }

    private struct Stop: Error {
        var offset: Int
        var reason: String
    }

    private let bytes: [UInt8]
    private var offset = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The first syntax error in `bytes`, or `nil` when the grammar holds (nesting depth is not limited here).
    static func firstError(in bytes: [UInt8]) -> Location? {
        var walker = ScenarioJSONLocator(bytes)
        do throws(Stop) {
            walker.skipWhitespace()
            try walker.value(depth: 0)
            walker.skipWhitespace()
            if walker.offset < bytes.count {
                throw Stop(offset: walker.offset, reason: "unexpected text after the value")
            }
            return nil
        } catch {
            var line = 1
            var column = 1
            for byte in bytes[0..<min(error.offset, bytes.count)] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return Location(line: line, column: column, reason: error.reason)
        }
    }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private mutating func value(depth: Int) throws(Stop) {
        guard depth < 512 else { throw Stop(offset: offset, reason: "nested too deeply") }
        switch current {
        case UInt8(ascii: "{"): try members(depth: depth)
        case UInt8(ascii: "["): try elements(depth: depth)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try word("true")
        case UInt8(ascii: "f"): try word("false")
        case UInt8(ascii: "n"): try word("null")
        case .some(let byte) where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            number()
        case nil: throw Stop(offset: offset, reason: "unexpected end of the text, expected a value")
        default: throw Stop(offset: offset, reason: "expected a value")
        }
    }

    private mutating func members(depth: Int) throws(Stop) {
        offset += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            guard current == UInt8(ascii: "\"") else {
                throw Stop(offset: offset, reason: "expected a member name in quotes")
            }
            try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw Stop(offset: offset, reason: "expected ':' after the member name")
            }
            offset += 1
            skipWhitespace()
            try value(depth: depth + 1)
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
            } else if current == UInt8(ascii: "}") {
                offset += 1
                return
            } else {
                throw Stop(offset: offset, reason: "expected ',' or '}'")
            }
        }
    }

    private mutating func elements(depth: Int) throws(Stop) {
        offset += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try value(depth: depth + 1)
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
            } else if current == UInt8(ascii: "]") {
                offset += 1
                return
            } else {
                throw Stop(offset: offset, reason: "expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(Stop) {
        let start = offset
        offset += 1
        while let byte = current {
            offset += 1
            if byte == UInt8(ascii: "\"") { return }
            if byte == UInt8(ascii: "\\") { offset += 1 }
            if byte < 0x20 { throw Stop(offset: offset - 1, reason: "a control character inside a string") }
        }
        throw Stop(offset: start, reason: "a string that is never closed")
    }

    private mutating func word(_ text: String) throws(Stop) {
        let expected = Array(text.utf8)
        guard offset + expected.count <= bytes.count, Array(bytes[offset..<offset + expected.count]) == expected else {
            throw Stop(offset: offset, reason: "expected a value")
        }
        offset += expected.count
    }

    private mutating func number() {
        while let byte = current,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
                || byte == UInt8(ascii: "E")
        {
            offset += 1
        }
    }
}
