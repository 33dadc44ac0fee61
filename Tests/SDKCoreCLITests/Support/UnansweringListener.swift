import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP listener on 127.0.0.1 that accepts connections and never reads or answers: an ingest that hangs.
/// Its thread holds the accepted connections open until ``stop()``.
final class UnansweringListener: Sendable {
    private let descriptor: Int32
    /// The port it listens on.
    let port: UInt16
    private let connections = DispatchSemaphore(value: 0)

    struct Failure: Error {
        var call: String
    }

    init() throws {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw Failure(call: "bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [connections] in
            Self.acceptUntilStopped(descriptor, signalling: connections)
        }
        thread.start()
    }

    /// Accepts connections and keeps them open until the listener is shut down, then closes them.
    private static func acceptUntilStopped(_ descriptor: Int32, signalling connections: DispatchSemaphore) {
        var accepted: [Int32] = []
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection >= 0 {
                accepted.append(connection)
                connections.signal()
            } else if errno != EINTR {
                break
            }
        }
        for connection in accepted { close(connection) }
        close(descriptor)
    }

    /// Waits until a client connected (at most `seconds`); `false` if none did.
    func waitForConnection(seconds: Double) -> Bool {
        connections.wait(timeout: .now() + seconds) == .success
    }

    /// Stops accepting; the accepting thread then closes every connection and the listener.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
