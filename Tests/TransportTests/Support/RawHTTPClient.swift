import Foundation
import LoopbackHTTP

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client that writes exact bytes and reads raw HTTP answers, for checking the server's
/// framing where a real HTTP client would hide it. Reads give up after a receive timeout, so a broken
/// server fails the test instead of hanging it.
final class RawHTTPClient {
    /// One answer as read from the wire.
    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`.
    init(port: UInt16, receiveTimeoutSeconds: Int = 10) throws {
        guard let fd = Self.openConnection(port: port) else {
            throw Failure(description: "connect to port \(port) failed: errno \(errno)")
        }
        self.fd = fd
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        SocketCalls.suppressSIGPIPE(fd)
    }

    deinit {
        SocketCalls.closeDescriptor(fd)
    }

    /// Whether a connection to 127.0.0.1:`port` is refused right now.
    static func isRefused(port: UInt16) -> Bool {
        guard let fd = openConnection(port: port) else { return errno == ECONNREFUSED }
        SocketCalls.closeDescriptor(fd)
        return false
    }

    /// A blocking socket connected to 127.0.0.1:`port`, or `nil` with `errno` set. The server's own sockets
    /// are non-blocking; this client blocks on purpose and relies on the receive timeout instead.
    private static func openConnection(port: UInt16) -> Int32? {
        let fd = SocketCalls.makeStreamSocket()
        guard fd >= 0 else { return nil }
        let result = SocketCalls.withLoopbackAddress(port: port) { connect(fd, $0, $1) }
        guard result == 0 else {
            let failure = errno
            SocketCalls.closeDescriptor(fd)
            errno = failure
            return nil
        }
        return fd
    }

    /// Writes all of `text` (as UTF-8).
    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { SocketCalls.sendSome($0, to: fd) }
            guard written > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Reads one complete answer (status line, headers, `Content-Length` body). Interim `1xx` answers are
    /// returned like any other, without a body; pass `bodyExpected: false` for the answer to a `HEAD`.
    func readAnswer(bodyExpected: Bool = true) throws -> Answer {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var answer = Answer(status: status, headers: headers, body: [])
        if bodyExpected, status >= 200, let length = answer.header("Content-Length").flatMap({ Int($0) }), length > 0 {
            while buffer.count < length {
                guard try fill() else { throw Failure(description: "connection closed inside a body") }
            }
            answer.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        }
        return answer
    }

    /// Reads until the server closes the connection and returns what arrived (after anything buffered).
    func readUntilClosed() throws -> [UInt8] {
        while try fill() {}
        defer { buffer.removeAll() }
        return buffer
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for index in searchFrom...(buffer.count - marker.count)
                where buffer[index..<(index + marker.count)].elementsEqual(marker) {
                    return index
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try fill() else { throw Failure(description: "connection closed before a complete head") }
        }
    }

    /// Reads more bytes; `false` at end of stream. Throws on a receive timeout.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { SocketCalls.readSome(from: fd, into: $0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return false }
            throw Failure(description: "read failed or timed out: errno \(errno)")
        }
    }
}
