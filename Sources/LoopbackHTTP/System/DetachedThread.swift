#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts detached POSIX threads. `Foundation.Thread` is not part of FoundationEssentials, and a blocking
/// accept or read loop does not belong on Dispatch's shared pool.
enum DetachedThread {
    /// The closure a new thread runs, passed through `pthread_create`'s context pointer.
    private final class Entry: Sendable {
        let body: @Sendable () -> Void

        init(_ body: @escaping @Sendable () -> Void) {
            self.body = body
        }
    }

    /// Runs `body` on a new detached thread; `false` when the system refused to create one.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Entry(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(
            &thread, &attributes,
            { raw in
                #if canImport(Darwin)
                let entry = Unmanaged<Entry>.fromOpaque(raw).takeRetainedValue()
                #else
                guard let raw else { return nil }
                let entry = Unmanaged<Entry>.fromOpaque(raw).takeRetainedValue()
                #endif
                entry.body()
                return nil
            }, context)
        if result != 0 {
            Unmanaged<Entry>.fromOpaque(context).release()
            return false
        }
        return true
    }
}
