#if canImport(Glibc) || canImport(Musl)
#if canImport(Glibc)
import Glibc
#else
import Musl
#endif
import Synchronization

/// Bytes from the kernel's generator, fetched 256 at a time (the most one `getentropy` call returns) and handed
/// out 16 at a time, each byte once: one system call per 16 session ids instead of one per id.
///
/// A forked child must not hand out the bytes its parent hands out too: a fork handler bumps a generation
/// counter, and a pool filled in an earlier generation is refilled before its next use.
struct FalconRandomBytePool {
    private static let capacity = 256
    private var bytes = [UInt8](repeating: 0, count: capacity)
    /// How many bytes of `bytes` were handed out (all of them: none fetched yet).
    private var used = capacity
    /// The fork generation `bytes` were fetched in.
    private var generation = 0

    /// The pool of the process, shared by every ``FalconUUIDSource``.
    static let shared = LockedValue(FalconRandomBytePool())

    /// Bumped in the child after every `fork()`; registered when the shared pool is first used.
    private static let forkGeneration = Atomic<Int>(0)
    private static let forkHandler: Void = {
        pthread_atfork(nil, nil) { FalconRandomBytePool.forkGeneration.add(1, ordering: .relaxed) }
    }()

    /// Fills `words` with 16 bytes nobody else got.
    mutating func take(_ words: inout (UInt64, UInt64)) {
        _ = Self.forkHandler
        let current = Self.forkGeneration.load(ordering: .relaxed)
        if used + 16 > Self.capacity || generation != current { refill(generation: current) }
        bytes.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &words) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[used..<used + 16]))
            }
        }
        // Handed-out bytes are not kept around.
        bytes.withUnsafeMutableBytes { _ = $0[used..<used + 16].initializeMemory(as: UInt8.self, repeating: 0) }
        used += 16
    }

    private mutating func refill(generation current: Int) {
        let filled = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) == 0 }
        if !filled {
            // `getentropy` fails only without a usable kernel generator; the standard library's generator then
            // has the last word (it traps rather than return predictable bytes).
            var random = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = random.next() }
        }
        used = 0
        generation = current
    }
}
#endif
