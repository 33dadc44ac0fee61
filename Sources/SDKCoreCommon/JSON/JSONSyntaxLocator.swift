/// Finds the position of the first JSON syntax error, because the platform's JSON parser does not say where
/// a file is broken.
///
/// A small recursive-descent checker over UTF-8 bytes (RFC 8259 grammar, nesting limited to 512 levels);
/// it only locates errors, the platform parser still does the parsing.
package struct JSONSyntaxLocator {
    package struct Failure: Equatable, Sendable {
        package var line: Int
        package var column: Int
        package var reason: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The first syntax error in `bytes`, or `nil` when they are valid JSON.
    package static func firstError(in bytes: [UInt8]) -> Failure? {
        var locator = JSONSyntaxLocator(bytes)
        do throws(Thrown) {
            try locator.value()
            locator.whitespace()
            if locator.index < bytes.count { throw locator.failure("unexpected text after the end of the document") }
            return nil
        } catch {
            return error.failure
        }
    }

    private struct Thrown: Error {
        var failure: Failure
    }

    private func failure(_ reason: String) -> Thrown {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Thrown(failure: Failure(line: line, column: column, reason: reason))
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func whitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Thrown) {
        whitespace()
        guard current == byte else {
            throw failure(current == nil ? "unexpected end of file, expected \(what)" : "expected \(what)")
        }
        index += 1
    }

    private mutating func value() throws(Thrown) {
        whitespace()
        guard let byte = current else { throw failure("unexpected end of file, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), isObject: true)
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), isObject: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw failure("unexpected character, expected a value")
        }
    }

    private mutating func container(close: UInt8, isObject: Bool) throws(Thrown) {
        depth += 1
        guard depth <= 512 else { throw failure("nesting deeper than 512 levels") }
        index += 1
        whitespace()
        if current == close {
            index += 1
            depth -= 1
            return
        }
        while true {
            if isObject {
                whitespace()
                guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted member name") }
                try string()
                try expect(UInt8(ascii: ":"), "':' after the member name")
            }
            try value()
            whitespace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            try expect(close, isObject ? "',' or '}'" : "',' or ']'")
            depth -= 1
            return
        }
    }

    private mutating func string() throws(Thrown) {
        index += 1
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return
            case UInt8(ascii: "\\"):
                guard let escaped = current else { break }
                index += 1
                if escaped == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        guard let hex = current, hex.isHexDigit else { throw failure("invalid \\u escape") }
                        index += 1
                    }
                } else if !Array("\"\\/bfnrt".utf8).contains(escaped) {
                    index -= 1
                    throw failure("invalid escape sequence")
                }
            case 0..<0x20:
                index -= 1
                throw failure("control character inside a string")
            default: break
            }
        }
        throw failure("unexpected end of file inside a string")
    }

    private mutating func literal(_ word: String) throws(Thrown) {
        let start = index
        for byte in word.utf8 {
            guard current == byte else {
                index = start
                throw failure("unexpected character, expected \(word)")
            }
            index += 1
        }
    }

    private mutating func number() throws(Thrown) {
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first.isDigit else { throw failure("invalid number") }
        index += 1
        if first != UInt8(ascii: "0") { while current?.isDigit == true { index += 1 } }
        if current == UInt8(ascii: ".") {
            index += 1
            guard current?.isDigit == true else { throw failure("invalid number: digits expected after '.'") }
            while current?.isDigit == true { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard current?.isDigit == true else { throw failure("invalid number: digits expected in the exponent") }
            while current?.isDigit == true { index += 1 }
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
