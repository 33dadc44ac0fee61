import Foundation

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
        guard let fd = Self.connect(port: port) else {
            throw Failure(description: "connect to port \(port) failed: errno \(errno)")
        }
        self.fd = fd
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    deinit {
        close(fd)
    }

    /// Whether a connection to 127.0.0.1:`port` is refused right now.
    static func isRefused(port: UInt16) -> Bool {
        guard let fd = connect(port: port) else { return errno == ECONNREFUSED }
        close(fd)
        return false
    }

    private static func connect(port: UInt16) -> Int32? {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Darwin)
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else {
            let failure = errno
            close(fd)
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
            let written = bytes[offset...].withUnsafeBytes { raw in
                #if canImport(Darwin)
                Darwin.send(fd, raw.baseAddress, raw.count, 0)
                #else
                Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
                #endif
            }
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
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
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
