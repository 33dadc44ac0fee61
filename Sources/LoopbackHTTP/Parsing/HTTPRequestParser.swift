/// An incremental HTTP/1.1 request parser: bytes go in with ``append(_:)``, events come out of
/// ``nextEvent()``. It performs no I/O and reads no clock, so every framing rule is testable on its own.
///
/// Supported framing: `Content-Length` (repeated identical values allowed), `Transfer-Encoding: chunked`
/// (extensions and trailers are read and ignored), no body otherwise, and `Expect: 100-continue`.
/// Requests may be pipelined: bytes after one request stay buffered for the next.
///
/// Cost: every byte is looked at once for line breaks in the head and once when the body is copied out; the
/// buffer grows geometrically and is compacted when most of it has been consumed.
struct HTTPRequestParser {
    /// Size limits, enforced before the bytes are buffered in full.
    struct Limits: Sendable, Hashable {
        /// The largest request head (request line and header fields) accepted; larger gets `431`.
        var maxHeadBytes: Int
        /// The largest body accepted; larger gets `413`.
        var maxBodyBytes: Int
    }

    /// What the connection has to do next.
    enum Event: Equatable {
        /// Read more bytes and call ``append(_:)``.
        case needMoreData
        /// The client asked for `100 Continue` before it sends the body: write it, then keep reading.
        case sendContinue
        /// A complete request.
        case request(ParsedRequest)
        /// The bytes are not an acceptable request: answer with `status` and close the connection.
        case failure(status: Int)
    }

    /// A complete request as parsed, before the server numbers it.
    struct ParsedRequest: Equatable {
        var method: String
        var target: String
        var version: String
        var headers: LoopbackHTTPHeaders
        var body: [UInt8]
        /// Whether the connection may carry another request after this one.
        var keepAlive: Bool
    }

    private struct Head: Equatable {
        var method: String
        var target: String
        var version: String
        var headers: LoopbackHTTPHeaders
        var keepAlive: Bool
    }

    private enum Framing {
        case none
        case length(Int)
        case chunked

        var carriesBody: Bool {
            if case .none = self { return false }
            return true
        }
    }

    private enum State {
        case head
        case fixedBody(Head, length: Int)
        case chunkSizeLine(Head)
        case chunkData(Head, remaining: Int)
        case chunkDataEnd(Head)
        case trailer(Head, consumed: Int)
        case failed(status: Int)
    }

    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let maxChunkLineBytes = 4096

    let limits: Limits
    private var state: State = .head
    private var buffer: [UInt8] = []
    /// The first byte not yet consumed.
    private var start = 0
    /// While reading a head: where the current line starts and how far it was searched, relative to `start`.
    private var lineStart = 0
    private var scanned = 0
    /// While reading a head: the lines found so far, relative to `start`.
    private var headLines: [Range<Int>] = []
    private var chunkedBody: [UInt8] = []
    private var continuePending = false

    init(limits: Limits) {
        self.limits = limits
    }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Whether bytes of an unfinished request are buffered (a close now would cut a request short).
    var hasBufferedBytes: Bool {
        start < buffer.count
    }

    /// Whether a request has begun and is not complete yet: bytes of it are buffered, or its head has been
    /// read and its body has not.
    /// Whether the parser is still reading a request head (its line and header fields), not a body.
    var isReadingHead: Bool {
        if case .head = state { return true }
        return false
    }

    var isInsideRequest: Bool {
        if case .head = state { return hasBufferedBytes }
        if case .failed = state { return false }
        return true
    }

