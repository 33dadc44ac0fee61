import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or standard input chunk by chunk off the cooperative thread pool (``LineSplitter`` splits it).
final class InputLines: Sendable {
    /// Why the input cannot be read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The size in bytes of a regular file; `nil` for standard input and other streams.
    let size: Int?
    private let queue = DispatchQueue(label: "sdkcore.binoban.send.input")

    /// Opens `path`, or standard input for `-`.
    init(path: String) throws(Failure) {
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
            size = nil
            return
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw Failure(description: "\(path): \(Self.reason(errno))") }
        guard (status.st_mode & S_IFMT) != S_IFDIR else { throw Failure(description: "\(path): is a directory") }
        let opened = open(path, O_RDONLY)
        guard opened >= 0 else { throw Failure(description: "\(path): \(Self.reason(errno))") }
        descriptor = opened
        ownsDescriptor = true
        size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The next bytes, or `nil` at the end of the input or once `shouldStop` returns `true` while waiting for
    /// input (checked five times a second, so Ctrl-C ends a run blocked on a quiet standard input).
    func nextChunk(shouldStop: @escaping @Sendable () -> Bool) async -> Result<[UInt8], Failure>? {
        let descriptor = self.descriptor
        return await withCheckedContinuation { continuation in
            queue.async {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&request, 1, 200)
                    if ready == 0 || (ready < 0 && errno == EINTR) {
                        if shouldStop() {
                            continuation.resume(returning: nil)
                            return
                        }
                        continue
                    }
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        continuation.resume(returning: .success(Array(buffer[0..<count])))
                    } else if count < 0, errno == EINTR {
                        continue
                    } else if count < 0 {
                        continuation.resume(returning: .failure(Failure(description: Self.reason(errno))))
                    } else {
                        continuation.resume(returning: nil)
                    }
                    return
                }
            }
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES: return "permission denied"
        default: return "cannot be read (errno \(code))"
        }
    }
}
