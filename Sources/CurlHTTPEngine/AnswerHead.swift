/// The head of the answer as libcurl hands it over, one complete line at a time: the status line, header lines
/// and the empty line that ends the head. A value type with no I/O, so that its rules are tested alone.
///
/// It bounds the head: past ``limit`` bytes (all lines of all heads of one transfer, interim `1xx` heads
/// included) it refuses the line and the engine stops the transfer as a protocol violation.
package struct AnswerHead: Sendable {
    /// The most head bytes accepted per transfer: 64 KiB.
    package static let limit = 64 * 1024

    /// The headers of the latest head; an interim `1xx` head is dropped when the next status line arrives.
    package private(set) var headers: [String: String] = [:]
    /// Whether the head's bytes went past ``limit``.
    package private(set) var isTooLarge = false
    /// Whether a final (non-`1xx`) head has ended with its empty line. libcurl reports a transfer whose server
    /// closed after part of a head as done without error; this tells it apart from an answer.
    package private(set) var isComplete = false
    private var isInterim = false
    private var byteCount = 0
    private var lastName: String?

    /// Creates an empty head.
    package init() {}

    /// Takes one line (with its line break). `false` when the head is now too large: stop the transfer.
    package mutating func take(line: UnsafeRawBufferPointer) -> Bool {
        byteCount += line.count
        guard byteCount <= Self.limit else {
            isTooLarge = true
            return false
        }
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\n") || line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let text = UnsafeRawBufferPointer(rebasing: line[..<end])
        guard !text.isEmpty else {
            // The empty line that ends a head: the answer's, unless it ended an interim 1xx head.
            if !isInterim { isComplete = true }
            return true
        }
        if text.starts(with: "HTTP/".utf8) {
            headers = [:]
            lastName = nil
            isComplete = false
            // "HTTP/1.1 1xx ...": the code's first digit follows the first space.
            let space = text.firstIndex(of: UInt8(ascii: " "))
            isInterim = space.map { $0 + 1 < text.count && text[$0 + 1] == UInt8(ascii: "1") } ?? false
            return true
        }
        if text[0] == UInt8(ascii: " ") || text[0] == UInt8(ascii: "\t") {
            // An obsolete folded line continues the previous header's value.
            if let lastName { headers[lastName, default: ""] += " " + Self.trimmed(text) }
            return true
        }
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return true }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: text[..<colon]), as: UTF8.self)
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: text[(colon + 1)...]))
        if let existing = headers[name] {
            headers[name] = existing + ", " + value
        } else {
            headers[name] = value
        }
        lastName = name
        return true
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> String {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == UInt8(ascii: " ") || bytes[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