    /// Advances as far as the buffered bytes allow and reports what the connection must do.
    mutating func nextEvent() -> Event {
        while true {
            switch state {
            case .failed(let status):
                return .failure(status: status)
            case .head:
                guard let step = readHead() else { return .needMoreData }
                switch step {
                case .failure(let status):
                    return fail(status)
                case .complete(let head, let framing):
                    switch framing {
                    case .none:
                        return .request(finish(head, body: []))
                    case .length(let length):
                        state = .fixedBody(head, length: length)
                    case .chunked:
                        state = .chunkSizeLine(head)
                    }
                    if continuePending && start == buffer.count {
                        continuePending = false
                        return .sendContinue
                    }
                    continuePending = false
                }
            case .fixedBody(let head, let length):
                guard buffer.count - start >= length else { return .needMoreData }
                let body = Array(buffer[start..<(start + length)])
                start += length
                return .request(finish(head, body: body))
            case .chunkSizeLine(let head):
                guard let line = nextLine(limit: Self.maxChunkLineBytes) else { return .needMoreData }
                guard let range = line else { return fail(400) }
                guard let size = Self.chunkSize(buffer[range]) else { return fail(400) }
                if size == 0 {
                    state = .trailer(head, consumed: 0)
                } else if size > limits.maxBodyBytes - chunkedBody.count {
                    return fail(413)
                } else {
                    state = .chunkData(head, remaining: size)
                }
            case .chunkData(let head, let remaining):
                let available = buffer.count - start
                guard available > 0 else { return .needMoreData }
                let take = min(available, remaining)
                chunkedBody.append(contentsOf: buffer[start..<(start + take)])
                start += take
                state = take == remaining ? .chunkDataEnd(head) : .chunkData(head, remaining: remaining - take)
            case .chunkDataEnd(let head):
                guard start < buffer.count else { return .needMoreData }
                if buffer[start] == Self.lineFeed {
                    start += 1
                } else if buffer[start] == Self.carriageReturn {
                    guard start + 1 < buffer.count else { return .needMoreData }
                    guard buffer[start + 1] == Self.lineFeed else { return fail(400) }
                    start += 2
                } else {
                    return fail(400)
                }
                state = .chunkSizeLine(head)
            case .trailer(let head, let consumed):
                let before = start
                guard let line = nextLine(limit: limits.maxHeadBytes - consumed) else { return .needMoreData }
                guard let range = line else { return fail(431) }
                if range.isEmpty {
                    let body = chunkedBody
                    chunkedBody = []
                    return .request(finish(head, body: body))
                }
                state = .trailer(head, consumed: consumed + (start - before))
            }
        }
    }

    // MARK: - Head

    private enum HeadStep {
        case complete(Head, Framing)
        case failure(status: Int)
    }

    /// Reads head lines; `nil` means more bytes are needed.
    private mutating func readHead() -> HeadStep? {
        if headLines.isEmpty && lineStart == 0 && scanned == 0 {
            // Empty lines before a request line are ignored (RFC 9112 §2.2).
            while start < buffer.count && (buffer[start] == Self.carriageReturn || buffer[start] == Self.lineFeed) {
                start += 1
            }
        }
        while true {
            let from = start + scanned
            guard let feed = buffer[from...].firstIndex(of: Self.lineFeed) else {
                scanned = buffer.count - start
                if scanned > limits.maxHeadBytes { return .failure(status: 431) }
                return nil
            }
            if feed + 1 - start > limits.maxHeadBytes { return .failure(status: 431) }
            var end = feed
            if end > start + lineStart && buffer[end - 1] == Self.carriageReturn { end -= 1 }
            let line = (start + lineStart)..<end
            lineStart = feed + 1 - start
            scanned = lineStart
            if line.isEmpty {
                let lines = headLines.map { ($0.lowerBound + start)..<($0.upperBound + start) }
                let result = parseHead(lines)
                start += lineStart
                headLines = []
                lineStart = 0
                scanned = 0
                return result
            }
            headLines.append((line.lowerBound - start)..<(line.upperBound - start))
        }
    }

