#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The bounds on JSON text from a source the SDK does not control (a web page's bridge message, a push field).
///
/// Parsing with ``JSONValue/init(parsing:limits:)-(String,_)`` takes time and memory linear in the input, and
/// these limits bound the input itself: text longer than ``maximumBytes`` is rejected before it is read, and
/// nesting deeper than ``maximumDepth`` is rejected where it starts.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"type":"event","name":"loaded"}"#)  // limits: .untrusted
/// ```
public struct JSONParsingLimits: Sendable, Hashable {
    /// The longest accepted text, in UTF-8 bytes.
    public var maximumBytes: Int
    /// The deepest accepted nesting of arrays and objects; a top-level scalar has depth 0, `[1]` depth 1.
    public var maximumDepth: Int

    /// The default ``maximumBytes`` of ``untrusted``: 64 KiB.
    public static let defaultMaximumBytes = 65_536
    /// The default ``maximumDepth`` of ``untrusted``: 64 levels.
    public static let defaultMaximumDepth = 64

    /// Creates limits; values below 0 count as 0. The defaults are those of ``untrusted``.
    public init(maximumBytes: Int = defaultMaximumBytes, maximumDepth: Int = defaultMaximumDepth) {
        self.maximumBytes = max(0, maximumBytes)
        self.maximumDepth = max(0, maximumDepth)
    }

    /// 64 KiB and 64 levels: the limits of bridge messages and push fields.
    public static let untrusted = JSONParsingLimits()
}

/// Why JSON text was rejected. The description names the problem and the byte offset, never the text.
public struct JSONParsingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Reason: String, Sendable, Hashable {
        /// The text is longer than ``JSONParsingLimits/maximumBytes``; nothing was read.
        case tooLarge
        /// Arrays or objects nest deeper than ``JSONParsingLimits/maximumDepth``.
        case tooDeep
        /// The text is not JSON (RFC 8259), is not UTF-8, or holds a number outside the range of `Double`.
        case invalidSyntax
    }

    /// The kind of problem.
    public var reason: Reason
    /// The byte offset where the problem was found (0 for ``Reason/tooLarge``).
    public var offset: Int
    /// A short, value-free explanation, such as `nesting deeper than 64 levels`.
    public var message: String

    /// Creates an error.
    public init(reason: Reason, offset: Int, message: String) {
        self.reason = reason
        self.offset = offset
        self.message = message
    }

    /// `reason at byte N: message`.
    public var description: String { "\(reason.rawValue) at byte \(offset): \(message)" }
}

