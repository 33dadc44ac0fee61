#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the server needs, with the platform differences in one place.
///
/// Every descriptor is created close-on-exec (so child processes such as a CLI under test never inherit a
/// listener) and non-blocking (so every wait goes through `poll` together with the stop signal).
package enum SocketCalls {
    /// What a wait on a descriptor ended with.
    enum Readiness {
        case ready
        case stopRequested
        case timedOut
        case failed
    }

    /// Creates a listening TCP socket on 127.0.0.1 and returns it with the port it is bound to.
    static func makeLoopbackListener(port: UInt16, backlog: Int32) throws(LoopbackHTTPError) -> (Int32, UInt16) {
        let fd = makeStreamSocket()
        guard fd >= 0 else { throw .systemCallFailed("socket", errno: errno) }
        do throws(LoopbackHTTPError) {
            try configureDescriptor(fd)
            var reuse: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))

            let bound = withLoopbackAddress(port: port) { bind(fd, $0, $1) }
            guard bound == 0 else { throw LoopbackHTTPError.systemCallFailed("bind", errno: errno) }
            guard listen(fd, backlog) == 0 else { throw LoopbackHTTPError.systemCallFailed("listen", errno: errno) }

            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &actual) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw LoopbackHTTPError.systemCallFailed("getsockname", errno: errno) }
            return (fd, UInt16(bigEndian: actual.sin_port))
        } catch {
            _ = close(fd)
            throw error
        }
    }

    /// Creates a TCP/IPv4 stream socket with the platform's default (blocking) flags; -1 with `errno` set on
    /// failure.
    package static func makeStreamSocket() -> Int32 {
        #if canImport(Darwin)
        socket(AF_INET, SOCK_STREAM, 0)
        #else
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
    }

    /// Calls `body` with the address 127.0.0.1:`port` and its length, ready for `bind` or `connect`.
    package static func withLoopbackAddress<Result>(
        port: UInt16,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// Accepts one pending connection; `nil` when none is pending or the accept failed.
    static func acceptConnection(_ listener: Int32) -> (descriptor: Int32?, errno: Int32) {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return (nil, errno) }
        do {
            try configureDescriptor(fd)
        } catch {
            _ = close(fd)
            return (nil, 0)
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return (fd, 0)
    }

    /// Makes a descriptor close-on-exec and non-blocking (and, on Darwin, free of `SIGPIPE`).
    static func configureDescriptor(_ fd: Int32) throws(LoopbackHTTPError) {
        let descriptorFlags = fcntl(fd, F_GETFD)
        guard descriptorFlags >= 0, fcntl(fd, F_SETFD, descriptorFlags | FD_CLOEXEC) == 0 else {
            throw .systemCallFailed("fcntl(F_SETFD)", errno: errno)
        }
        let statusFlags = fcntl(fd, F_GETFL)
        guard statusFlags >= 0, fcntl(fd, F_SETFL, statusFlags | O_NONBLOCK) == 0 else {
            throw .systemCallFailed("fcntl(F_SETFL)", errno: errno)
        }
        suppressSIGPIPE(fd)
    }

    /// On Darwin, makes writes to a closed peer fail with `EPIPE` instead of raising `SIGPIPE`; elsewhere
    /// ``sendSome(_:to:)`` passes `MSG_NOSIGNAL` instead, so there is nothing to do.
    package static func suppressSIGPIPE(_ fd: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Waits until `fd` is readable (or writable) or the stop pipe fires; `timeoutMilliseconds` of -1 waits
    /// for ever.
    static func wait(
        for fd: Int32,
        writable: Bool = false,
        stopSignal: Int32,
        timeoutMilliseconds: Int32 = -1
    ) -> Readiness {
        let wanted = Int16(writable ? POLLOUT : POLLIN)
        var descriptors = [
            pollfd(fd: fd, events: wanted, revents: 0),
            pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let result = descriptors.withUnsafeMutableBufferPointer {
                poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
            }
            if result < 0 {
                if errno == EINTR { continue }
                return .failed
            }
            if result == 0 { return .timedOut }
            if descriptors[1].revents != 0 { return .stopRequested }
            // POLLHUP / POLLERR also end the wait: the following read or write reports what happened.
            return .ready
        }
    }

    /// Writes every byte, waiting for the socket to drain when needed. `false` when the peer went away, took
    /// nothing for `idleTimeoutMilliseconds` (-1: no limit), or a stop was requested.
    static func writeAll(
        _ bytes: UnsafeRawBufferPointer,
        to fd: Int32,
        stopSignal: Int32,
        idleTimeoutMilliseconds: Int32
    ) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let written = sendSome(UnsafeRawBufferPointer(start: pointer, count: remaining), to: fd)
            if written > 0 {
                pointer += written
                remaining -= written
                continue
            }
            let failure = errno
            if written < 0 && failure == EINTR { continue }
            guard written < 0, failure == EAGAIN || failure == EWOULDBLOCK else { return false }
            guard
                case .ready = wait(
                    for: fd, writable: true, stopSignal: stopSignal, timeoutMilliseconds: idleTimeoutMilliseconds)
            else { return false }
        }
        return true
    }

    /// Writes what the socket takes now from `bytes` without raising `SIGPIPE`: the byte count, or -1 with
    /// `errno` set.
    package static func sendSome(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int {
        #if canImport(Darwin)
        send(fd, bytes.baseAddress, bytes.count, 0)
        #else
        send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #endif
    }

    /// Reads what is available into `buffer`: the byte count, 0 at end of stream, or -1 with `errno` set.
    package static func readSome(from fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        read(fd, buffer.baseAddress, buffer.count)
    }

    /// Closes a descriptor, ignoring errors (there is nothing useful to do about them here).
    package static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Half-closes the sending side, then reads and discards what the peer still sends, for at most
    /// `timeoutMilliseconds` in all and at most 1 MiB, so a final error answer is not destroyed by a reset
    /// (the "lingering close") and a client that keeps sending cannot keep the connection.
    static func lingeringClose(_ fd: Int32, stopSignal: Int32, timeoutMilliseconds: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .milliseconds(timeoutMilliseconds))
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var discarded = 0
        while discarded < 1024 * 1024 {
            let left = clock.now.duration(to: deadline).components
            let leftMilliseconds = left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000
            guard leftMilliseconds > 0,
                case .ready = wait(for: fd, stopSignal: stopSignal, timeoutMilliseconds: Int32(leftMilliseconds))
            else { break }
            let count = scratch.withUnsafeMutableBytes { readSome(from: fd, into: $0) }
            if count > 0 {
                discarded += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                continue
            } else {
                break
            }
        }
        closeDescriptor(fd)
    }
}