    private mutating func parseHead(_ lines: [Range<Int>]) -> HeadStep {
        guard let requestLine = lines.first else { return .failure(status: 400) }
        let parts = buffer[requestLine].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenByte),
            !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return .failure(status: 400) }
        let versionBytes = Array(parts[2])
        let minor: Int
        switch versionBytes {
        case Array("HTTP/1.1".utf8): minor = 1
        case Array("HTTP/1.0".utf8): minor = 0
        default:
            let looksLikeVersion =
                versionBytes.count == 8 && versionBytes.starts(with: "HTTP/".utf8)
                && versionBytes[5] >= 0x30 && versionBytes[5] <= 0x39 && versionBytes[6] == UInt8(ascii: ".")
                && versionBytes[7] >= 0x30 && versionBytes[7] <= 0x39
            return .failure(status: looksLikeVersion ? 505 : 400)
        }

        var headers = LoopbackHTTPHeaders()
        for range in lines.dropFirst() {
            let line = buffer[range]
            guard let first = line.first, first != 0x20, first != 0x09,
                let colon = line.firstIndex(of: UInt8(ascii: ":"))
            else { return .failure(status: 400) }
            let name = buffer[range.lowerBound..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else { return .failure(status: 400) }
            var valueStart = colon + 1
            var valueEnd = range.upperBound
            while valueStart < valueEnd && Self.isWhitespace(buffer[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart && Self.isWhitespace(buffer[valueEnd - 1]) { valueEnd -= 1 }
            let value = buffer[valueStart..<valueEnd]
            guard !value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                return .failure(status: 400)
            }
            headers.add(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        }

        let connectionTokens = Self.tokens(headers.values(for: "Connection"))
        let keepAlive = minor == 1 ? !connectionTokens.contains("close") : connectionTokens.contains("keep-alive")
        let head = Head(
            method: String(decoding: parts[0], as: UTF8.self),
            target: String(decoding: parts[1], as: UTF8.self),
            version: minor == 1 ? "HTTP/1.1" : "HTTP/1.0",
            headers: headers,
            keepAlive: keepAlive
        )

        let framing: Framing
        let transferCodings = Self.tokens(headers.values(for: "Transfer-Encoding"))
        let lengths = headers.values(for: "Content-Length")
        if headers.contains("Transfer-Encoding") {
            // A message with both is a classic smuggling vector; RFC 9112 §6.3 allows rejecting it.
            guard minor == 1, lengths.isEmpty, transferCodings.last == "chunked" else { return .failure(status: 400) }
            guard transferCodings.count == 1 else { return .failure(status: 501) }
            framing = .chunked
        } else if !lengths.isEmpty {
            let trimmed = lengths.flatMap { $0.split(separator: ",") }.map {
                String($0).trimmingCharacters(in: " \t")
            }
            guard let first = trimmed.first, trimmed.allSatisfy({ $0 == first }), !first.isEmpty,
                first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { return .failure(status: 400) }
            guard first.utf8.count <= 18, let length = Int(first) else { return .failure(status: 413) }
            guard length <= limits.maxBodyBytes else { return .failure(status: 413) }
            framing = length == 0 ? .none : .length(length)
        } else {
            framing = .none
        }

        if let expectation = headers["Expect"] {
            guard expectation.lowercased() == "100-continue" else { return .failure(status: 417) }
            // HTTP/1.0 clients cannot expect 100 Continue (RFC 9110 §10.1.1); a request without a body
            // needs no go-ahead.
            continuePending = minor == 1 && framing.carriesBody
        }
        return .complete(head, framing)
    }

    // MARK: - Helpers

    /// The next line of a body-framing section (chunk size or trailer), or `nil` when more bytes are
    /// needed; `.some(nil)` when the line exceeds `limit`.
    private mutating func nextLine(limit: Int) -> Range<Int>?? {
        guard let feed = buffer[start...].firstIndex(of: Self.lineFeed) else {
            return buffer.count - start > limit ? .some(nil) : nil
        }
        if feed + 1 - start > limit { return .some(nil) }
        var end = feed
        if end > start && buffer[end - 1] == Self.carriageReturn { end -= 1 }
        let line = start..<end
        start = feed + 1
        return .some(line)
    }

    /// Parses `1a3f[;extension]` into a size; `nil` when malformed or too large to represent.
    private static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let digit = hexValue(line[index]) {
            digits += 1
            if digits > 15 { return nil }
            size = size << 4 | Int(digit)
            index += 1
        }
        guard digits > 0 else { return nil }
        while index < line.endIndex && isWhitespace(line[index]) { index += 1 }
        guard index == line.endIndex || line[index] == UInt8(ascii: ";") else { return nil }
        return size
    }

    private mutating func finish(_ head: Head, body: [UInt8]) -> ParsedRequest {
        state = .head
        return ParsedRequest(
            method: head.method,
            target: head.target,
            version: head.version,
            headers: head.headers,
            body: body,
            keepAlive: head.keepAlive
        )
    }

    private mutating func fail(_ status: Int) -> Event {
        state = .failed(status: status)
        return .failure(status: status)
    }

    private mutating func compactIfWorthwhile() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 64 * 1024 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Lower-cased, trimmed, non-empty comma-separated tokens of a list-valued header.
    private static func tokens(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.lowercased().trimmingCharacters(in: " \t") }
            .filter { !$0.isEmpty }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// Whether `byte` may appear in a token (RFC 9110 §5.6.2 `tchar`).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}

extension String {
    /// The string without leading and trailing characters from `set` (Essentials has no `CharacterSet`).
    fileprivate func trimmingCharacters(in set: String) -> String {
        let kept = drop(while: { set.contains($0) })
        return String(kept.reversed().drop(while: { set.contains($0) }).reversed())
    }
}
