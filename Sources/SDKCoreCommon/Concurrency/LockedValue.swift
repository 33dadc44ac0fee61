#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a pthread mutex, for small pieces of state shared across threads.
///
/// Package plumbing (`package` access): it is not part of the public API, so hosts' namespaces do not get it.
///
/// `@unchecked Sendable` is sound here because the value is only reached inside ``withLock(_:)``, which holds
/// the mutex for the whole closure. A pthread mutex is used instead of `Synchronization.Mutex` because the
/// thread sanitizer reports false races inside `Mutex` under contention on Linux (Docs/Decisions/0003), and
/// `Mutex` needs macOS 15 / iOS 18.
///
/// ``withLock(_:)`` is inlinable and the value lives behind a pointer, so a call from another module is
/// specialised by the compiler and pays no generic-metadata lookup or dynamic exclusivity check: the
/// analytics `track()` hot path takes this lock twice per call (Docs/Decisions/0206).
///
/// ```swift
/// let counter = LockedValue(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    /// Creates a lock around `initialValue`.
    package init(_ initialValue: Value) {
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

    /// Runs `body` with exclusive access to the value and returns its result.
    ///
    /// Never call back into code that may take the same lock from inside `body`.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