extension JSONValue {
    /// Parses JSON text from an untrusted source, in time and memory linear in its length.
    ///
    /// Strict RFC 8259: one value (any kind, surrounded by optional whitespace), no trailing commas, no
    /// comments, valid UTF-8, `\u` escapes with paired surrogates. Numbers without a fraction or exponent that
    /// fit an `Int`, and other numbers whose value is integral and fits an `Int`, become ``int(_:)``, as with
    /// `JSONDecoder`; a number outside the range of `Double` is rejected. A member name given twice keeps its
    /// last value.
    ///
    /// - Throws: ``JSONParsingError`` for text over the limits or not JSON.
    /// - Complexity: O(n) in the length of `text`.
    public init(parsing text: String, limits: JSONParsingLimits = .untrusted) throws(JSONParsingError) {
        guard text.utf8.count <= limits.maximumBytes else { throw JSONParser.tooLarge(text.utf8.count, limits) }
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParsingError) in try JSONParser.parse(UnsafeRawBufferPointer(buffer), limits: limits)
            }
        }
        self = try result.get()
    }

    /// Parses UTF-8 JSON `data` from an untrusted source; the rules of ``init(parsing:limits:)-(String,_)``.
    ///
    /// - Throws: ``JSONParsingError`` for data over the limits or not JSON.
    /// - Complexity: O(n) in the size of `data`.
    public init(parsing data: Data, limits: JSONParsingLimits = .untrusted) throws(JSONParsingError) {
        guard data.count <= limits.maximumBytes else { throw JSONParser.tooLarge(data.count, limits) }
        let result = data.withUnsafeBytes { buffer in
            Result { () throws(JSONParsingError) in try JSONParser.parse(buffer, limits: limits) }
        }
        self = try result.get()
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes. Recursion is bounded by the depth limit; every byte is
/// looked at a constant number of times.
struct JSONParser {
    private let bytes: UnsafeRawBufferPointer
    private let maximumDepth: Int
    private var index = 0
    private var depth = 0
    /// Reused for strings with escapes.
    private var scratch: [UInt8] = []

    private init(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    static func tooLarge(_ count: Int, _ limits: JSONParsingLimits) -> JSONParsingError {
        JSONParsingError(
            reason: .tooLarge, offset: 0,
            message: "\(count) bytes is more than the limit of \(limits.maximumBytes)")
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, limits: JSONParsingLimits) throws(JSONParsingError) -> JSONValue
    {
        guard bytes.count <= limits.maximumBytes else { throw tooLarge(bytes.count, limits) }
        var parser = JSONParser(bytes, maximumDepth: limits.maximumDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.syntax("unexpected text after the value") }
        return value
    }

    // MARK: Helpers

    private func syntax(_ message: String) -> JSONParsingError {
        JSONParsingError(reason: .invalidSyntax, offset: index, message: message)
    }

    @inline(__always)
    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always)
    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParsingError) -> JSONValue {
        guard let byte = current else { throw syntax("unexpected end of text, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw syntax("unexpected character, expected a value")
        }
    }

    private mutating func enter() throws(JSONParsingError) {
        guard depth < maximumDepth else {
            throw JSONParsingError(
                reason: .tooDeep, offset: index, message: "nesting deeper than \(maximumDepth) levels")
        }
        depth += 1
        index += 1
    }

    private mutating func parseArray() throws(JSONParsingError) -> JSONValue {
        try enter()
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?:
                index += 1
            case UInt8(ascii: "]")?:
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw syntax("expected ',' or ']'")
            }
        }
    }

    private mutating func parseObject() throws(JSONParsingError) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw syntax("expected a quoted member name") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw syntax("expected ':' after the member name") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ",")?:
                index += 1
            case UInt8(ascii: "}")?:
                index += 1
                depth -= 1
                return .object(members)
            default:
                throw syntax("expected ',' or '}'")
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParsingError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw syntax("invalid literal") }
        let bytes = self.bytes
        let start = index
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[start + $0] == expected[$0] }
        }
        guard matches else { throw syntax("invalid literal") }
        index += count
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONParsingError) -> JSONValue {
        let start = index
        var negative = false
        if current == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = current, first.isDigit else { throw syntax("invalid number") }
        // Accumulate the integer part as a negative number so that Int.min fits.
        var accumulated = 0
        var fitsInt = true
        index += 1
        accumulated = -Int(first - UInt8(ascii: "0"))
        if first == UInt8(ascii: "0") {
            if current?.isDigit == true { throw syntax("invalid number: leading zero") }
        } else {
            while let byte = current, byte.isDigit {
                if fitsInt {
                    let (shifted, overflowA) = accumulated.multipliedReportingOverflow(by: 10)
                    let (next, overflowB) = shifted.subtractingReportingOverflow(Int(byte - UInt8(ascii: "0")))
                    if overflowA || overflowB { fitsInt = false } else { accumulated = next }
                }
                index += 1
            }
        }
        var isIntegerText = true
        if current == UInt8(ascii: ".") {
            isIntegerText = false
            index += 1
            guard current?.isDigit == true else { throw syntax("invalid number: digits expected after '.'") }
            while current?.isDigit == true { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isIntegerText = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard current?.isDigit == true else { throw syntax("invalid number: digits expected in the exponent") }
            while current?.isDigit == true { index += 1 }
        }
        if isIntegerText, fitsInt {
            if negative { return .int(accumulated) }
            if accumulated != Int.min { return .int(-accumulated) }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            index = start
            throw syntax("number outside the range of Double")
        }
        if double == double.rounded(), double >= -9_223_372_036_854_775_808.0, double < 9_223_372_036_854_775_808.0 {
            return .int(Int(double))
        }
        return .double(double)
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONParsingError) -> String {
        index += 1  // the opening quote
        let start = index
        // Fast path: no escape.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw syntax("control character inside a string") }
            if byte < 0x80 {
                index += 1
            } else {
                try skipUTF8Sequence()
            }
        }
        guard index < bytes.count else { throw syntax("unexpected end of text inside a string") }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                try parseEscape()
            case 0..<0x20:
                throw syntax("control character inside a string")
            case 0..<0x80:
                scratch.append(byte)
                index += 1
            default:
                let sequenceStart = index
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[sequenceStart..<index]))
            }
        }
        throw syntax("unexpected end of text inside a string")
    }

    private mutating func parseEscape() throws(JSONParsingError) {
        guard let escaped = current else { throw syntax("unexpected end of text inside a string") }
        index += 1
        switch escaped {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad()
            var scalarValue = UInt32(unit)
            if (0xD800..<0xDC00).contains(unit) {
                guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                else { throw syntax("unpaired surrogate in a \\u escape") }
                index += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw syntax("unpaired surrogate in a \\u escape") }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00..<0xE000).contains(unit) {
                throw syntax("unpaired surrogate in a \\u escape")
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { throw syntax("invalid \\u escape") }
            if let encoded = UTF8.encode(scalar) { scratch.append(contentsOf: encoded) }
        default:
            index -= 1
            throw syntax("invalid escape sequence")
        }
    }

    private mutating func hexQuad() throws(JSONParsingError) -> UInt16 {
        guard bytes.count - index >= 4 else { throw syntax("invalid \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("invalid \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Steps over one well-formed multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates, at most
    /// U+10FFFF) starting at `index`, or throws.
    private mutating func skipUTF8Sequence() throws(JSONParsingError) {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: throw syntax("invalid UTF-8")
        }
        guard bytes.count - index >= length else { throw syntax("invalid UTF-8") }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { throw syntax("invalid UTF-8") }
        for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
            throw syntax("invalid UTF-8")
        }
        index += length
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
