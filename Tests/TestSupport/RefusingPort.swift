#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 that refuses every connection for as long as this value lives: a TCP socket bound to it
/// and never listening. Holding the port (rather than binding and closing at once) keeps another test's server
/// from taking it meanwhile, which would answer instead of refusing.
public final class RefusingPort: Sendable {
    /// Why the port could not be held.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed, with `errno`.
        public let description: String
    }

    /// The port.
    public let port: UInt16
    private let descriptor: Int32

    /// Binds a socket to a free port of 127.0.0.1.
    public init() throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(descriptor)
            throw Failure(description: "bind failed: errno \(code)")
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    deinit {
        close(descriptor)
    }
}
