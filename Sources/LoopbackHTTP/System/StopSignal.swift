#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe that every server thread polls next to its socket. Writing one byte makes the read end readable
/// for good (nobody reads it), which wakes every thread at once; this is how `stop()` interrupts blocking
/// waits without closing descriptors that other threads are still using.
struct StopSignal: Sendable {
    /// The end the threads poll.
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// Creates the pipe, both ends close-on-exec.
    static func make() throws(LoopbackHTTPError) -> StopSignal {
        var descriptors: [Int32] = [-1, -1]
        let created = descriptors.withUnsafeMutableBufferPointer { pipe($0.baseAddress) }
        guard created == 0 else { throw .systemCallFailed("pipe", errno: errno) }
        let signal = StopSignal(readDescriptor: descriptors[0], writeDescriptor: descriptors[1])
        for fd in descriptors {
            let flags = fcntl(fd, F_GETFD)
            guard flags >= 0, fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 else {
                signal.close()
                throw .systemCallFailed("fcntl(F_SETFD)", errno: errno)
            }
        }
        return signal
    }

    private init(readDescriptor: Int32, writeDescriptor: Int32) {
        self.readDescriptor = readDescriptor
        self.writeDescriptor = writeDescriptor
    }

    /// Wakes every thread polling the read end.
    func fire() {
        var byte: UInt8 = 1
        while write(writeDescriptor, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Closes both ends; call only once no thread polls any more.
    func close() {
        SocketCalls.closeDescriptor(readDescriptor)
        SocketCalls.closeDescriptor(writeDescriptor)
    }
}
