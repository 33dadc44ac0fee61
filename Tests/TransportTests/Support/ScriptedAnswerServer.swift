import Foundation
import LoopbackHTTP
import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-connection-at-a-time HTTP server on 127.0.0.1 whose answers are written by the test byte by byte, for
/// answers `LoopbackHTTPServer` cannot give on purpose: a body of ten megabytes whose delivery is counted, a body
/// that trickles in one byte at a time.
///
/// It reads each request's head and `Content-Length` body, then calls `answer` with a writer that reports
/// whether the bytes went out. It serves at most `maxConnections` connections and gives up on a connection whose
/// client stays silent for 10 s, so a test that goes wrong ends instead of hanging.
final class ScriptedAnswerServer: Sendable {
    /// Writes bytes to the client; `false` once the client has gone.
    typealias Writer = @Sendable ([UInt8]) -> Bool

    private let listener: Int32
    /// The port the server listens on.
    let port: UInt16
    private let counts = LockedValue((requests: 0, bodyBytesWritten: 0, answered: 0))

    /// Starts listening and serving on a thread of its own.
    init(maxConnections: Int = 4, answer: @escaping @Sendable (_ write: Writer) -> Void) throws {
        let fd = SocketCalls.makeStreamSocket()
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = SocketCalls.withLoopbackAddress(port: 0) { bind(fd, $0, $1) }
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else {
            throw RawHTTPClient.Failure(description: "listen failed: errno \(errno)")
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let counts = counts
        Thread.detachNewThread {
            for _ in 0..<maxConnections {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                SocketCalls.suppressSIGPIPE(client)
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                while Self.readRequest(from: client) {
                    counts.withLock { $0.requests += 1 }
                    let writer: Writer = { bytes in
                        let sent = bytes.withUnsafeBytes { raw -> Bool in
                            var offset = 0
                            while offset < raw.count {
                                let written = SocketCalls.sendSome(
                                    UnsafeRawBufferPointer(rebasing: raw[offset...]), to: client)
                                guard written > 0 else { return false }
                                offset += written
                            }
                            return true
                        }
                        if sent { counts.withLock { $0.bodyBytesWritten += bytes.count } }
                        return sent
                    }
                    answer(writer)
                    counts.withLock { $0.answered += 1 }
                }
                SocketCalls.closeDescriptor(client)
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        SocketCalls.closeDescriptor(listener)
    }

    /// The server's URL for `path`.
    func url(path: String = "/b") -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// How many requests it has read.
    var requestCount: Int { counts.withLock { $0.requests } }

    /// How many answers the test's closure has finished writing (or given up on).
    var finishedAnswerCount: Int { counts.withLock { $0.answered } }

    /// How many bytes the writers have handed to the kernel, headers included.
    var bytesWritten: Int { counts.withLock { $0.bodyBytesWritten } }

    /// Reads one request head and its `Content-Length` body; `false` when the client closed or stayed silent.
    private static func readRequest(from fd: Int32) -> Bool {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var bodyLength = 0
        while true {
            if headEnd == nil, let range = received.firstRange(of: separator) {
                headEnd = range.upperBound
                let head = String(decoding: received[..<range.lowerBound], as: UTF8.self).lowercased()
                for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let headEnd, received.count >= headEnd + bodyLength { return true }
            let count = chunk.withUnsafeMutableBytes { SocketCalls.readSome(from: fd, into: $0) }
            guard count > 0 else { return false }
            received += chunk[..<count]
        }
    }
}
