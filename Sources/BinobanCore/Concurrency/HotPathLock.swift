#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pthread lock of `LockedValue`, compiled into this module for the `track()` hot path.
///
/// `LockedValue.withLock` lives in another module and is not inlinable, so each call pays a generic
/// metadata lookup and a dynamic exclusivity check (about 8% of a `track()` call in the benchmarks). This
/// copy is specialised by the compiler and keeps the value behind a pointer, so neither cost applies.
///
/// `@unchecked Sendable` is sound because the value is only reached inside ``withLock(_:)``, which holds the
/// mutex for the whole closure (Docs/Decisions/0003, 0206).
final class HotPathLock<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    init(_ initialValue: Value) {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Never call back into code that takes this lock.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
